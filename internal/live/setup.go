// Package live drives a real agent harness through a session — prompts, the clock crossing
// midnight, a mode change, a model change, a compaction — with the fake provider as its model
// server, over ACP or one prompt at a time, and judges what it sent by the spec's prefix rules
// (context.md §10). docs/live.md documents the scenarios, the agent profiles and the verdicts.
package live

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/proc"
)

//go:embed project
var project embed.FS

// Seed writes the small project every session starts in (README.md, NOTES.md) into dir.
func Seed(dir string) error {
	return fs.WalkDir(project, "project", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := project.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, strings.TrimPrefix(p, "project/")), b, 0o644)
	})
}

// makeSession makes an agent's temporary HOME, work/home, and — unless dir is given — its
// session directory, work/session, holding the small project (Seed). It returns both; the
// caller removes work.
func makeSession(work, dir string) (home, session string, err error) {
	home = filepath.Join(work, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return "", "", err
	}
	if dir != "" {
		return home, dir, nil
	}
	session = filepath.Join(work, "session")
	if err := os.MkdirAll(session, 0o755); err != nil {
		return "", "", err
	}
	return home, session, Seed(session)
}

// Agent is an agent ready to run: its profile, its program, a temporary HOME with the
// profile's files written, the session directory, and the environment it runs with.
type Agent struct {
	Profile *agents.Profile
	Vars    agents.Vars
	Env     []string
}

// Model is the model id the fake serves an agent.
const Model = "fake-model"

// ModelOf is the model the agent of profile p asks for, and the fake serves it: the profile's
// own (an agent left to its default configuration), else Model.
func ModelOf(p *agents.Profile) string {
	if p.Model != "" {
		return p.Model
	}
	return Model
}

// Key is the API key an agent is given for the fake, which takes any.
const Key = "lembas-check-fake"

// Prepare readies the agent of profile p (its program bin) to run in dir against the fake at
// url, with home as its HOME.
func Prepare(p *agents.Profile, bin, home, dir, url string) (*Agent, error) {
	v := agents.Vars{Bin: bin, Home: home, Dir: dir, URL: url, BaseURL: url + "/v1", Model: ModelOf(p), Key: Key}
	env, err := p.Prepare(v, os.Environ())
	if err != nil {
		return nil, fmt.Errorf("%s: writing its files into %s: %v", p.Name, home, err)
	}
	return &Agent{Profile: p, Vars: v, Env: env}, nil
}

// Setup runs the profile's setup commands (cline's auth), each to its end, output to w.
func (a *Agent) Setup(ctx context.Context, w io.Writer) error {
	for _, s := range a.Profile.Setup {
		argv := a.Vars.FillAll(s)
		if err := a.setup(ctx, argv, w); err != nil {
			return err
		}
	}
	return nil
}

// setup runs one setup command under the process supervisor, like the agent itself: a command
// started behind its back is a stray to proc.Sweep, which a record or run ending beside it (in
// the same process, as in go test) would end mid-setup.
func (a *Agent) setup(ctx context.Context, argv []string, w io.Writer) error {
	fail := func(err error) error {
		return fmt.Errorf("%s: setup %s: %v", a.Profile.Name, strings.Join(argv, " "), err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir, cmd.Stdout, cmd.Stderr = a.Env, a.Vars.Dir, w, w
	p, err := proc.Start(cmd, proc.Options{Grace: grace})
	if err != nil {
		// It never ran: the scenario is not run, rather than failed by the agent.
		return &NotRun{fail(err)}
	}
	if err := p.Await(ctx, nil); err != nil {
		return err
	}
	if err := p.Wait(); err != nil {
		return &acp.Fault{Kind: acp.Died, Detail: fail(err).Error()}
	}
	return nil
}

// NewSession opens an ACP session in cwd on c, and moves it to the model the profile's acp.model
// names (cline's {model}), as the live driver and the live target both open theirs. model is the
// model it was moved to ("" when the profile names none).
func (a *Agent) NewSession(ctx context.Context, c *acp.Client, cwd string) (s acp.Session, model string, err error) {
	if s, err = c.NewSessionIn(ctx, cwd); err != nil {
		return s, "", err
	}
	if a.Profile.ACP == nil || a.Profile.ACP.Model == "" {
		return s, "", nil
	}
	model = a.Vars.Fill(a.Profile.ACP.Model)
	if err := c.SetModel(ctx, s, model); err != nil {
		return s, model, fmt.Errorf("setting the session's model, as the %s profile says: %w", a.Profile.Name, err)
	}
	return s, model, nil
}

// Oneshot is the command that runs one prompt; cont carries on the previous session. ok is
// false when the profile cannot (no one-shot command, or no way to continue).
func (a *Agent) Oneshot(prompt string, cont bool) (argv []string, ok bool) {
	o := a.Profile.Oneshot
	if o == nil {
		return nil, false
	}
	args := o.Args
	if cont {
		if o.Continue == nil {
			return nil, false
		}
		args = o.Continue
	}
	v := a.Vars
	v.Prompt = prompt
	return append([]string{a.Vars.Bin}, v.FillAll(args)...), true
}

// ACP is the command that speaks ACP on stdio, if the profile has one.
func (a *Agent) ACP() ([]string, bool) {
	if a.Profile.ACP == nil {
		return nil, false
	}
	return append([]string{a.Vars.Bin}, a.Vars.FillAll(a.Profile.ACP.Args)...), true
}

// RPC is the command that speaks the agent's own JSON lines on stdio, if the profile has one.
func (a *Agent) RPC() ([]string, bool) {
	if a.Profile.RPC == nil {
		return nil, false
	}
	return append([]string{a.Vars.Bin}, a.Vars.FillAll(a.Profile.RPC.Args)...), true
}

// A2A is the command that starts an A2A server, if the profile has one.
func (a *Agent) A2A() ([]string, bool) {
	if a.Profile.A2A == nil {
		return nil, false
	}
	// Started as the file its npm link points at: the Gemini CLI's A2A server runs only when
	// the script's own name is argv[1]'s, and exits 0 in silence through its link.
	bin := a.Vars.Bin
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	return append([]string{bin}, a.Vars.FillAll(a.Profile.A2A.Args)...), true
}
