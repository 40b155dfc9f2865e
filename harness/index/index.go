// Package index is the reference of area index: what search's index embeds and holds as a tree
// changes (harness spec filesystem.md, *Indexing, by tokens*): "What `search` reads is built
// when a file is written (a mount: its default branch, and again for the files a new commit
// changes). The index is keyed by **content hash**, so a file in many places, or unchanged
// across commits and branches, is embedded once; a rename or a move costs nothing."
//
// An Index is a pure state machine over one server tree: the session's files (a mount's being
// its working copy), each mount's branch, and the index — which content hashes were embedded, in
// order, and which hash each path holds. How a content is cut into pieces is harness/chunk's;
// here a content is embedded or not, once. No clock, no I/O.
package index

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// Index is a tree and its search index.
type Index struct {
	files    map[string]string            // the session's tree: file path → content
	mounts   map[string]map[string]string // mount path → its branch: file path → content
	held     map[string]string            // the index: file path → content hash
	known    map[string]bool              // every content hash embedded
	embedded []string                     // those hashes, in the order they were embedded
}

// New is an empty tree with an empty index.
func New() *Index {
	return &Index{files: map[string]string{}, mounts: map[string]map[string]string{}, held: map[string]string{},
		known: map[string]bool{}}
}

// Error is a step the tree cannot take. A session's step the spec refuses (a move onto an
// existing path, a commit outside every mount, `rm` of a mount, …) is a Refusal: an answer, with
// the spec's error text (Code, at Path) where filesystem.md's *Errors* table has one for it, and
// no text where the spec says only that it is refused. Any other (a mount made where something
// is, a path not absolute) is a malformed case: the spec gives it no answer.
type Error struct {
	Msg     string
	Refusal bool
	Code    fsaccess.Code // 0: the spec fixes no text for this refusal
	Path    string
}

func (e *Error) Error() string { return e.Msg }

// Text is the spec's text for the refusal, "" when the spec fixes none.
func (e *Error) Text() string {
	if e.Code == 0 {
		return ""
	}
	return fsaccess.SpecTexts().Errors[e.Code].Render(e.Path)
}

func fail(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// refuse is a refusal the spec makes, with its text's code and path (code 0: no text).
func refuse(code fsaccess.Code, path, format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...), Refusal: true, Code: code, Path: path}
}

// Hash is a content's key: the hex SHA-256 of its bytes ("a file: bytes, with a content hash
// (SHA-256)", filesystem.md *Node kinds*).
func Hash(content string) string {
	h := sha256.Sum256([]byte(content))
	return hex.EncodeToString(h[:])
}

// Embedded is every content hash embedded so far, in order.
func (x *Index) Embedded() []string { return append([]string{}, x.embedded...) }

// Held is what the index holds: each indexed file's path and its content hash.
func (x *Index) Held() map[string]string {
	out := make(map[string]string, len(x.held))
	for p, h := range x.held {
		out[p] = h
	}
	return out
}

// hold indexes path p as holding content: its hash is embedded if no earlier content had it.
func (x *Index) hold(p, content string) {
	h := Hash(content)
	x.held[p] = h
	if !x.known[h] {
		x.known[h] = true
		x.embedded = append(x.embedded, h)
	}
}

// abs checks p is an absolute path and resolves it by its text (filesystem.md, Paths).
func abs(p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", fail("%q is not absolute", p)
	}
	return fsaccess.Resolve("/", p), nil
}

// mountOf is the mount p is at or below.
func (x *Index) mountOf(p string) (string, bool) {
	for q := p; ; q = fsaccess.Parent(q) {
		if _, ok := x.mounts[q]; ok {
			return q, true
		}
		if q == "/" {
			return "", false
		}
	}
}

// isDir says p is a directory of the tree: `/`, a mount, or a path with a file below it.
func (x *Index) isDir(p string) bool {
	if _, ok := x.mounts[p]; ok || p == "/" {
		return true
	}
	for f := range x.files {
		if f != p && fsaccess.Within(p, f) {
			return true
		}
	}
	for m := range x.mounts {
		if m != p && fsaccess.Within(p, m) {
			return true
		}
	}
	return false
}

func (x *Index) exists(p string) bool {
	_, file := x.files[p]
	return file || x.isDir(p)
}

// fileAbove is the file p would be below, if any.
func (x *Index) fileAbove(p string) (string, bool) {
	for _, a := range fsaccess.Ancestors(p) {
		if _, ok := x.files[a]; ok {
			return a, true
		}
	}
	return "", false
}

// below is every file at or below p, in path order.
func below[V any](m map[string]V, p string) []string {
	var out []string
	for f := range m {
		if fsaccess.Within(p, f) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// newFile checks a file may be made at p: not `/`, not a directory, not below a file.
func (x *Index) newFile(p string) error {
	if x.isDir(p) {
		return refuse(fsaccess.IsADirectory, p, "%s is a directory", p)
	}
	if f, ok := x.fileAbove(p); ok {
		return refuse(fsaccess.NotADirectory, f, "%s is below %s, a file", p, f)
	}
	return nil
}

// Write writes a file. Outside every mount it is indexed now; inside a mount it is staged in the
// working copy, and the index keeps the branch's content until a commit.
func (x *Index) Write(p, content string) error {
	p, err := abs(p)
	if err != nil {
		return err
	}
	if err := x.newFile(p); err != nil {
		return err
	}
	x.files[p] = content
	if _, in := x.mountOf(p); !in {
		x.hold(p, content)
	}
	return nil
}

// Rm removes a file or a directory with everything in it; a mount, or a directory holding one,
// is refused ("`rm` of a mount itself is refused"). Inside a mount the removal is staged.
func (x *Index) Rm(p string) error {
	p, err := abs(p)
	if err != nil {
		return err
	}
	if err := x.movable(p); err != nil {
		return err
	}
	for _, f := range below(x.files, p) {
		delete(x.files, f)
	}
	if _, in := x.mountOf(p); !in {
		for _, f := range below(x.held, p) {
			delete(x.held, f)
		}
	}
	return nil
}

// movable checks p is there and is neither `/` nor a mount nor holds one.
func (x *Index) movable(p string) error {
	if !x.exists(p) {
		return refuse(fsaccess.NoSuchFile, p, "%s is not there", p)
	}
	for m := range x.mounts {
		if fsaccess.Within(p, m) {
			return refuse(0, p, "%s is or holds the mount %s, which only whoever mounted it removes or moves", p, m)
		}
	}
	if p == "/" {
		return refuse(0, p, "/ is the tree's root")
	}
	return nil
}

// target checks to may be made from `from`: not there yet, its directory there, not inside from.
func (x *Index) target(from, to string) error {
	if x.exists(to) {
		return refuse(fsaccess.AlreadyExists, to, "%s is already there", to)
	}
	if fsaccess.Within(from, to) {
		return refuse(0, to, "%s is inside %s", to, from)
	}
	if dir := fsaccess.Parent(to); !x.isDir(dir) {
		return x.notADir(dir, to)
	}
	return nil
}

// notADir is the refusal of a target whose directory is not one: missing, or a file.
func (x *Index) notADir(dir, to string) error {
	code := fsaccess.NoSuchFile
	if _, file := x.files[dir]; file {
		code = fsaccess.NotADirectory
	}
	return refuse(code, dir, "%s, the directory of %s, is not a directory of the tree", dir, to)
}

// Mv moves a file or a directory with everything in it. It costs nothing: outside every mount
// the index holds the same hashes under the new paths; inside a mount the move is staged. A move
// between a mount and the rest of the tree, or between two mounts, is refused.
func (x *Index) Mv(from, to string) error {
	moved, err := x.copyFiles(from, to, true)
	if err != nil {
		return err
	}
	from, _ = abs(from)
	if _, in := x.mountOf(from); !in {
		for old, nu := range moved {
			x.held[nu] = x.held[old]
			delete(x.held, old)
		}
	}
	return nil
}

// Copy copies a file or a directory with everything in it: each copy is a file written, so a
// copy outside every mount is indexed under its hash (embedded only if that content never was),
// and one inside a mount is staged.
func (x *Index) Copy(from, to string) error {
	made, err := x.copyFiles(from, to, false)
	if err != nil {
		return err
	}
	to, _ = abs(to)
	if _, in := x.mountOf(to); !in {
		for _, nu := range sortedValues(made) {
			x.hold(nu, x.files[nu])
		}
	}
	return nil
}

func sortedValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// copyFiles copies (or moves) the files at and below from to to, answering old path → new path.
func (x *Index) copyFiles(from, to string, move bool) (map[string]string, error) {
	from, err := abs(from)
	if err != nil {
		return nil, err
	}
	if to, err = abs(to); err != nil {
		return nil, err
	}
	if move {
		if err := x.movable(from); err != nil {
			return nil, err
		}
	} else if !x.exists(from) {
		return nil, refuse(fsaccess.NoSuchFile, from, "%s is not there", from)
	}
	if err := x.target(from, to); err != nil {
		return nil, err
	}
	if move {
		if a, b := mountName(x.mountOf(from)), mountName(x.mountOf(to)); a != b {
			return nil, refuse(0, from, "a move from %s to %s is between %s and %s: refused", from, to, a, b)
		}
	}
	out := map[string]string{}
	for _, f := range below(x.files, from) {
		out[f] = to + strings.TrimPrefix(f, from)
	}
	for old, nu := range out {
		x.files[nu] = x.files[old]
		if move {
			delete(x.files, old)
		}
	}
	return out, nil
}

func mountName(m string, in bool) string {
	if !in {
		return "the tree outside every mount"
	}
	return "the mount " + m
}

// Mount mounts a repository at p, at its default branch (files: relative path → content), and
// indexes the branch: its files in path order, each content embedded unless some file's already
// was.
func (x *Index) Mount(p string, files map[string]string) error {
	p, err := abs(p)
	if err != nil {
		return err
	}
	if p == "/" || x.exists(p) {
		return fail("%s is already there: a mount is made where nothing is", p)
	}
	if f, ok := x.fileAbove(p); ok {
		return fail("%s is below %s, a file", p, f)
	}
	if m, in := x.mountOf(p); in {
		return fail("%s is inside the mount %s", p, m)
	}
	branch := map[string]string{}
	for rel, c := range files {
		f, err := inMount(p, rel)
		if err != nil {
			return err
		}
		branch[f] = c
	}
	for f := range branch {
		for _, a := range fsaccess.Ancestors(f) {
			if _, ok := branch[a]; ok {
				return fail("%s is below %s, a file of the branch", f, a)
			}
		}
	}
	x.mounts[p] = branch
	for _, f := range below(branch, p) {
		x.files[f] = branch[f]
		x.hold(f, branch[f])
	}
	return nil
}

// inMount is a repository's relative path as a path of the tree, checked: relative, and clean.
func inMount(m, rel string) (string, error) {
	if rel == "" || strings.HasPrefix(rel, "/") || fsaccess.Resolve("/", rel) != "/"+rel {
		return "", fail("%q is not a file's path in the repository: relative, no empty name, no . or ..", rel)
	}
	return fsaccess.Join(m, rel), nil
}

// Commit is this session's commit of its staged changes in the mount holding p (only those
// under paths, when given) as a new commit on the mount's branch: the files it changes are
// indexed again in path order, a removed one leaving the index.
func (x *Index) Commit(p string, paths []string) error {
	p, err := abs(p)
	if err != nil {
		return err
	}
	m, in := x.mountOf(p)
	if !in {
		return refuse(fsaccess.NothingToCommit, p, "%s is not in a repository: nothing to commit", p)
	}
	changed := x.staged(m)
	if paths != nil {
		var only []string
		for _, q := range paths {
			q, err := abs(q)
			if err != nil {
				return err
			}
			n := 0
			for _, f := range changed {
				if fsaccess.Within(q, f) {
					only = append(only, f)
					n++
				}
			}
			if n == 0 {
				return refuse(0, q, "%s is not a staged change of the mount %s", q, m)
			}
		}
		changed = dedupe(only)
	}
	branch := x.mounts[m]
	for _, f := range changed {
		if c, ok := x.files[f]; ok {
			branch[f] = c
			x.hold(f, c)
		} else {
			delete(branch, f)
			delete(x.held, f)
		}
	}
	return nil
}

func dedupe(ps []string) []string {
	sort.Strings(ps)
	out := ps[:0]
	for i, p := range ps {
		if i == 0 || p != ps[i-1] {
			out = append(out, p)
		}
	}
	return out
}

// staged is every file path where the mount's working copy differs from its branch, in order.
func (x *Index) staged(m string) []string {
	branch := x.mounts[m]
	var out []string
	for _, f := range below(x.files, m) {
		if c, ok := branch[f]; !ok || c != x.files[f] {
			out = append(out, f)
		}
	}
	for f := range branch {
		if _, ok := x.files[f]; !ok {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// ForgeCommit is a new commit made on the forge, on the branch of the mount holding p, by
// someone else (files: relative path → new content, nil removing the file): the working copy and
// the branch take it, and the files it changes are indexed again in path order. A file this
// session has staged a change to cannot take it (the session's commit would be refused first).
func (x *Index) ForgeCommit(p string, files map[string]*string) error {
	p, err := abs(p)
	if err != nil {
		return err
	}
	m, in := x.mountOf(p)
	if !in {
		return fail("%s is not in a repository", p)
	}
	branch := x.mounts[m]
	staged := map[string]bool{}
	for _, f := range x.staged(m) {
		staged[f] = true
	}
	var order []string
	next := map[string]*string{}
	for rel, c := range files {
		f, err := inMount(m, rel)
		if err != nil {
			return err
		}
		if staged[f] {
			return fail("%s has a change this session staged: the commit from the forge cannot take it", f)
		}
		if c != nil {
			if err := x.newFile(f); err != nil {
				return err
			}
		} else if _, ok := branch[f]; !ok {
			return fail("%s is not a file of the branch: the commit cannot remove it", f)
		}
		order = append(order, f)
		next[f] = c
	}
	sort.Strings(order)
	for _, f := range order {
		for _, a := range fsaccess.Ancestors(f) {
			if c, ok := next[a]; ok && c != nil {
				return fail("%s is below %s, a file the commit makes", f, a)
			}
		}
	}
	for _, f := range order {
		if c := next[f]; c != nil {
			branch[f] = *c
			x.files[f] = *c
			x.hold(f, *c)
		} else {
			delete(branch, f)
			delete(x.files, f)
			delete(x.held, f)
		}
	}
	return nil
}
