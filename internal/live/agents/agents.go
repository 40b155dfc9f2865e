// Package agents holds the agent profiles: for each real agent harness lembas-check drives
// (opencode, pi, qwen-code, cline, codex, …), the npm package and version it was proved on, how to
// point it at the fake provider (environment and config files written into a temporary HOME), its
// one-shot, ACP and RPC commands, its tools as the fake's default policy needs them, and whether its
// clock can be moved. One JSON file per agent (<name>.json here, docs/live.md); a profile of one's
// own is read with Parse.
package agents

import (
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/cmdline"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

//go:embed *.json
var files embed.FS

// Profile is one agent's profile.
type Profile struct {
	Name  string `json:"name"`
	About string `json:"about"`
	// Package and Version are the npm package and the version the profile was proved on.
	Package string `json:"package"`
	Version string `json:"version"`
	// Bin is the program's name (node_modules/.bin/<bin>).
	Bin string `json:"bin"`
	// API is the model API the agent speaks to the fake: "chat completions", "responses",
	// "anthropic messages" or "gemini".
	API string `json:"api"`
	// Model is the model the agent asks for when left to its own configuration (codex:
	// gpt-6.2-sol, whose metadata gives it its default tools), which the fake then serves and
	// {model} names; "": the fake's own, fake-model, which the profile points the agent at.
	Model string `json:"model,omitempty"`
	// Env is added to the agent's environment, each value with the variables of Vars filled in.
	Env map[string]string `json:"env,omitempty"`
	// Files are written under the temporary HOME before the agent starts: a path relative to
	// HOME, and its content — a string (written as it is) or a JSON value (written as JSON) —
	// with the variables filled in.
	Files map[string]json.RawMessage `json:"files,omitempty"`
	// Setup are commands run once, in order, before the agent (cline's `auth`).
	Setup [][]string `json:"setup,omitempty"`
	// Oneshot runs one prompt and exits; ACP speaks the Agent Client Protocol on stdio; RPC
	// speaks the agent's own JSON lines on stdio, one process for the session (pi's --mode rpc,
	// docs/live.md). Any may be absent.
	Oneshot *Command `json:"oneshot,omitempty"`
	ACP     *Command `json:"acp,omitempty"`
	RPC     *Command `json:"rpc,omitempty"`
	// A2A starts an A2A server (docs/live.md): it prints the http://HOST:PORT it listens on,
	// and serves its agent card there.
	A2A *Command `json:"a2a,omitempty"`
	// HTTP drives a server through its own HTTP API (docs/live.md).
	HTTP *HTTP `json:"http,omitempty"`
	// Tools are how the default policy drives the agent.
	Tools Tools `json:"tools"`
	// Clock is "libfaketime" when a moved clock reaches the agent, or why it does not.
	Clock string `json:"clock"`
	// Notes are what a person pointing the agent at a server by hand must know (docs/live.md).
	Notes []string `json:"notes,omitempty"`
	// File is where the profile came from.
	File string `json:"-"`
}

// Command is how the agent is run: its arguments after the program, with the variables filled
// in ({prompt} for the person's words).
type Command struct {
	Args []string `json:"args"`
	// Continue are the arguments that carry on the previous session with a new prompt (one-shot
	// only); absent: the agent cannot, and each prompt is a new session.
	Continue []string `json:"continue,omitempty"`
	// Model, for ACP, is the model the session is moved to right after session/new (an agent
	// that opens its sessions on a model of its own, as cline does).
	Model string `json:"model,omitempty"`
	// Compact, for ACP, is the prompt that makes the agent compact its session (a slash command
	// such as /compact), for an agent that has no _lembas/session/compact.
	Compact string `json:"compact,omitempty"`
}

// Tools is what the default policy needs of the agent's tools.
type Tools struct {
	// Read are the agent's ways of reading a file, tried in order before the read tool the
	// policy finds by its name: a tool name and its arguments with {path} or {qpath}, or a
	// custom tool's input with them.
	Read []script.ToolShape `json:"read,omitempty"`
	// Paths is "absolute" for an agent that refuses relative paths, else "relative".
	Paths string `json:"paths"`
	// Calls are the agent's tools as the live target (run --live) calls them to make a case's
	// steps, by operation (livetarget.Ops: read, write, edit, delete, list, mkdir, mv, commit, shell,
	// recall, patch): the tool's name and its arguments, in which a string that is a
	// placeholder ("{path}", "{offset}", …) stands for the value (docs/live.md).
	Calls map[string]script.ToolShape `json:"calls,omitempty"`
}

// ClockFile is the clock of an agent that reads libfaketime's timestamp file itself, so that
// its clock moves with no preload: the reference agent, a Go program, which LD_PRELOAD does not
// reach (the runtime reads the time without libc).
const ClockFile = "reads FAKETIME_TIMESTAMP_FILE"

// ClockMoves says whether a moved clock reaches the agent: through libfaketime, or the
// timestamp file it reads itself.
func (p *Profile) ClockMoves() bool { return p.Clock == "libfaketime" || p.Clock == ClockFile }

// Names lists the built-in profiles, sorted.
func Names() []string {
	es, _ := files.ReadDir(".")
	var out []string
	for _, e := range es {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(out)
	return out
}

// Builtin is a built-in profile by name.
func Builtin(name string) (*Profile, error) {
	b, err := files.ReadFile(name + ".json")
	if err != nil {
		return nil, fmt.Errorf("no agent profile %q (built in: %s; or give a profile file, docs/live.md)", name,
			strings.Join(Names(), ", "))
	}
	return Parse(b, "agents/"+name+".json")
}

// Load is a built-in profile by name, or a profile file by its path (one ending in .json).
func Load(name string) (*Profile, error) {
	if strings.HasSuffix(name, ".json") {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		return Parse(b, name)
	}
	return Builtin(name)
}

// Parse reads a profile strictly: an unknown field, a missing one or anything after the profile
// is an error naming the file.
func Parse(b []byte, file string) (*Profile, error) {
	var p Profile
	if err := jsonx.Decode(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	p.File = file
	var miss []string
	for _, f := range []struct{ name, v string }{{"name", p.Name}, {"bin", p.Bin}, {"api", p.API}, {"clock", p.Clock}} {
		if f.v == "" {
			miss = append(miss, f.name)
		}
	}
	if len(miss) > 0 {
		return nil, fmt.Errorf("%s: missing %s", file, strings.Join(miss, ", "))
	}
	if p.HTTP != nil {
		if err := p.HTTP.check(file); err != nil {
			return nil, err
		}
	}
	if p.Oneshot == nil && p.ACP == nil && p.RPC == nil && p.A2A == nil && p.HTTP == nil {
		return nil, fmt.Errorf("%s: neither oneshot, acp, rpc nor a2a: say how the agent is run", file)
	}
	switch p.Tools.Paths {
	case "", "relative", "absolute":
	default:
		return nil, fmt.Errorf("%s: tools.paths %q: want relative or absolute", file, p.Tools.Paths)
	}
	switch p.API {
	case "chat completions", "responses", "anthropic messages", "gemini":
	default:
		return nil, fmt.Errorf("%s: api %q: want \"chat completions\", \"responses\", \"anthropic messages\" or "+
			"\"gemini\"", file, p.API)
	}
	for name, c := range p.Files {
		if filepath.IsAbs(name) || strings.HasPrefix(path.Clean(name), "..") {
			return nil, fmt.Errorf("%s: files: %q must be a path inside HOME", file, name)
		}
		var s string
		if len(c) == 0 || c[0] == '"' && json.Unmarshal(c, &s) != nil {
			return nil, fmt.Errorf("%s: files: %q: want a string or a JSON value", file, name)
		}
	}
	for op, sh := range p.Tools.Calls {
		if !shapeOK(sh) {
			return nil, fmt.Errorf("%s: tools.calls.%s: a call needs a name, and its arguments as JSON or (a custom "+
				"tool's) its input", file, op)
		}
	}
	for _, sh := range p.Tools.Read {
		if !shapeOK(sh) {
			return nil, fmt.Errorf("%s: tools.read: each shape needs a name, and its arguments as JSON or (a custom "+
				"tool's) its input", file)
		}
	}
	return &p, nil
}

// shapeOK: a tool's name, and either its arguments as JSON or a custom tool's input.
func shapeOK(sh script.ToolShape) bool {
	if sh.Input != "" {
		return sh.Name != "" && len(sh.Arguments) == 0
	}
	return sh.Name != "" && json.Valid(sh.Arguments)
}

// EnvName is the variable that names the agent's program: LEMBAS_<NAME> (LEMBAS_QWEN_CODE).
func (p *Profile) EnvName() string {
	return "LEMBAS_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(p.Name))
}

// Find is the agent's program: lembas-check's own executable for a profile whose program is
// lembas-check (the reference agent), else $LEMBAS_<NAME>, else $LEMBAS_AGENTS/<name or bin>/node_modules/.bin/<bin>,
// else <bin> on PATH. The error says how to install it.
func (p *Profile) Find() (string, error) {
	if p.Bin == Self {
		return os.Executable()
	}
	if v := os.Getenv(p.EnvName()); v != "" {
		if _, err := os.Stat(v); err != nil {
			return "", fmt.Errorf("%s=%s: %v", p.EnvName(), v, err)
		}
		return v, nil
	}
	if dir := os.Getenv("LEMBAS_AGENTS"); dir != "" {
		for _, d := range []string{p.Name, p.Bin} {
			c := filepath.Join(dir, d, "node_modules", ".bin", p.Bin)
			if _, err := os.Stat(c); err == nil {
				return c, nil
			}
		}
	}
	if c, err := exec.LookPath(p.Bin); err == nil {
		return c, nil
	}
	return "", &NotInstalled{Profile: p}
}

// NotInstalled is an agent whose program is nowhere to be found.
type NotInstalled struct{ Profile *Profile }

func (e *NotInstalled) Error() string {
	p := e.Profile
	return fmt.Sprintf("%s is not installed: npm install --prefix DIR/%s %s@%s, then LEMBAS_AGENTS=DIR (or "+
		"%s=DIR/%s/node_modules/.bin/%s, or %s on PATH)",
		p.Name, p.Name, p.Package, p.Version, p.EnvName(), p.Name, p.Bin, p.Bin)
}

// Vars are what a profile's templates are filled with.
type Vars struct {
	// Bin is the agent's program; Home the temporary HOME; Dir the session directory.
	Bin, Home, Dir string
	// URL is the fake's root (http://127.0.0.1:PORT); BaseURL the OpenAI base URL (URL + "/v1").
	URL, BaseURL string
	Model, Key   string
	Prompt       string
}

func (v Vars) replacer(escape func(string) string) *strings.Replacer {
	return strings.NewReplacer("{bin}", escape(v.Bin), "{home}", escape(v.Home), "{dir}", escape(v.Dir),
		"{url}", escape(v.URL), "{base_url}", escape(v.BaseURL), "{model}", escape(v.Model), "{key}", escape(v.Key),
		"{prompt}", escape(v.Prompt))
}

// Fill fills one template.
func (v Vars) Fill(s string) string { return v.replacer(func(s string) string { return s }).Replace(s) }

// FillAll fills each argument.
func (v Vars) FillAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = v.Fill(a)
	}
	return out
}

// Prepare writes the profile's files into v.Home and returns the environment the agent runs
// with: the caller's, with HOME and the XDG directories inside v.Home (so nothing of the real
// ones is read or written), PWD the session directory, the OpenAI variables pointed at the fake,
// and the profile's own.
func (p *Profile) Prepare(v Vars, base []string) ([]string, error) {
	jsonEsc := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b[1 : len(b)-1])
	}
	names := make([]string, 0, len(p.Files))
	for n := range p.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := p.Files[n]
		var text string
		if json.Unmarshal(c, &text) == nil {
			text = v.Fill(text)
		} else {
			text = v.replacer(jsonEsc).Replace(string(c)) + "\n"
		}
		f := filepath.Join(v.Home, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
			return nil, err
		}
	}
	env := append([]string(nil), base...)
	set := func(k, val string) { env = append(env, k+"="+val) }
	set("HOME", v.Home)
	set("USERPROFILE", v.Home)
	set("XDG_CONFIG_HOME", filepath.Join(v.Home, ".config"))
	set("XDG_DATA_HOME", filepath.Join(v.Home, ".local", "share"))
	set("XDG_STATE_HOME", filepath.Join(v.Home, ".local", "state"))
	set("XDG_CACHE_HOME", filepath.Join(v.Home, ".cache"))
	// Some agents (opencode) take their working directory from PWD rather than getcwd.
	set("PWD", v.Dir)
	set("OPENAI_BASE_URL", v.BaseURL)
	set("OPENAI_API_KEY", v.Key)
	keys := make([]string, 0, len(p.Env))
	for k := range p.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		set(k, v.Fill(p.Env[k]))
	}
	return env, nil
}

// Policy is the fake's default policy for the agent in session directory dir: README.md, then
// NOTES.md, in the agent's own tool shapes, absolute under dir when it wants absolute paths.
func (p *Profile) Policy(dir string) *script.Policy {
	pol := &script.Policy{Read: "README.md", Then: []string{"NOTES.md"}, Answer: "done", Tools: p.Tools.Read}
	if p.Tools.Paths == "absolute" {
		pol.Dir = dir
	}
	return pol
}

// ForCommand is the profile of an agent given as a command line rather than by name: it is run
// as given over ACP, or one-shot with the prompt as its last argument (where no argument says
// {prompt}); the fake's policy finds its read tool by name; its clock is taken to be movable.
func ForCommand(argv []string) *Profile {
	name := filepath.Base(argv[0])
	args := append([]string(nil), argv[1:]...)
	one := args
	if !strings.Contains(strings.Join(args, "\x00"), "{prompt}") {
		one = append(append([]string(nil), args...), "{prompt}")
	}
	return &Profile{Name: name, About: "the command " + strings.Join(argv, " "), Bin: argv[0], API: "chat completions",
		Oneshot: &Command{Args: one}, ACP: &Command{Args: args}, Tools: Tools{Paths: "relative"}, Clock: "libfaketime",
		File: "(command line)"}
}

// Self is the program name that stands for lembas-check itself: 'lembas-check agent' runs this
// lembas-check's reference agent, whether or not a lembas-check is on PATH.
const Self = "lembas-check"

// NoProfile is the --profile that runs a command with no profile of its own (ForCommand): said
// on purpose, since a command that matches no profile is otherwise an error.
const NoProfile = "none"

// NoMatch is a command that matches no built-in profile by its program, given no --profile: run
// with a profile made for it, it was pointed at nothing it knows and its cases were skipped in
// silence (issue 21: the reference agent under another file name, 7 pass and 260 skip, exit 0).
type NoMatch struct{ Command string }

func (e *NoMatch) Error() string {
	return fmt.Sprintf("%q matches no agent profile by its program (%s): name its profile with --profile NAME or "+
		"FILE.json, or give --profile %s to run it with none (over ACP as given, or one-shot with the prompt last)",
		e.Command, strings.Join(Names(), ", "), NoProfile)
}

// Resolve is an agent as a person names it — a profile (NAME, or a FILE.json), or a command
// 'CMD ARGS' — with its program. A command takes the profile named by profile, else the built-in
// profile whose program it runs ('lembas-check agent': lembas-check's); with profile "none" one
// made for it (ForCommand), and with none matched and no profile given it is a *NoMatch. A profile
// given a command is run as the command says.
func Resolve(agent, profile string) (*Profile, string, error) {
	if profile == "" {
		for _, n := range Names() {
			if n == agent {
				p, err := Builtin(n)
				if err != nil {
					return nil, "", err
				}
				bin, err := p.Find()
				return p, bin, err
			}
		}
		if strings.HasSuffix(agent, ".json") {
			p, err := Load(agent)
			if err != nil {
				return nil, "", err
			}
			bin, err := p.Find()
			return p, bin, err
		}
	}
	argv, err := cmdline.Split(agent)
	if err != nil || len(argv) == 0 {
		return nil, "", fmt.Errorf("%q is no profile (%s) and no command: %v", agent, strings.Join(Names(), ", "), err)
	}
	var p *Profile
	switch {
	case profile == NoProfile:
		return ForCommand(argv), argv[0], nil
	case profile != "":
		if p, err = Load(profile); err != nil {
			return nil, "", err
		}
	default:
		for _, n := range Names() {
			if b, err := Builtin(n); err == nil && b.Bin == filepath.Base(argv[0]) {
				p = b
			}
		}
	}
	if p == nil {
		return nil, "", &NoMatch{Command: agent}
	}
	q := *p
	q.Bin = argv[0]
	args := argv[1:]
	if p.ACP != nil {
		c := *p.ACP
		c.Args = args
		q.ACP = &c
	}
	if p.RPC != nil {
		c := *p.RPC
		c.Args = args
		q.RPC = &c
	}
	if p.A2A != nil {
		c := *p.A2A
		c.Args = args
		q.A2A = &c
	}
	if p.Oneshot != nil {
		c := *p.Oneshot
		c.Args, c.Continue = append(append([]string(nil), args...), "{prompt}"), nil
		q.Oneshot = &c
	}
	bin := argv[0]
	if bin == Self {
		if bin, err = os.Executable(); err != nil {
			return nil, "", err
		}
	} else if b, err := exec.LookPath(bin); err == nil {
		bin = b
	}
	return &q, bin, nil
}
