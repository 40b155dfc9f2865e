package fsaccess

import (
	"fmt"
	"slices"
)

// Error is a tool's error as the session is told it: one row of filesystem.md's *Errors* table
// and the resolved absolute path it names.
type Error struct {
	Code Code
	Path string
}

// Error is the exact text.
func (e *Error) Error() string {
	t, ok := SpecTexts().Errors[e.Code]
	if !ok {
		return fmt.Sprintf("fsaccess: %s has no text of its own", e.Code)
	}
	return t.Render(e.Path)
}

func fail(c Code, p string) *Error { return &Error{Code: c, Path: p} }

// Op is an operation, named as conformance/fs_access.json names it.
type Op string

const (
	OpLevel  Op = "level"
	OpList   Op = "list"
	OpRead   Op = "read"
	OpWrite  Op = "write"
	OpMkdir  Op = "mkdir"
	OpRm     Op = "rm"
	OpCommit Op = "commit"
	// The ops of 3.1.0's filesystem.md the first cases could not say: a listing as its text, a move,
	// and an edit with the files this session has read.
	OpListText Op = "list_text"
	OpReadText Op = "read_text"
	OpMv       Op = "mv"
	OpEdit     Op = "edit"
	// OpView is what the model is told of the session's levels (prompts/blocks/workspace.md's
	// {{view}}); it takes no path.
	OpView Op = "view"
)

// Ops are the operations Apply knows, in the spec's order, then the ones Do adds.
func Ops() []Op {
	return []Op{OpLevel, OpList, OpRead, OpWrite, OpMkdir, OpRm, OpCommit, OpListText, OpReadText, OpMv, OpEdit,
		OpView}
}

// Args are what an op takes beside its path: mv's target, list_text's depth (0: the default), and
// for edit the files this session has read and those changed since it read them.
type Args struct {
	To             string
	Depth          int
	Reads, Changed []string
}

// Result is what one operation answers: an error, or for level the level and whether the path
// is a passage, or for list (and read of a directory) the entries, never nil; else plain ok.
type Result struct {
	// Path is the operation's path, resolved.
	Path    string
	Level   Level
	Passage bool
	Entries []string
	// Text is a listing as the tool shows it (list_text, read_text of a directory).
	Text *string
	// Told is view's answer: Told.
	Told []Grant
	Err  *Error
}

// Apply runs one operation on p (resolved against the start directory).
func (v *View) Apply(op Op, p string) (Result, error) { return v.Do(op, p, Args{}) }

// Do runs one operation on p with its arguments.
func (v *View) Do(op Op, p string, a Args) (Result, error) {
	r := Result{Path: v.Resolve(p)}
	switch op {
	case OpLevel:
		r.Level, r.Passage = v.level(r.Path), v.passage(r.Path)
		return r, nil
	case OpList:
		r.Entries, r.Err = v.list(r.Path)
	case OpRead:
		r.Entries, r.Err = v.read(r.Path)
	case OpWrite:
		r.Err = v.write(r.Path)
	case OpMkdir:
		r.Err = v.mkdir(r.Path)
	case OpRm:
		r.Err = v.rm(r.Path)
	case OpCommit:
		r.Err = v.commit(r.Path)
	case OpListText, OpReadText:
		r.Text, r.Err = v.listText(r.Path, op == OpReadText, a.Depth)
	case OpMv:
		r.Err = v.mv(r.Path, v.Resolve(a.To))
	case OpEdit:
		r.Err = v.edit(r.Path, v.resolveAll(a.Reads), v.resolveAll(a.Changed))
	case OpView:
		r.Told = v.Told()
	default:
		return r, fmt.Errorf("fsaccess: no operation %q", op)
	}
	if r.Err != nil {
		r.Entries = nil
	}
	return r, nil
}

// errOf keeps a nil *Error a nil error.
func errOf(e *Error) error {
	if e == nil {
		return nil
	}
	return e
}

// Stat is p's kind when the session can see it, else the error any look at p answers.
func (v *View) Stat(p string) (Kind, error) {
	p = v.Resolve(p)
	if k, ok := v.visible(p); ok {
		return k, nil
	}
	return 0, v.unseen(p)
}

// List is a directory's entries as a listing shows them.
func (v *View) List(p string) ([]string, error) {
	e, err := v.list(v.Resolve(p))
	return e, errOf(err)
}

// Read is ok for a file, and a directory's listing for a directory (filesystem.md *A listing*:
// "`list` and a directory given to `read`").
func (v *View) Read(p string) (entries []string, err error) {
	e, ferr := v.read(v.Resolve(p))
	return e, errOf(ferr)
}

// Write makes or replaces a file, making the directories above it that are missing.
func (v *View) Write(p string) error { return errOf(v.write(v.Resolve(p))) }

// Mkdir makes a directory and any missing above it; one that exists already is fine.
func (v *View) Mkdir(p string) error { return errOf(v.mkdir(v.Resolve(p))) }

// Rm removes a file, or a directory with everything in it.
func (v *View) Rm(p string) error { return errOf(v.rm(v.Resolve(p))) }

// Commit checks the session may commit p: inside a mount, at commit.
func (v *View) Commit(p string) error { return errOf(v.commit(v.Resolve(p))) }

// Mv moves a file or a directory with everything in it to a path that does not exist yet, in a
// directory that does.
func (v *View) Mv(from, to string) error { return errOf(v.mv(v.Resolve(from), v.Resolve(to))) }

// nearest is p's nearest strict ancestor that is visible or a passage; found is false when
// there is none (nothing at or above p's ancestors is open).
func (v *View) nearest(p string) (a string, k Kind, passage, found bool) {
	for a = p; a != "/"; {
		a = Parent(a)
		if k, ok := v.visible(a); ok {
			return a, k, false, true
		}
		if v.passage(a) {
			return a, 0, true, true
		}
	}
	return "", 0, false, false
}

// unseen answers a path that is not visible by what the model already knows: a passage, or a
// path under one, is denied; under a visible directory it is missing; under a visible file, the
// file is not a directory. With nothing open above it the path is denied too.
func (v *View) unseen(p string) *Error {
	if v.passage(p) {
		return fail(AccessDenied, p)
	}
	a, k, passage, found := v.nearest(p)
	switch {
	case !found || passage:
		return fail(AccessDenied, p)
	case k == File:
		return fail(NotADirectory, a)
	}
	return fail(NoSuchFile, p)
}

// creatable checks a path that is neither visible nor a passage can be made, and says which
// missing directories above it would be made with it (outermost first). A new path takes the
// level of the most specific grant above it, so the answer is by p's level: Read-only at ro,
// Access denied at none — for a name taken by an entry at none, and for a missing one alike.
func (v *View) creatable(p string) ([]string, *Error) {
	a, k, passage, found := v.nearest(p)
	switch {
	case !found || passage:
		return nil, fail(AccessDenied, p)
	case k == File:
		return nil, fail(NotADirectory, a)
	}
	switch l := v.level(p); {
	case l == RO:
		return nil, fail(ReadOnly, p)
	case l == None:
		return nil, fail(AccessDenied, p)
	}
	// Directories between a and p are missing (a hidden one at none would make p's way a
	// passage); each is a change in its own parent, so each needs stage too.
	var dirs []string
	for q := Parent(p); q != a; q = Parent(q) {
		dirs = append(dirs, q)
	}
	for i, j := 0, len(dirs)-1; i < j; i, j = i+1, j-1 {
		dirs[i], dirs[j] = dirs[j], dirs[i]
	}
	for _, d := range dirs {
		if v.level(d) < Stage {
			return nil, fail(ReadOnly, d)
		}
	}
	return dirs, nil
}

func (v *View) list(p string) ([]string, *Error) {
	k, ok := v.visible(p)
	if !ok {
		return nil, v.unseen(p)
	}
	if k == File {
		return nil, fail(NotADirectory, p)
	}
	return v.entries(p), nil
}

func (v *View) read(p string) ([]string, *Error) {
	k, ok := v.visible(p)
	if !ok {
		return nil, v.unseen(p)
	}
	if k.IsDir() {
		return v.entries(p), nil
	}
	return nil, nil
}

// entries is a visible directory's listing: its entries at ro or above, one per entry, a
// directory or mount with the directory suffix, a mount marked, an entry at ro in a directory
// the session may change marked read-only; directories first, then by name (byte order).
func (v *View) entries(dir string) []string {
	t := SpecTexts()
	dirLevel := v.level(dir)
	writable := dirLevel >= Stage
	names := v.nodes[dir].kids
	// Directories fill out from the front, files from the back (in reverse), in one pass over the
	// sorted names; the files are turned round and moved up after.
	out := make([]string, len(names))
	nd, nf := 0, 0
	var buf [128]byte
	for _, name := range names {
		// The entry's path is looked up through a reused buffer: m[string(b)] does not allocate.
		b := append(append(append(buf[:0], dir...), '/'), name...)
		if dir == "/" {
			b = b[1:]
		}
		l := dirLevel
		if v.hasKey(b) {
			l = v.level(string(b))
		}
		if l < RO {
			continue
		}
		k := v.nodes[string(b)].kind
		line := name
		switch {
		case k == Mount && l == RO && writable:
			line = name + t.DirSuffix + t.MountMark + t.ReadOnlyMark
		case k == Mount:
			line = name + t.DirSuffix + t.MountMark
		case k.IsDir() && l == RO && writable:
			line = name + t.DirSuffix + t.ReadOnlyMark
		case k.IsDir():
			line = name + t.DirSuffix
		case l == RO && writable:
			line = name + t.ReadOnlyMark
		}
		if k.IsDir() {
			out[nd] = line
			nd++
		} else {
			nf++
			out[len(out)-nf] = line
		}
	}
	files := out[len(out)-nf:]
	slices.Reverse(files)
	copy(out[nd:], files)
	return out[:nd+nf]
}

// hasKey says a grant, floor or forge level is set at path b itself: only then is an entry's
// level not its directory's.
func (v *View) hasKey(b []byte) bool {
	if _, ok := v.grants[string(b)]; ok {
		return true
	}
	if _, ok := v.floor[string(b)]; ok {
		return true
	}
	_, ok := v.forge[string(b)]
	return ok
}

func (v *View) write(p string) *Error {
	if k, ok := v.visible(p); ok {
		if k.IsDir() {
			return fail(IsADirectory, p)
		}
		if v.level(p) < Stage {
			return fail(ReadOnly, p)
		}
		return nil
	}
	return v.create(p, File)
}

func (v *View) mkdir(p string) *Error {
	if k, ok := v.visible(p); ok {
		if k == File {
			return fail(AlreadyExists, p)
		}
		return nil
	}
	return v.create(p, Dir)
}

// create makes p, a name nothing the session sees holds, as a k with the directories above it
// that are missing: write's and mkdir's common end. A passage (a name taken at level none) is
// refused as access denied, not made.
func (v *View) create(p string, k Kind) *Error {
	if v.passage(p) {
		return fail(AccessDenied, p)
	}
	dirs, err := v.creatable(p)
	if err != nil {
		return err
	}
	for _, d := range dirs {
		_ = v.add(d, Dir)
	}
	_ = v.add(p, k)
	return nil
}

// removable checks p, a visible node, may be taken away with everything below it: not the root
// or a mount (a mount is removed by whoever mounted it), at stage or above, and so is everything
// below it. Something below at ro is named; something at none is not — the directory is denied,
// which says only that something there is not the session's.
func (v *View) removable(p string) *Error {
	if p == "/" || v.nodes[p].kind == Mount {
		return fail(ReadOnly, p)
	}
	if v.level(p) < Stage {
		return fail(ReadOnly, p)
	}
	for _, d := range v.below(p) {
		l := v.level(d)
		switch {
		case l == None:
			return fail(AccessDenied, p)
		case v.nodes[d].kind == Mount || l == RO:
			return fail(ReadOnly, d)
		}
	}
	return nil
}

// below is every node strictly below p, in path order.
func (v *View) below(p string) []string {
	var out []string
	var walk func(string)
	walk = func(d string) {
		for _, n := range v.nodes[d].kids {
			c := Join(d, n)
			out = append(out, c)
			walk(c)
		}
	}
	walk(p)
	return out
}

func (v *View) rm(p string) *Error {
	if _, ok := v.visible(p); !ok {
		return v.unseen(p)
	}
	if err := v.removable(p); err != nil {
		return err
	}
	v.remove(p)
	return nil
}

func (v *View) commit(p string) *Error {
	if _, ok := v.visible(p); !ok {
		return v.unseen(p)
	}
	if _, ok := v.mountOf(p); !ok {
		return fail(NothingToCommit, p)
	}
	switch v.level(p) {
	case RO:
		return fail(ReadOnly, p)
	case Stage:
		return fail(NotCommitted, p)
	}
	return nil
}

func (v *View) mv(from, to string) *Error {
	if _, ok := v.visible(from); !ok {
		return v.unseen(from)
	}
	if err := v.removable(from); err != nil {
		return err
	}
	if _, ok := v.visible(to); ok {
		return fail(AlreadyExists, to)
	}
	if v.passage(to) {
		return fail(AccessDenied, to)
	}
	// The target's directory must exist: the nearest open ancestor is its parent.
	if a, k, passage, found := v.nearest(to); found && !passage && k.IsDir() && a != Parent(to) {
		return fail(NoSuchFile, Parent(to))
	}
	if _, err := v.creatable(to); err != nil {
		return err
	}
	fromMount, _ := v.mountOf(from)
	toMount, _ := v.mountOf(Parent(to))
	if fromMount != toMount || Within(from, to) {
		return fail(AccessDenied, to)
	}
	moved := append([]string{from}, v.below(from)...)
	for _, q := range moved {
		if np := to + q[len(from):]; v.level(np) < Stage {
			if v.level(np) == RO {
				return fail(ReadOnly, np)
			}
			return fail(AccessDenied, to)
		}
	}
	kinds := make([]Kind, len(moved))
	for i, q := range moved {
		kinds[i] = v.nodes[q].kind
	}
	v.remove(from)
	for i, q := range moved {
		_ = v.add(to+q[len(from):], kinds[i])
	}
	return nil
}
