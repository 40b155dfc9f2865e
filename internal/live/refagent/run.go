package refagent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/prefix"
	"github.com/LLeMbas/lembas-check/harness/results"
	"github.com/LLeMbas/lembas-check/internal/proc"
	"github.com/LLeMbas/lembas-check/internal/syncbuf"
)

// commandTimeout bounds a bash call.
const commandTimeout = 2 * time.Minute

// args are a call's arguments, every tool's in one struct: a call names only its own.
type args struct {
	Path    string  `json:"path"`
	Offset  int     `json:"offset"`
	Limit   int     `json:"limit"`
	Pattern string  `json:"pattern"`
	Glob    string  `json:"glob"`
	Depth   int     `json:"depth"`
	Old     *string `json:"old"`
	New     *string `json:"new"`
	Content *string `json:"content"`
	Files   []struct {
		Path    string  `json:"path"`
		Content *string `json:"content"`
		Delete  bool    `json:"delete"`
	} `json:"files"`
	Command string  `json:"command"`
	Cwd     string  `json:"cwd"`
	ID      string  `json:"id"`
	Plan    *string `json:"plan"`
	// From and To are mv's; Message and Paths commit's.
	From    string   `json:"from"`
	To      string   `json:"to"`
	Message string   `json:"message"`
	Paths   []string `json:"paths"`
}

// run runs one call and answers the result as the model is given it: its id first, then what
// harness/results makes of it (context.md §1–§6). Every call takes an id, a failed one too.
func (s *session) run(ctx context.Context, c toolCall) string {
	s.mu.Lock()
	s.n++
	id := results.FormatID(s.n)
	s.mu.Unlock()
	raw := json.RawMessage(c.Function.Arguments)
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	var a args
	if err := json.Unmarshal(raw, &a); err != nil {
		return s.output(id, c.Function.Name, json.RawMessage("{}"),
			fmt.Sprintf("The arguments of %s are not a JSON object: %v", c.Function.Name, err))
	}
	name := c.Function.Name
	switch name {
	case "bash":
		return s.output(id, name, raw, s.bash(ctx, a))
	case "plan_submit":
		return s.planSubmit(ctx, id, raw)
	case "ask_user":
		return s.askUser(ctx, id, raw)
	case "memory":
		return s.remember(id, raw)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.offered, name) {
		return s.outputLocked(id, name, raw, fmt.Sprintf("No tool %s is offered in this session.", name))
	}
	if out, ok := s.wsTool(id, name, raw, a); ok {
		return out
	}
	var out string
	var err error
	if name == "commit" {
		out, err = s.commit(ctx, id, raw, a)
	} else {
		out, err = s.tool(id, name, raw, a)
	}
	if err != nil {
		return s.outputLocked(id, name, raw, err.Error())
	}
	if s.rules != nil && (name == "read" || name == "write" || name == "edit") {
		// A successful Read, Write or Edit reports the path it touched (seeds/004).
		s.rules.s.Touch(s.disk.abs(a.Path))
	}
	return out
}

// failure is a call's error text, the result the model is given.
type failure string

func (f failure) Error() string { return string(f) }

// viewErr is a view's error as the model is told it.
func (s *session) viewErr(err error) error {
	var fe *fsaccess.Error
	if errors.As(err, &fe) {
		return failure(s.disk.text(fe))
	}
	return err
}

// tool runs every tool but bash and plan_submit. Called with mu held.
func (s *session) tool(id, name string, raw json.RawMessage, a args) (string, error) {
	switch name {
	case "read":
		return s.read(id, raw, a)
	case "list":
		text, err := s.listing(a.Path, false, a.Depth)
		if err != nil {
			return "", err
		}
		return s.outputLocked(id, name, raw, text), nil
	case "mv":
		return s.mv(id, raw, a)
	case "glob", "grep":
		found, err := s.search(name, a)
		if err != nil {
			return "", err
		}
		return s.outputLocked(id, name, raw, found), nil
	case "edit", "write":
		return s.write(id, name, a)
	case "apply_patch":
		return s.patch(id, a)
	case "mkdir":
		if err := s.change(a.Path, (*fsaccess.View).Mkdir, func(real string) error {
			return os.MkdirAll(real,
				0o755)
		}); err != nil {
			return "", err
		}
		return s.outputLocked(id, name, raw, ""), nil
	case "rm":
		if err := s.change(a.Path, (*fsaccess.View).Rm, os.RemoveAll); err != nil {
			return "", err
		}
		if _, vp, _, msg := s.disk.resolve(a.Path); msg == "" {
			s.forget(vp)
		}
		out, err := s.results.Delete(id, a.Path)
		if err == nil {
			err = s.filesChanged(true)
		}
		return out, err
	case "recall":
		return s.results.Recall(id, a.ID, a.Offset, a.Limit)
	case "search":
		found, err := s.searchIndex(a)
		if err != nil {
			return "", err
		}
		return s.outputLocked(id, name, raw, found), nil
	case "plan_write":
		if a.Plan == nil {
			return "", failure("plan_write needs the plan")
		}
		s.plan = *a.Plan
		if err := s.prefix.Set(prefix.Change{ByModel: true, Plan: a.Plan}); err != nil {
			return "", err
		}
		return s.outputLocked(id, name, raw, s.plan), nil
	case "show":
		if text, refused, err := s.prefix.Call(name); err != nil || refused {
			if err != nil {
				return "", err
			}
			return s.outputLocked(id, name, raw, text), nil
		}
		_, vp, v, msg := s.disk.resolve(a.Path)
		if msg != "" {
			return "", failure(msg)
		}
		if _, err := v.Stat(vp); err != nil {
			return "", s.viewErr(err)
		}
		return s.outputLocked(id, name, raw, "Shown: "+a.Path), nil
	}
	return "", failure(fmt.Sprintf("%s has no implementation in this agent", name))
}

// change makes a mkdir or an rm of path p: in the view first, which refuses what the spec
// refuses with its error text, then on disk.
func (s *session) change(p string, view func(*fsaccess.View, string) error, real func(string) error) error {
	_, vp, v, msg := s.disk.resolve(p)
	if msg != "" {
		return failure(msg)
	}
	if err := view(v, vp); err != nil {
		return s.viewErr(err)
	}
	return real(s.disk.real(vp))
}

// output inserts any other tool's result (capped; a stub for a repeated listing or search).
func (s *session) output(id, tool string, raw json.RawMessage, text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.outputLocked(id, tool, raw, text)
}

func (s *session) outputLocked(id, tool string, raw json.RawMessage, text string) string {
	if s.a.broken(BreakNoStub) {
		s.results.Reply() // the dedupe table forgotten before every output too: never a stub
	}
	out, err := s.results.Output(id, tool, raw, text)
	if err != nil {
		// The arguments were no JSON object results could compare: the text, capped, all the same.
		out, _ = s.results.Output(id, tool+" (arguments unreadable)", json.RawMessage("{}"), text)
	}
	return out
}

// read is a read: a file's numbered lines under its bracket, or a stub (context.md §1, §2); a
// directory, its listing.
func (s *session) read(id string, raw json.RawMessage, a args) (string, error) {
	_, vp, v, msg := s.disk.resolve(a.Path)
	if msg != "" {
		return "", failure(msg)
	}
	k, err := v.Stat(vp)
	if err != nil {
		return "", s.viewErr(err)
	}
	if k.IsDir() {
		text, err := s.listing(a.Path, true, 0)
		if err != nil {
			return "", err
		}
		return s.outputLocked(id, "read", raw, text), nil
	}
	b, err := os.ReadFile(s.disk.real(vp))
	if err != nil {
		return "", err
	}
	s.saw(vp, b)
	if s.a.broken(BreakNoStub) {
		s.results.Reply() // the dedupe table forgotten before every read: never a stub
	}
	out, err := s.results.Read(id, a.Path, string(b), a.Offset, a.Limit)
	if err != nil {
		return "", failure(err.Error())
	}
	return out, nil
}

// write is an edit or a write: the diff under the new content's hash, or that the file was
// created (context.md §5).
func (s *session) write(id, name string, a args) (string, error) {
	abs, vp, v, msg := s.disk.resolve(a.Path)
	if msg != "" {
		return "", failure(msg)
	}
	real := s.disk.real(vp)
	var before *string
	if k, ok := v.Node(vp); ok && !k.IsDir() {
		b, err := os.ReadFile(real)
		if err != nil {
			return "", err
		}
		t := string(b)
		before = &t
	}
	var after string
	switch name {
	case "write":
		if a.Content == nil {
			return "", failure("write needs the file's content")
		}
		after = *a.Content
	default:
		if a.Old == nil || a.New == nil {
			return "", failure("edit needs old and new")
		}
		if err := s.editable(v, vp); err != nil {
			return "", err
		}
		switch n := strings.Count(*before, *a.Old); {
		case n == 0 || *a.Old == "":
			return "", failure(fmt.Sprintf("The text to replace is not in %s.", abs))
		case n > 1:
			return "", failure(fmt.Sprintf("The text to replace is in %s %d times: give enough of it to be found once.",
				abs, n))
		}
		after = strings.Replace(*before, *a.Old, *a.New, 1)
	}
	if err := v.Write(vp); err != nil {
		return "", s.viewErr(err)
	}
	if err := writeFile(real, after); err != nil {
		return "", err
	}
	s.saw(vp, []byte(after))
	out, err := s.results.Write(id, a.Path, before, after)
	if err == nil {
		err = s.filesChanged(true)
	}
	return out, err
}

func writeFile(real, content string) error {
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		return err
	}
	return os.WriteFile(real, []byte(content), 0o644)
}

// patch is an apply_patch: each file written, created or deleted, answered in the patch's order.
func (s *session) patch(id string, a args) (string, error) {
	if len(a.Files) == 0 {
		return "", failure("apply_patch needs at least one file")
	}
	type change struct {
		real, vp string
		pf       results.PatchFile
	}
	var cs []change
	for _, f := range a.Files {
		_, vp, v, msg := s.disk.resolve(f.Path)
		if msg != "" {
			return "", failure(msg)
		}
		pf := results.PatchFile{Path: f.Path}
		if k, ok := v.Node(vp); ok && !k.IsDir() {
			b, err := os.ReadFile(s.disk.real(vp))
			if err != nil {
				return "", err
			}
			t := string(b)
			pf.Before = &t
		}
		var err error
		switch {
		case f.Delete:
			err = v.Rm(vp)
		case f.Content == nil:
			return "", failure(fmt.Sprintf("apply_patch: %s needs its content, or delete: true", f.Path))
		default:
			pf.After = f.Content
			err = v.Write(vp)
		}
		if err != nil {
			return "", s.viewErr(err)
		}
		cs = append(cs, change{real: s.disk.real(vp), vp: vp, pf: pf})
	}
	for _, c := range cs {
		var err error
		if c.pf.After == nil {
			err = os.RemoveAll(c.real)
			s.forget(c.vp)
		} else {
			err = writeFile(c.real, *c.pf.After)
			s.saw(c.vp, []byte(*c.pf.After))
		}
		if err != nil {
			return "", err
		}
	}
	files := make([]results.PatchFile, len(cs))
	for i, c := range cs {
		files[i] = c.pf
	}
	out, err := s.results.Patch(id, files)
	if err == nil {
		err = s.filesChanged(true)
	}
	return out, err
}

// listDir resolves a tool's directory ("" is ".") in the view and lists it: list's entries, and
// where glob and grep look. Called with mu held.
func (s *session) listDir(p string) (vp string, entries []string, err error) {
	if p == "" {
		p = "."
	}
	_, vp, v, msg := s.disk.resolve(p)
	if msg != "" {
		return "", nil, failure(msg)
	}
	if entries, err = v.List(vp); err != nil {
		return "", nil, s.viewErr(err)
	}
	return vp, entries, nil
}

// search is glob's or grep's output: paths relative to where it looked, in path order.
func (s *session) search(name string, a args) (string, error) {
	vp, _, err := s.listDir(a.Path)
	if err != nil {
		return "", err
	}
	var re *regexp.Regexp
	if name == "grep" {
		var err error
		if re, err = regexp.Compile(a.Pattern); err != nil {
			return "", failure(fmt.Sprintf("grep: the pattern is not a regular expression: %v", err))
		}
	}
	root := s.disk.real(vp)
	var out []string
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if name == "glob" {
			if fsaccess.MatchGlob(a.Pattern, rel) {
				out = append(out, rel)
			}
			return nil
		}
		if a.Glob != "" && !fsaccess.MatchGlob(a.Glob, rel) && !fsaccess.MatchGlob(a.Glob, path.Base(rel)) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for i, line := range strings.Split(string(b), "\n") {
			if re.MatchString(line) {
				out = append(out, fmt.Sprintf("%s:%d: %s", rel, i+1, line))
			}
		}
		return nil
	})
	if name == "glob" {
		sort.Strings(out)
	}
	return strings.Join(out, "\n"), nil
}

// bash runs a command in a shell of its own, in the start directory or cwd, and says its combined
// output, then its status when it is not 0. What it starts is ended with it (internal/proc).
func (s *session) bash(ctx context.Context, a args) string {
	dir := s.disk.cwd
	if a.Cwd != "" {
		dir = filepath.FromSlash(s.disk.abs(a.Cwd))
	}
	cmd := exec.Command("bash", "-c", a.Command)
	if _, err := exec.LookPath("bash"); err != nil {
		cmd = exec.Command("sh", "-c", a.Command)
	}
	cmd.Dir = dir
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	p, err := proc.Start(cmd, proc.Options{Grace: time.Second})
	if err != nil {
		return fmt.Sprintf("The command could not be started: %v", err)
	}
	t := time.NewTimer(commandTimeout)
	defer t.Stop()
	switch err := p.Await(ctx, t.C); {
	case errors.Is(err, proc.ErrDeadline):
		return out.String() + fmt.Sprintf("\n[stopped after %s]", commandTimeout)
	case err != nil:
		return out.String() + "\n[stopped: the turn was cancelled]"
	}
	text := out.String()
	if st := p.State(); st != nil && st.ExitCode() != 0 {
		text += fmt.Sprintf("\n[exit status %d]", st.ExitCode())
	}
	return text
}

// planSubmit puts the plan to the person (approvePlan) in plan mode; approved, the session moves
// on to the mode the approval gives; outside plan mode it answers the tool's unavailable text.
func (s *session) planSubmit(ctx context.Context, id string, raw json.RawMessage) string {
	s.mu.Lock()
	text, refused, err := s.prefix.Call("plan_submit")
	s.mu.Unlock()
	switch {
	case err != nil:
		return s.output(id, "plan_submit", raw, err.Error())
	case refused:
		return s.output(id, "plan_submit", raw, text)
	}
	approved, mode, feedback := s.approvePlan(ctx, id)
	if !approved {
		if feedback != "" {
			feedback = " " + feedback
		}
		return s.output(id, "plan_submit", raw, "The person did not approve the plan; go on planning."+feedback)
	}
	if s.a.broken(BreakApprovalKeepsPlan) {
		mode = prefix.PlanMode
	}
	s.mu.Lock()
	s.mode = mode
	err = s.prefix.Set(prefix.Change{ByModel: true, Mode: &mode})
	s.mu.Unlock()
	if err != nil {
		return s.output(id, "plan_submit", raw, err.Error())
	}
	changed := &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(mode)}
	s.a.update(ctx, sdk.SessionNotification{SessionId: sdk.SessionId(s.id),
		Update: sdk.SessionUpdate{CurrentModeUpdate: changed}})
	return s.output(id, "plan_submit", raw, "The person approved the plan; the permission mode is now "+mode+".")
}
