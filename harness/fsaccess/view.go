// Package fsaccess is the reference of area fs_access: the file system as one session sees it
// (harness spec filesystem.md; conformance/fs_access.json): a tree of dirs, files and mounts, the
// session's grants and floor, and what each operation answers — byte-exact, with the error texts
// and listing marks parsed from the vendored filesystem.md. Paths are read by their text, as the
// spec says; nothing here touches a real disk. Pure: no clock, no randomness, no I/O.
//
// It also holds the path rules every area shares: Resolve, Within, and Real, the one walker of a
// tree with links (a device's), over whatever disk it is given — the areas modules and workspace
// use it.
//
// The rule everything follows: only what is at ro or above exists for the model, and a path it
// cannot see is answered by what it already knows — its nearest ancestor that is visible or a
// passage (at none, with something granted below).
package fsaccess

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Config is a view's inputs, as conformance/fs_access.json's cases give them.
type Config struct {
	// Tree is the nodes: absolute paths, a directory ending with `/`; parents are implied.
	Tree []string
	// Mounts are directories that are forge repositories (implied when not in Tree).
	Mounts []string
	// Grants cover everything below their path; the most specific wins; none by default.
	Grants map[string]Level
	// Floor caps the level below its path; the most specific entry applies.
	Floor map[string]Level
	// Forge is, per mount, what the user's own forge account may do there: filesystem.md, "On a
	// mount, the forge decides first: a level is never above what the user's own forge account
	// may do there." A mount absent from it is not capped.
	Forge map[string]Level
	// Cwd is the start directory relative paths resolve against; empty is `/`.
	Cwd string
}

// ConfigError is a Config the view cannot be made of, naming the input as a case names it:
// tree[2], mounts[0], grants["/x"], floor["/y"], cwd.
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

// View is one session's view of a tree. Operations that change the tree (Write, Mkdir, Rm, Mv)
// change the view; grants and floor are fixed when it is made.
type View struct {
	nodes  map[string]Kind
	kids   map[string]map[string]struct{}
	grants map[string]Level
	floor  map[string]Level
	forge  map[string]Level
	// passages holds every path with a path below it whose level may be ro or above: the strict
	// ancestors of each grant or floor path at ro or above. A level only changes at such a path,
	// so a path at none is a passage exactly when it is in this set.
	passages map[string]struct{}
	cwd      string
}

// New makes a view. Paths in Config are resolved (a trailing `/` on a Tree entry marks a
// directory); a node both a file and a directory, a node below a file, a mount that is a file or
// inside another mount, and two grant or floor keys naming one path are errors.
func New(c Config) (*View, error) {
	v := &View{
		nodes:    map[string]Kind{"/": Dir},
		kids:     map[string]map[string]struct{}{},
		grants:   map[string]Level{},
		floor:    map[string]Level{},
		forge:    map[string]Level{},
		passages: map[string]struct{}{},
		cwd:      "/",
	}
	for i, raw := range c.Tree {
		// The field is named only when the entry is refused: a view is made for every case.
		field := func() string { return "tree[" + strconv.Itoa(i) + "]" }
		if !strings.HasPrefix(raw, "/") {
			return nil, &ConfigError{field(), fmt.Sprintf("%q is not absolute: a tree path begins with /", raw)}
		}
		kind := File
		if strings.HasSuffix(raw, "/") {
			kind = Dir
		}
		if err := v.add(Resolve("/", raw), kind); err != nil {
			return nil, &ConfigError{field(), err.Error()}
		}
	}
	for i, raw := range c.Mounts {
		field := func() string { return "mounts[" + strconv.Itoa(i) + "]" }
		if !strings.HasPrefix(raw, "/") {
			return nil, &ConfigError{field(), fmt.Sprintf("%q is not absolute", raw)}
		}
		p := Resolve("/", raw)
		if k, ok := v.nodes[p]; ok && k == File {
			return nil, &ConfigError{field(), fmt.Sprintf("%s is a file; a mount is a directory", p)}
		}
		if err := v.add(p, Mount); err != nil {
			return nil, &ConfigError{field(), err.Error()}
		}
	}
	for p, k := range v.nodes {
		if k != Mount {
			continue
		}
		if m, ok := v.mountOf(Parent(p)); ok && p != "/" {
			return nil, &ConfigError{"mounts",
				fmt.Sprintf("%s is inside the mount %s: below a mount every node is a dir or a file", p, m)}
		}
	}
	if err := resolveKeys("grants", c.Grants, v.grants); err != nil {
		return nil, err
	}
	if err := resolveKeys("floor", c.Floor, v.floor); err != nil {
		return nil, err
	}
	if err := resolveKeys("forge", c.Forge, v.forge); err != nil {
		return nil, err
	}
	for p := range v.forge {
		if v.nodes[p] != Mount {
			return nil, &ConfigError{fmt.Sprintf("forge[%q]", p), "not a mount: a forge account's level is a mount's"}
		}
	}
	if c.Cwd != "" {
		if !strings.HasPrefix(c.Cwd, "/") {
			return nil, &ConfigError{"cwd", fmt.Sprintf("%q is not absolute", c.Cwd)}
		}
		v.cwd = Resolve("/", c.Cwd)
	}
	for _, keys := range []map[string]Level{v.grants, v.floor} {
		for k := range keys {
			if v.level(k) < RO {
				continue
			}
			for _, a := range Ancestors(k) {
				v.passages[a] = struct{}{}
			}
		}
	}
	return v, nil
}

func resolveKeys(field string, in, out map[string]Level) error {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	from := map[string]string{}
	for _, raw := range keys {
		l := in[raw]
		f := func() string { return fmt.Sprintf("%s[%q]", field, raw) }
		if !strings.HasPrefix(raw, "/") {
			return &ConfigError{f(), fmt.Sprintf("%q is not absolute", raw)}
		}
		if l < None || l > Commit {
			return &ConfigError{f(), fmt.Sprintf("no level %d", int8(l))}
		}
		p := Resolve("/", raw)
		if prev, dup := from[p]; dup {
			return &ConfigError{f(), fmt.Sprintf("names %s, as %q does", p, prev)}
		}
		from[p] = raw
		out[p] = l
	}
	return nil
}

// add puts a node at resolved path p with its missing parents as directories. A directory (or
// mount) where one is already is fine; anything else where a node is, or below a file, is not.
func (v *View) add(p string, kind Kind) error {
	if have, ok := v.nodes[p]; ok {
		switch {
		case have.IsDir() && kind.IsDir():
			if kind == Mount {
				v.nodes[p] = Mount
			}
			return nil
		case have == File && kind == File:
			return nil
		}
		return fmt.Errorf("%s is a %s and a %s", p, have, kind)
	}
	if p != "/" {
		parent := Parent(p)
		if err := v.add(parent, Dir); err != nil {
			if v.nodes[parent] == File {
				return fmt.Errorf("%s is below %s, a file", p, parent)
			}
			return err
		}
		if v.kids[parent] == nil {
			v.kids[parent] = map[string]struct{}{}
		}
		v.kids[parent][Base(p)] = struct{}{}
	}
	v.nodes[p] = kind
	return nil
}

// remove takes p and everything below it out of the tree.
func (v *View) remove(p string) {
	for name := range v.kids[p] {
		v.remove(Join(p, name))
	}
	delete(v.kids, p)
	delete(v.nodes, p)
	if p != "/" {
		delete(v.kids[Parent(p)], Base(p))
	}
}

// Clone is an independent copy: operations on one do not change the other.
func (v *View) Clone() *View {
	c := &View{
		nodes: make(map[string]Kind, len(v.nodes)), kids: make(map[string]map[string]struct{}, len(v.kids)),
		grants: v.grants, floor: v.floor, forge: v.forge, passages: v.passages, cwd: v.cwd,
	}
	for p, k := range v.nodes {
		c.nodes[p] = k
	}
	for p, names := range v.kids {
		m := make(map[string]struct{}, len(names))
		for n := range names {
			m[n] = struct{}{}
		}
		c.kids[p] = m
	}
	return c
}

// Cwd is the start directory, resolved.
func (v *View) Cwd() string { return v.cwd }

// Resolve is p in its absolute, resolved form, relative paths against the start directory.
func (v *View) Resolve(p string) string { return Resolve(v.cwd, p) }

// Level is the session's level at p (resolved against the start directory): the most specific
// grant at or above it (none without one), lowered to the most specific floor at or above it.
// Whether p exists does not matter: a new path takes the level of the grant above it.
func (v *View) Level(p string) Level { return v.level(v.Resolve(p)) }

// level walks up from a resolved path once, taking the first grant, the first floor and the mount's
// forge level met: a map lookup per ancestor, however many grants there are.
func (v *View) level(p string) Level {
	grant, cap, forge := None, Commit, Commit
	haveGrant, haveFloor, haveForge := false, len(v.floor) == 0, len(v.forge) == 0
	for q := p; ; q = Parent(q) {
		if !haveForge {
			if l, ok := v.forge[q]; ok {
				forge, haveForge = l, true
			}
		}
		if !haveGrant {
			if l, ok := v.grants[q]; ok {
				grant, haveGrant = l, true
			}
		}
		if !haveFloor {
			if l, ok := v.floor[q]; ok {
				cap, haveFloor = l, true
			}
		}
		if haveGrant && haveFloor && haveForge || q == "/" {
			break
		}
	}
	return min(grant, cap, forge)
}

// Passage says p is at none with something at ro or above below it: denied, and never listed.
func (v *View) Passage(p string) bool { return v.passage(v.Resolve(p)) }

func (v *View) passage(p string) bool {
	if _, ok := v.passages[p]; !ok {
		return false
	}
	return v.level(p) == None
}

// Visible says p exists and is at ro or above: it exists for the model.
func (v *View) Visible(p string) bool {
	_, ok := v.visible(v.Resolve(p))
	return ok
}

func (v *View) visible(p string) (Kind, bool) {
	k, ok := v.nodes[p]
	if !ok || v.level(p) < RO {
		return 0, false
	}
	return k, true
}

// ReadableFile says p is a file the session can read: what an instruction file must be.
func (v *View) ReadableFile(p string) bool {
	p = v.Resolve(p)
	return v.nodes[p] == File && v.level(p) >= RO
}

// Node is p's kind whether or not the session may see it: for the harness, never for an answer.
func (v *View) Node(p string) (Kind, bool) {
	k, ok := v.nodes[v.Resolve(p)]
	return k, ok
}

// MountOf is the mount p is in (or is), if any.
func (v *View) MountOf(p string) (string, bool) { return v.mountOf(v.Resolve(p)) }

func (v *View) mountOf(p string) (string, bool) {
	for q := p; ; q = Parent(q) {
		if v.nodes[q] == Mount {
			return q, true
		}
		if q == "/" {
			return "", false
		}
	}
}

// Grant is one granted path and its level, lowered to the floor.
type Grant struct {
	Path  string
	Level Level
}

// Grants are the granted paths with the level the session has at each, by path: what the
// model is told of its view (prompts/blocks/workspace.md's {{view}}).
func (v *View) Grants() []Grant {
	out := make([]Grant, 0, len(v.grants))
	for p := range v.grants {
		out = append(out, Grant{p, v.level(p)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Told is what the model is told of its levels: every granted path at ro or above, with the
// level it has there, by path. A grant at none (or floored to none) is not told: it names a path
// that does not exist for the model ("Only what is at `ro` or above exists for the model").
func (v *View) Told() []Grant {
	var out []Grant
	for _, g := range v.Grants() {
		if g.Level != None {
			out = append(out, g)
		}
	}
	return out
}
