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
	"maps"
	"slices"
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
	// nodes holds every node with its kind and its entries' names, sorted (byte order): a
	// listing and a walk below a directory read them in order without sorting each time.
	nodes  map[string]node
	grants map[string]Level
	floor  map[string]Level
	forge  map[string]Level
	// passages holds every path with a path below it whose level may be ro or above: the strict
	// ancestors of each grant or floor path at ro or above. A level only changes at such a path,
	// so a path at none is a passage exactly when it is in this set. Nil when there is none.
	passages map[string]struct{}
	cwd      string
}

// node is one node of the tree: its kind and, for a directory, its entries' names, sorted.
type node struct {
	kind Kind
	kids []string
}

// New makes a view. Paths in Config are resolved (a trailing `/` on a Tree entry marks a
// directory); a node both a file and a directory, a node below a file, a mount that is a file or
// inside another mount, and two grant or floor keys naming one path are errors.
func New(c Config) (*View, error) {
	v := &View{nodes: make(map[string]node, len(c.Tree)+len(c.Mounts)+1), cwd: "/"}
	v.nodes["/"] = node{kind: Dir}
	for i, raw := range c.Tree {
		if !strings.HasPrefix(raw, "/") {
			return nil, &ConfigError{"tree[" + strconv.Itoa(i) + "]",
				fmt.Sprintf("%q is not absolute: a tree path begins with /", raw)}
		}
		kind := File
		if strings.HasSuffix(raw, "/") {
			kind = Dir
		}
		if err := v.add(Resolve("/", raw), kind); err != nil {
			return nil, &ConfigError{"tree[" + strconv.Itoa(i) + "]", err.Error()}
		}
	}
	if err := v.addMounts(c.Mounts); err != nil {
		return nil, err
	}
	var err error
	if v.grants, err = resolveKeys("grants", c.Grants); err != nil {
		return nil, err
	}
	if v.floor, err = resolveKeys("floor", c.Floor); err != nil {
		return nil, err
	}
	if v.forge, err = resolveKeys("forge", c.Forge); err != nil {
		return nil, err
	}
	for p := range v.forge {
		if v.nodes[p].kind != Mount {
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
			if k == "/" || v.level(k) < RO {
				continue // `/` has no ancestor to be a passage
			}
			if v.passages == nil {
				v.passages = make(map[string]struct{}, 2*(len(v.grants)+len(v.floor)))
			}
			for a := k; a != "/"; {
				a = Parent(a)
				v.passages[a] = struct{}{}
			}
		}
	}
	return v, nil
}

// addMounts adds the mounts, then refuses one inside another: a mount is only ever made here.
func (v *View) addMounts(mounts []string) error {
	if len(mounts) == 0 {
		return nil
	}
	made := make([]string, 0, len(mounts))
	for i, raw := range mounts {
		field := "mounts[" + strconv.Itoa(i) + "]"
		if !strings.HasPrefix(raw, "/") {
			return &ConfigError{field, fmt.Sprintf("%q is not absolute", raw)}
		}
		p := Resolve("/", raw)
		if n, ok := v.nodes[p]; ok && n.kind == File {
			return &ConfigError{field, fmt.Sprintf("%s is a file; a mount is a directory", p)}
		}
		if err := v.add(p, Mount); err != nil {
			return &ConfigError{field, err.Error()}
		}
		made = append(made, p)
	}
	for _, p := range made {
		if m, ok := v.mountOf(Parent(p)); ok && p != "/" {
			return &ConfigError{"mounts",
				fmt.Sprintf("%s is inside the mount %s: below a mount every node is a dir or a file", p, m)}
		}
	}
	return nil
}

// resolveKeys is in with its keys resolved, nil for none. Keys already in resolved form with
// levels in range (what cases give) cannot clash, so they are copied as they are; otherwise the
// keys are read in order, so the same input always names the same refusal.
func resolveKeys(field string, in map[string]Level) (map[string]Level, error) {
	if len(in) == 0 {
		return nil, nil
	}
	clean := true
	for k, l := range in {
		if !isClean(k) || l < None || l > Commit {
			clean = false
			break
		}
	}
	if clean {
		return maps.Clone(in), nil
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]Level, len(in))
	from := make(map[string]string, len(in))
	for _, raw := range keys {
		l := in[raw]
		f := fmt.Sprintf("%s[%q]", field, raw)
		if !strings.HasPrefix(raw, "/") {
			return nil, &ConfigError{f, fmt.Sprintf("%q is not absolute", raw)}
		}
		if l < None || l > Commit {
			return nil, &ConfigError{f, fmt.Sprintf("no level %d", int8(l))}
		}
		p := Resolve("/", raw)
		if prev, dup := from[p]; dup {
			return nil, &ConfigError{f, fmt.Sprintf("names %s, as %q does", p, prev)}
		}
		from[p] = raw
		out[p] = l
	}
	return out, nil
}

// add puts a node at resolved path p with its missing parents as directories. A directory (or
// mount) where one is already is fine; anything else where a node is, or below a file, is not.
func (v *View) add(p string, kind Kind) error {
	if have, ok := v.nodes[p]; ok {
		switch {
		case have.kind.IsDir() && kind.IsDir():
			if kind == Mount && have.kind != Mount {
				have.kind = Mount
				v.nodes[p] = have
			}
			return nil
		case have.kind == File && kind == File:
			return nil
		}
		return fmt.Errorf("%s is a %s and a %s", p, have.kind, kind)
	}
	if p != "/" {
		parent := Parent(p)
		pn, ok := v.nodes[parent]
		if !ok {
			if err := v.add(parent, Dir); err != nil {
				return err
			}
			pn = v.nodes[parent]
		}
		if pn.kind == File {
			return fmt.Errorf("%s is below %s, a file", p, parent)
		}
		pn.kids = insertName(pn.kids, Base(p))
		v.nodes[parent] = pn
	}
	v.nodes[p] = node{kind: kind}
	return nil
}

// insertName puts name into sorted names, where it is not yet; names come mostly in order, so
// the common case is an append.
func insertName(names []string, name string) []string {
	if cap(names) == 0 {
		// Most directories of a case hold a few entries: room for four saves the first regrowths.
		names = make([]string, 0, 4)
	}
	if n := len(names); n == 0 || names[n-1] < name {
		return append(names, name)
	}
	i, _ := slices.BinarySearch(names, name)
	return slices.Insert(names, i, name)
}

// remove takes p and everything below it out of the tree.
func (v *View) remove(p string) {
	v.drop(p)
	if p != "/" {
		parent := Parent(p)
		pn := v.nodes[parent]
		if i, ok := slices.BinarySearch(pn.kids, Base(p)); ok {
			pn.kids = slices.Delete(pn.kids, i, i+1)
			v.nodes[parent] = pn
		}
	}
}

// drop deletes p and every node below it, leaving p's parent's names as they are.
func (v *View) drop(p string) {
	for _, name := range v.nodes[p].kids {
		v.drop(Join(p, name))
	}
	delete(v.nodes, p)
}

// Clone is an independent copy: operations on one do not change the other.
func (v *View) Clone() *View {
	c := &View{nodes: make(map[string]node, len(v.nodes)), grants: v.grants, floor: v.floor, forge: v.forge,
		passages: v.passages, cwd: v.cwd}
	for p, n := range v.nodes {
		n.kids = slices.Clone(n.kids)
		c.nodes[p] = n
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
	n, ok := v.nodes[p]
	if !ok || v.level(p) < RO {
		return 0, false
	}
	return n.kind, true
}

// ReadableFile says p is a file the session can read: what an instruction file must be.
func (v *View) ReadableFile(p string) bool {
	p = v.Resolve(p)
	return v.nodes[p].kind == File && v.level(p) >= RO
}

// Node is p's kind whether or not the session may see it: for the harness, never for an answer.
func (v *View) Node(p string) (Kind, bool) {
	n, ok := v.nodes[v.Resolve(p)]
	return n.kind, ok
}

// MountOf is the mount p is in (or is), if any.
func (v *View) MountOf(p string) (string, bool) { return v.mountOf(v.Resolve(p)) }

func (v *View) mountOf(p string) (string, bool) {
	for q := p; ; q = Parent(q) {
		if v.nodes[q].kind == Mount {
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
