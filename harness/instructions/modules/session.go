package modules

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// Diagnostic is a file the resolver refused, by its Project-relative path, with the code the
// design declares for it: "" for a module refused for its frontmatter (the seed says "refused
// with a diagnostic" and declares no code), and no path for an activation whose append failed.
type Diagnostic struct {
	Path string
	Code string
}

// Loaded is a module as the system prompt or a record carries it.
type Loaded struct {
	RelPath string
	SHA256  string
	// Supersedes is the hash of the latest active version of the same path this one replaces,
	// "" when the path was not present.
	Supersedes string
	// Envelope is what the model reads (for a record's modules; empty at spawn).
	Envelope string
	body     []byte
}

// Startup is what spawn puts in the system prompt: the root instruction file (its name, ""
// for none) and then every unconditional rule module, by relative path.
type Startup struct {
	Root        string
	Modules     []Loaded
	Diagnostics []Diagnostic
}

// Activation is what one model request appends: one record of the modules not already present
// in the active context, or none (Appended false) when nothing is new or the append failed.
type Activation struct {
	Appended    bool
	Modules     []Loaded
	Diagnostics []Diagnostic
}

// Session is one conversation's modules: a project on a disk, the paths touched since the last
// request, and what the active context holds (relative path → the hash of its latest record).
type Session struct {
	root string // as the envelope names it
	disk *Disk
	// queue holds the paths touched since the last request, repeats and all (resolve drops them),
	// and rels their relative paths at a request: both kept from request to request, a slice
	// cleared rather than a map made per call.
	queue  []string
	rels   []string
	active map[string]string
}

// New starts a session on the project at root (absolute) on disk.
func New(root string, disk *Disk) *Session {
	return &Session{root: path.Clean(root), disk: disk, active: map[string]string{}}
}

// Disk is the session's disk, which a step may change between requests.
func (s *Session) Disk() *Disk { return s.disk }

// Touch queues the paths a successful, authorized Read, Write or Edit reported (details.
// fileAccess): nothing is resolved until the next request.
func (s *Session) Touch(paths ...string) {
	s.queue = append(s.queue, paths...)
}

// Compact drops every instruction record from the active context, as compaction drops them
// with the history it summarizes: the next trigger loads the module again.
func (s *Session) Compact() { clear(s.active) }

// Spawn is the startup: the root file by name priority, following a link wherever it leads ("the
// root file, which follows a symlink"), then the unconditional rule modules. A root file above
// the cap is refused, and no other name stands in for it.
func (s *Session) Spawn() Startup {
	t := SpecTexts()
	var st Startup
	for _, name := range t.Names {
		real, kind, ok := s.disk.Real(fsaccess.Join(s.root, name))
		if !ok || kind != fsaccess.FileEntry {
			continue
		}
		if len(s.disk.Read(real)) > t.MaxBytes {
			st.Diagnostics = append(st.Diagnostics, Diagnostic{Path: name, Code: t.Oversized})
		} else {
			st.Root = name
		}
		break
	}
	rules, diags := s.rules(s.base())
	st.Diagnostics = append(st.Diagnostics, diags...)
	for _, r := range rules {
		if !r.mod.Conditional() {
			l := r.loaded()
			l.body = nil
			st.Modules = append(st.Modules, l)
		}
	}
	sortDiagnostics(st.Diagnostics)
	return st
}

// Request is the next model request: the queue is drained and resolved, and one record appended
// of what is not already present. failAppend makes the append fail: nothing counts as loaded,
// the code is logged and the touched paths go back into the queue.
func (s *Session) Request(failAppend bool) Activation {
	t := SpecTexts()
	var a Activation
	if len(s.queue) == 0 {
		return a
	}
	rootReal := s.base() // the disk does not change during a request
	rels := s.rels[:0]
	for _, p := range s.queue {
		if rel, ok := s.rel(p, rootReal); ok {
			rels = append(rels, rel)
		}
	}
	s.rels = rels
	if len(rels) == 0 {
		// Touching a file outside the Project root contributes nothing and is not diagnosed.
		s.drain()
		return a
	}
	mods, diags := s.resolve(rels, rootReal)
	a.Diagnostics = diags
	for _, m := range mods {
		if have, ok := s.active[m.RelPath]; ok {
			if have == m.SHA256 {
				continue
			}
			m.Supersedes = have
		}
		a.Modules = append(a.Modules, m)
	}
	for i, m := range a.Modules {
		a.Modules[i].Envelope = t.envelope(fsaccess.Join(s.root, m.RelPath), m.body, m.Supersedes != "")
	}
	if len(a.Modules) > 0 && failAppend {
		a.Diagnostics = append(a.Diagnostics, Diagnostic{Code: t.ActivationFailed})
		a.Modules = nil
		return a // the touched paths stay queued
	}
	s.drain()
	for _, m := range a.Modules {
		s.active[m.RelPath] = m.SHA256
	}
	a.Appended = len(a.Modules) > 0
	return a
}

// drain empties the queue and the relative paths, keeping their arrays; clear lets go of the
// strings they held.
func (s *Session) drain() {
	clear(s.queue)
	s.queue = s.queue[:0]
	clear(s.rels)
	s.rels = s.rels[:0]
}

// rel is a touched absolute path relative to the root (or rootReal, its real path), if it is a
// file below the root; the path is read by its text.
func (s *Session) rel(p, rootReal string) (string, bool) {
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	p = path.Clean(p)
	// The root as the session names it, then its real path: "the same realpath helper used by
	// the tool boundary" may report where the touched file really is.
	for _, root := range []string{s.root, rootReal} {
		if p == root || !fsaccess.Within(root, p) {
			continue
		}
		if root == "/" {
			return p[1:], true
		}
		return p[len(root)+1:], true
	}
	return "", false
}

// resolve is the resolver's order for touched paths: nested instruction files shallow to deep,
// then the conditional rules any of them matches, by relative path.
func (s *Session) resolve(rels []string, rootReal string) ([]Loaded, []Diagnostic) {
	t := SpecTexts()
	rules, diags := s.rules(rootReal)
	var out []Loaded
	// Nested files: the folders of each touched file from the first under the root down to its
	// own, outside the .elowen tree; one file per folder, by name priority.
	// Each folder is a head of a touched path (clean, so its names are between its `/`s); the
	// repeats are dropped after sorting rather than by a set.
	var dirs []string
	for _, rel := range rels {
		for i := strings.IndexByte(rel, '/'); i >= 0; i = nextSlash(rel, i) {
			dir := rel[:i]
			if fsaccess.Within(t.Tree, dir) {
				break
			}
			dirs = append(dirs, dir)
		}
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	slices.SortFunc(dirs, shallowFirst)
	for _, dir := range dirs {
		l, d, ok := s.nested(dir, rootReal)
		if d != nil {
			diags = append(diags, *d)
		}
		if ok {
			out = append(out, l)
		}
	}
	touched := NewPaths(rels)
	for _, r := range rules {
		if !r.mod.Conditional() {
			continue
		}
		for _, g := range r.mod.Globs {
			if g.MatchAny(touched) {
				out = append(out, r.loaded())
				break
			}
		}
	}
	sortDiagnostics(diags)
	return out, diags
}

// nextSlash is the index of the next `/` in s after the one at i, -1 when there is none.
func nextSlash(s string, i int) int {
	if j := strings.IndexByte(s[i+1:], '/'); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// shallowFirst orders folders by depth, then by path.
func shallowFirst(a, b string) int {
	if da, db := strings.Count(a, "/"), strings.Count(b, "/"); da != db {
		return cmp.Compare(da, db)
	}
	return strings.Compare(a, b)
}

// nested is one folder's instruction file: the first name of the priority list that is there
// as a file, in the folder the touched path really leads to (folder links followed). A file
// whose real path leaves the root — through its own link or a folder's — is refused with the
// escape code. A refused one is the folder's: no later name stands in for it.
func (s *Session) nested(dir, rootReal string) (Loaded, *Diagnostic, bool) {
	t := SpecTexts()
	// The folder is where the touched path really leads: a folder link on the way is followed
	// (the file must then "resolve inside realpath of the Project root").
	// rootReal and the relative dir are clean: Join is path.Join without its Clean.
	folder, kind, ok := s.disk.Real(fsaccess.Join(rootReal, dir))
	if !ok || kind != fsaccess.DirEntry {
		return Loaded{}, nil, false
	}
	for _, name := range t.Names {
		rel := dir + "/" + name
		at := fsaccess.Join(folder, name)
		real := at
		switch s.disk.Lstat(at) {
		case fsaccess.FileEntry:
		case fsaccess.LinkEntry:
			to, kind, ok := s.disk.Real(at)
			if ok && !fsaccess.Within(rootReal, to) {
				return Loaded{}, &Diagnostic{Path: rel, Code: t.Escape}, false
			}
			if !ok || kind != fsaccess.FileEntry {
				continue
			}
			real = to
		default:
			continue
		}
		if !fsaccess.Within(rootReal, real) {
			return Loaded{}, &Diagnostic{Path: rel, Code: t.Escape}, false
		}
		b := s.disk.Read(real)
		if len(b) > t.MaxBytes {
			return Loaded{}, &Diagnostic{Path: rel, Code: t.Oversized}, false
		}
		body := bytes.TrimPrefix(b, bom)
		return Loaded{RelPath: rel, SHA256: sum(body), body: body}, nil, true
	}
	return Loaded{}, nil, false
}

// rule is one rule module found: its relative path and what it says. Its hash is taken only
// when it is loaded: discovery reads every rule file at every trigger.
type rule struct {
	rel string
	mod Module
}

func (r rule) loaded() Loaded {
	return Loaded{RelPath: r.rel, SHA256: sum(r.mod.Body), body: r.mod.Body}
}

// rules walks the rules folder: a Markdown file is a module; a link is followed when it stays
// inside the root's real path — a file is read, a folder stays unwalked — and refused with the
// escape code when it leaves, whatever its name ("discovery reports before filtering Markdown
// names"). A module above the cap, or with an invalid frontmatter, is refused whole. Rules come
// by relative path.
func (s *Session) rules(rootReal string) ([]rule, []Diagnostic) {
	t := SpecTexts()
	var out []rule
	var diags []Diagnostic
	var walk func(dir, rel string)
	walk = func(dir, rel string) {
		for _, name := range s.disk.List(dir) {
			// dir is a real path and name one name: Join is path.Join without its Clean.
			abs, r := fsaccess.Join(dir, name), rel+"/"+name
			real := abs
			switch s.disk.Lstat(abs) {
			case fsaccess.DirEntry:
				walk(abs, r)
				continue
			case fsaccess.LinkEntry:
				to, kind, ok := s.disk.Real(abs)
				if ok && !fsaccess.Within(rootReal, to) {
					diags = append(diags, Diagnostic{Path: r, Code: t.Escape})
					continue
				}
				if !ok || kind != fsaccess.FileEntry {
					continue
				}
				real = to
			}
			if !t.RuleFiles.Match(r) {
				continue
			}
			b := s.disk.Read(real)
			if len(b) > t.MaxBytes {
				diags = append(diags, Diagnostic{Path: r, Code: t.Oversized})
				continue
			}
			m, err := Parse(b)
			if err != nil {
				diags = append(diags, Diagnostic{Path: r})
				continue
			}
			out = append(out, rule{rel: r, mod: m})
		}
	}
	// The rules folder is where its path leads, a link on the way followed like any path opened;
	// one leading out of the Project is refused at the folder's own path.
	dir, kind, ok := s.disk.Real(fsaccess.Join(rootReal, t.RulesDir))
	switch {
	case ok && !fsaccess.Within(rootReal, dir):
		diags = append(diags, Diagnostic{Path: t.RulesDir, Code: t.Escape})
	case ok && kind == fsaccess.DirEntry:
		walk(dir, t.RulesDir)
	}
	slices.SortFunc(out, byRel)
	return out, diags
}

// byRel orders rules by relative path, each rule's own (the walk's order is by name per folder,
// and "a-b" comes before "a/b").
func byRel(a, b rule) int { return strings.Compare(a.rel, b.rel) }

// base is the root's real path, where the resolver reads ("The resolver normalizes its host
// root once with the same realpath helper used by the tool boundary").
func (s *Session) base() string {
	real, kind, ok := s.disk.Real(s.root)
	if !ok || kind != fsaccess.DirEntry {
		return s.root // a root that leads nowhere (a loop, nothing there) holds nothing to read
	}
	return real
}

// sum is b's SHA-256 in hex; a large file's is remembered (memo), for the same content is
// hashed again at every trigger, and in every case that holds a file near the cap.
func sum(b []byte) string {
	if len(b) < sumMemoMin {
		return sumNow(b)
	}
	return sums.get(b, func() string { return sumNow(b) })
}

func sumNow(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// sortDiagnostics orders by path, then code; a diagnostic without a path comes last.
func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if (a.Path == "") != (b.Path == "") {
			return b.Path == ""
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Code < b.Code
	})
}
