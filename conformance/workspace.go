package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/workspace"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Workspace is cases/workspace.json: per-session workspace roots on a real disk (seeds/002).
var Workspace = Define("workspace", "lembas-check",
	"per-session workspace roots: the allowlist, the / sentinel, a root fixed at creation, containment and symlink "+
		"escape on a real disk (seeds/002)", answerWorkspace).WithSteps(steps.Workspace)

// The ops a step may have, and what each answers.
const (
	wsOpNew     = "new"      // session/new with `cwd`: {root} or {error}
	wsOpLoad    = "load"     // session/load or resume with `cwd`: {root} or {error}
	wsOpSetRoot = "set_root" // set_config_option for the workspace root: {error}
	wsOpOptions = "options"  // the workspace-root picker: {roots: [...] or null}
	wsOpRead    = "read"     // local_fs reads `path`: {path} or {error}
	wsOpWrite   = "write"    // local_fs writes `path`: {path} or {error}
	wsOpFiles   = "files"    // a /files request for `path` with the `root` parameter: {path} or {error}
)

var workspaceOps = []string{wsOpNew, wsOpLoad, wsOpSetRoot, wsOpOptions, wsOpRead, wsOpWrite, wsOpFiles}

type workspaceCase struct {
	About   string            `json:"about,omitempty"`
	Tree    []string          `json:"tree"`
	Links   map[string]string `json:"links"`
	Default *string           `json:"default"`
	Roots   []string          `json:"roots"`
	Steps   []workspaceStep   `json:"steps"`
}

type workspaceStep struct {
	Op   string  `json:"op"`
	Cwd  *string `json:"cwd"`
	Path *string `json:"path"`
	Root *string `json:"root"`
}

func (c workspaceCase) Validate() error {
	if c.Tree == nil {
		return Fieldf("tree", "missing: the disk's paths, a directory ending with / (a list)")
	}
	if err := workspace.CheckTree(c.Tree, c.Links); err != nil {
		var te *workspace.TreeError
		if errors.As(err, &te) {
			return Fieldf(te.Field, "%s", te.Msg)
		}
		return err
	}
	if c.Default == nil || !strings.HasPrefix(*c.Default, "/") {
		return Fieldf("default", "missing or not absolute: the serve's own directory, always a workspace root")
	}
	for i, r := range c.Roots {
		if !strings.HasPrefix(r, "/") {
			return Fieldf(fmt.Sprintf("roots[%d]", i), "%q is not absolute: a workspace root is an absolute path", r)
		}
	}
	if len(c.Steps) == 0 {
		return Fieldf("steps", "missing or empty: the steps, each {op: %s}", strings.Join(workspaceOps, " | "))
	}
	for i, s := range c.Steps {
		at := fmt.Sprintf("steps[%d]", i)
		fields := map[string][]string{wsOpNew: {"cwd"}, wsOpLoad: {"cwd"}, wsOpRead: {"path"}, wsOpWrite: {"path"},
			wsOpFiles: {"root", "path"}, wsOpSetRoot: {"cwd"}, wsOpOptions: {}}
		allowed, ok := fields[s.Op]
		if !ok {
			return Fieldf(at+".op", "%q is not an op; want one of %s", s.Op, strings.Join(workspaceOps, ", "))
		}
		for name, set := range map[string]bool{"cwd": s.Cwd != nil, "path": s.Path != nil, "root": s.Root != nil} {
			if set && !ownHas(allowed, name) {
				return Fieldf(at+"."+name, "a %s step has no %s", s.Op, name)
			}
		}
		if ownHas(allowed, "path") && (s.Path == nil || *s.Path == "") {
			return Fieldf(at+".path", "missing: the path the %s step is on (absolute, or relative to the root)", s.Op)
		}
		for name, v := range map[string]*string{"cwd": s.Cwd, "path": s.Path, "root": s.Root} {
			if v != nil && strings.ContainsRune(*v, 0) {
				return Fieldf(at+"."+name, "holds a NUL")
			}
		}
	}
	return nil
}

// workspaceAnswer is one answer per step.
type workspaceAnswer []workspaceStepAnswer

// workspaceStepAnswer is exactly one of {root}, {path}, {roots} (a list, or null when the picker
// is not offered) or {error}.
type workspaceStepAnswer struct {
	Root    *string
	Path    *string
	Options bool
	Roots   []string
	Error   *string
}

func (a workspaceStepAnswer) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil) }

// AppendJSON implements jsonx.Appender: the one member the step answers.
func (a workspaceStepAnswer) AppendJSON(b []byte) ([]byte, error) {
	one := func(key string, s string) []byte {
		return append(jsonx.AppendString(append(append(b, '{'), key...), s), '}')
	}
	switch {
	case a.Error != nil:
		return one(`"error":`, *a.Error), nil
	case a.Root != nil:
		return one(`"root":`, *a.Root), nil
	case a.Path != nil:
		return one(`"path":`, *a.Path), nil
	case a.Options:
		b, err := jsonx.Append(append(b, `{"roots":`...), a.Roots)
		return append(b, '}'), err
	}
	return b, fmt.Errorf("workspace: an empty step answer")
}

func (a *workspaceStepAnswer) UnmarshalJSON(b []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || obj == nil || len(obj) != 1 {
		return Fieldf("", "a step's answer is one of {root}, {path}, {roots} or {error}")
	}
	*a = workspaceStepAnswer{}
	for k, v := range obj {
		var s string
		switch k {
		case "root", "path", "error":
			if err := json.Unmarshal(v, &s); err != nil {
				return Fieldf(k, "is not a string")
			}
			switch k {
			case "root":
				a.Root = &s
			case "path":
				a.Path = &s
			case "error":
				if !workspaceRefusal(s) {
					return Fieldf(k, "%q is not a refusal; want one of %s", s, strings.Join(workspaceRefusals(), ", "))
				}
				a.Error = &s
			}
		case "roots":
			a.Options = true
			if string(bytes.TrimSpace(v)) == "null" {
				return nil
			}
			if err := json.Unmarshal(v, &a.Roots); err != nil || a.Roots == nil {
				return Fieldf(k, "is a list of roots, or null when the picker is not offered")
			}
		default:
			return Fieldf(k, "unknown field")
		}
	}
	return nil
}

func workspaceRefusals() []string {
	var out []string
	for _, r := range []workspace.Refusal{workspace.NotAbsolute, workspace.NotAllowed, workspace.Immutable,
		workspace.NoSession, workspace.Escape, workspace.NotFound, workspace.Loop} {
		out = append(out, string(r))
	}
	return out
}

func workspaceRefusal(s string) bool { return ownHas(workspaceRefusals(), s) }

// answerWorkspace answers on the tree held in memory, which answers as the real disk does, and
// on a real disk (Materialize) where memory cannot be sure it would: a case with a name too
// long for the kernel, say.
func answerWorkspace(c workspaceCase) (workspaceAnswer, error) {
	if mem, err := workspace.InMemory(c.Tree, c.Links); err == nil && !mem.Unsure() {
		out, err := c.answerOn(mem)
		if !mem.Unsure() {
			return out, err
		}
	}
	disk, err := workspace.Materialize(c.Tree, c.Links)
	if err != nil {
		return nil, err
	}
	defer disk.Close()
	return c.answerOn(disk)
}

// answerOn runs the case's steps on a serve over disk.
func (c workspaceCase) answerOn(disk fsaccess.Links) (workspaceAnswer, error) {
	srv := workspace.NewServer(workspace.Config{Default: *c.Default, Roots: c.Roots}, disk)
	out := make(workspaceAnswer, len(c.Steps))
	for i, s := range c.Steps {
		var got string
		var err error
		switch s.Op {
		case wsOpNew:
			got, err = srv.New(s.Cwd)
		case wsOpLoad:
			got, err = srv.Load(s.Cwd)
		case wsOpSetRoot:
			err = srv.SetRoot()
		case wsOpOptions:
			out[i] = workspaceStepAnswer{Options: true, Roots: srv.Options()}
			continue
		case wsOpRead:
			got, err = srv.Read(*s.Path)
		case wsOpWrite:
			got, err = srv.Write(*s.Path)
		case wsOpFiles:
			got, err = srv.Files(s.Root, *s.Path)
		}
		var we *workspace.Error
		switch {
		case errors.As(err, &we):
			r := string(we.Refusal)
			out[i].Error = &r
		case err != nil:
			return nil, fmt.Errorf("steps[%d]: %w", i, err)
		case s.Op == wsOpNew || s.Op == wsOpLoad:
			out[i].Root = &got
		default:
			out[i].Path = &got
		}
	}
	return out, nil
}
