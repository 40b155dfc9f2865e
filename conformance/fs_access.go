package conformance

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// FSAccess is conformance/fs_access.json: one operation on a session's view of a tree.
var FSAccess = Define("fs_access", "spec",
	"the file system one session sees: levels, passages, listings and the exact error texts "+
		"(filesystem.md)", answerFSAccess).WithSteps(steps.FSAccess)

// FSAccessCase is an fs_access case as Decode reads it (and the live target plays it).
type FSAccessCase struct {
	About string `json:"about,omitempty"`
	viewFields
	Op   string  `json:"op"`
	Path *string `json:"path"`
	// To is mv's target; Depth is list_text's (absent: the spec's default); Reads and Changed are
	// edit's: the files this session has read, and those changed since it read them.
	To      *string  `json:"to,omitempty"`
	Depth   *int     `json:"depth,omitempty"`
	Reads   []string `json:"reads,omitempty"`
	Changed []string `json:"changed,omitempty"`
	// Device (lembas-check's own field): the tree is a device's, one level (stage) for all of it,
	// whose listings leave out build directories and what each .gitignore (Gitignore: its path →
	// its lines) says, and directories that hold no file they would list.
	Device    bool                `json:"device,omitempty"`
	Gitignore map[string][]string `json:"gitignore,omitempty"`
}

// deviceOps are the ops of a device case: the listings the sentence is about.
var deviceOps = []fsaccess.Op{fsaccess.OpList, fsaccess.OpRead, fsaccess.OpListText, fsaccess.OpReadText}

// view is the session's view: a device's is its tree as a listing of the case's path sees it,
// at stage.
func (c FSAccessCase) view(absent map[string]fsaccess.Level) (*fsaccess.View, error) {
	if !c.Device {
		return c.viewFields.view(absent)
	}
	f := c.viewFields
	if f.Tree == nil {
		return f.view(nil)
	}
	f.Tree = fsaccess.DeviceTree(f.Tree, c.Gitignore, c.resolved())
	return f.view(map[string]fsaccess.Level{"/": fsaccess.Stage})
}

// resolved is the case's path, absolute.
func (c FSAccessCase) resolved() string {
	cwd := "/"
	if c.Cwd != nil {
		cwd = *c.Cwd
	}
	return fsaccess.Resolve(cwd, orZero(c.Path))
}

// validateDevice checks a device case's fields: no levels of a chat's, a listing op, each
// .gitignore a file of the tree with lines the reference reads, a path not itself left out.
func (c FSAccessCase) validateDevice() error {
	if !c.Device {
		if c.Gitignore != nil {
			return Fieldf("gitignore", "is a device's: add \"device\": true")
		}
		return nil
	}
	switch {
	case c.Grants != nil || c.Floor != nil || c.Forge != nil:
		return Fieldf("grants", "a device has one level for its whole tree (stage): no grants or floor")
	case c.Mounts != nil:
		return Fieldf("mounts", "a device has no mounts")
	case !slices.Contains(deviceOps, fsaccess.Op(c.Op)):
		return Fieldf("op", "%q: a device case is a listing (list, read, list_text, read_text)", c.Op)
	}
	files := map[string]bool{}
	for _, t := range c.Tree {
		if !strings.HasSuffix(t, "/") {
			files[fsaccess.Resolve("/", t)] = true
		}
	}
	for k, lines := range c.Gitignore {
		field := fmt.Sprintf("gitignore[%q]", k)
		if p := fsaccess.Resolve("/", k); !files[p] || fsaccess.Base(p) != fsaccess.GitignoreFile {
			return Fieldf(field, "not a %s file of the tree", fsaccess.GitignoreFile)
		}
		for _, l := range lines {
			if err := fsaccess.CheckGitignoreLine(l); err != nil {
				return Fieldf(field, "%v", err)
			}
		}
	}
	if p := c.resolved(); p != "/" && fsaccess.DeviceLeftOut(c.Gitignore, p, true) {
		return Fieldf("path", "%s is itself left out of a device's listings: the spec says what a listing leaves "+
			"out, not what listing such a directory answers", p)
	}
	return nil
}

// viewFields are how a case describes a session's view (fs_access's fields; search's cases carry
// the same): `tree` (a directory ends with /), `mounts`, `grants` and `floor` (path → level),
// `forge` (lembas-check's own: mount → what the user's forge account may do there), and the start
// directory `cwd`.
type viewFields struct {
	Tree   []string          `json:"tree"`
	Mounts []string          `json:"mounts"`
	Grants map[string]string `json:"grants"`
	Floor  map[string]string `json:"floor"`
	Forge  map[string]string `json:"forge,omitempty"`
	Cwd    *string           `json:"cwd"`
}

// view makes the session's view. Grants absent are none (fs_access) unless absentGrants says
// what they read as. A bad level or a view that cannot be made is a FieldError naming the case's
// field.
func (f viewFields) view(absentGrants map[string]fsaccess.Level) (*fsaccess.View, error) {
	if f.Tree == nil {
		return nil, Fieldf("tree", "missing: the nodes, a directory ending with / (a list, [] for an empty tree)")
	}
	cfg := fsaccess.Config{Tree: f.Tree, Mounts: f.Mounts, Grants: absentGrants}
	var err error
	if f.Grants != nil {
		if cfg.Grants, err = levels("grants", f.Grants); err != nil {
			return nil, err
		}
	}
	if cfg.Floor, err = levels("floor", f.Floor); err != nil {
		return nil, err
	}
	if cfg.Forge, err = levels("forge", f.Forge); err != nil {
		return nil, err
	}
	if f.Cwd != nil {
		if !strings.HasPrefix(*f.Cwd, "/") {
			return nil, Fieldf("cwd", "%q is not absolute: the start directory begins with /", *f.Cwd)
		}
		cfg.Cwd = *f.Cwd
	}
	v, err := fsaccess.New(cfg)
	if err != nil {
		var ce *fsaccess.ConfigError
		if errors.As(err, &ce) {
			return nil, Fieldf(ce.Field, "%s", ce.Msg)
		}
		return nil, err
	}
	return v, nil
}

func (c FSAccessCase) Validate() error {
	known := false
	var ops []string
	for _, op := range fsaccess.Ops() {
		ops = append(ops, string(op))
		known = known || string(op) == c.Op
	}
	if !known {
		return Fieldf("op", "%q is not an operation; want one of %s", c.Op, strings.Join(ops, ", "))
	}
	switch {
	case fsaccess.Op(c.Op) == fsaccess.OpView && c.Path != nil:
		return Fieldf("path", "is not view's: view is the whole session's, on no path")
	case fsaccess.Op(c.Op) != fsaccess.OpView && (c.Path == nil || *c.Path == ""):
		return Fieldf("path", "missing: the path the operation is on (absolute, or relative to cwd)")
	}
	if err := c.validateArgs(); err != nil {
		return err
	}
	if err := c.validateDevice(); err != nil {
		return err
	}
	_, err := c.view(nil)
	return err
}

// validateArgs checks each op's own fields are given with that op only.
func (c FSAccessCase) validateArgs() error {
	op := fsaccess.Op(c.Op)
	switch {
	case op == fsaccess.OpMv && (c.To == nil || *c.To == ""):
		return Fieldf("to", "missing: mv's target (absolute, or relative to cwd)")
	case op != fsaccess.OpMv && c.To != nil:
		return Fieldf("to", "is mv's target; op %s has none", c.Op)
	case op != fsaccess.OpListText && c.Depth != nil:
		return Fieldf("depth", "is list_text's; op %s has none", c.Op)
	case c.Depth != nil && *c.Depth < 1:
		return Fieldf("depth", "%d: a depth is 1 or more (1 is the directory's own entries)", *c.Depth)
	case op != fsaccess.OpEdit && (c.Reads != nil || c.Changed != nil):
		return Fieldf("reads", "reads and changed are edit's; op %s has none", c.Op)
	}
	return nil
}

func (c FSAccessCase) args() fsaccess.Args {
	a := fsaccess.Args{Reads: c.Reads, Changed: c.Changed}
	if c.To != nil {
		a.To = *c.To
	}
	if c.Depth != nil {
		a.Depth = *c.Depth
	}
	return a
}

// levels reads a path → level object; nil stays nil.
func levels(field string, in map[string]string) (map[string]fsaccess.Level, error) {
	if in == nil {
		return nil, nil
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]fsaccess.Level, len(in))
	for _, k := range keys {
		l, err := fsaccess.ParseLevel(in[k])
		if err != nil {
			return nil, Fieldf(fmt.Sprintf("%s[%q]", field, k), "%v", err)
		}
		out[k] = l
	}
	return out, nil
}

// fsAccessAnswer is one of {ok: true}, {entries}, {text}, {level, passage} or {error}.
type fsAccessAnswer struct {
	OK      *bool     `json:"ok,omitempty"`
	Entries *[]string `json:"entries,omitempty"`
	Text    *string   `json:"text,omitempty"`
	Level   *string   `json:"level,omitempty"`
	Passage *bool     `json:"passage,omitempty"`
	Error   *string   `json:"error,omitempty"`
	// View is op view's: each path the model is told of, with its level.
	View *map[string]string `json:"view,omitempty"`
}

func (a fsAccessAnswer) Validate() error {
	const shapes = `{"ok": true}, {"entries": […]}, {"text": "…"}, {"level": …, "passage": …}, {"view": {…}} ` +
		`or {"error": "…"}`
	n := 0
	for _, set := range []bool{a.OK != nil, a.Entries != nil, a.Text != nil, a.Level != nil || a.Passage != nil,
		a.Error != nil, a.View != nil} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return Fieldf("", "an answer is exactly one of %s", shapes)
	case a.OK != nil && !*a.OK:
		return Fieldf("ok", "is false; a failure is {\"error\": …}")
	case a.Level != nil && a.Passage == nil:
		return Fieldf("passage", "missing: a level answer is {\"level\": …, \"passage\": …}")
	case a.Passage != nil && a.Level == nil:
		return Fieldf("level", "missing: a level answer is {\"level\": …, \"passage\": …}")
	case a.Level != nil:
		if _, err := fsaccess.ParseLevel(*a.Level); err != nil {
			return Fieldf("level", "%v", err)
		}
	case a.Entries != nil && *a.Entries == nil:
		return Fieldf("entries", "is null; an empty listing is []")
	case a.View != nil:
		for p, l := range *a.View {
			if _, err := fsaccess.ParseLevel(l); err != nil {
				return Fieldf(fmt.Sprintf("view[%q]", p), "%v", err)
			}
		}
	}
	return nil
}

func answerFSAccess(c FSAccessCase) (fsAccessAnswer, error) {
	v, err := c.view(nil)
	if err != nil {
		return fsAccessAnswer{}, err
	}
	r, err := v.Do(fsaccess.Op(c.Op), orZero(c.Path), c.args())
	if err != nil {
		return fsAccessAnswer{}, err
	}
	switch {
	case r.Err != nil:
		text := r.Err.Error()
		return fsAccessAnswer{Error: &text}, nil
	case fsaccess.Op(c.Op) == fsaccess.OpLevel:
		level := r.Level.String()
		return fsAccessAnswer{Level: &level, Passage: &r.Passage}, nil
	case r.Entries != nil:
		return fsAccessAnswer{Entries: &r.Entries}, nil
	case r.Text != nil:
		return fsAccessAnswer{Text: r.Text}, nil
	case fsaccess.Op(c.Op) == fsaccess.OpView:
		m := map[string]string{}
		for _, g := range r.Told {
			m[g.Path] = g.Level.String()
		}
		return fsAccessAnswer{View: &m}, nil
	}
	ok := true
	return fsAccessAnswer{OK: &ok}, nil
}
