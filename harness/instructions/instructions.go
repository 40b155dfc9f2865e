// Package instructions is the reference of area instructions: the instruction files a session is
// given (harness spec filesystem.md, *Instruction files, stacked*; conformance/instructions.json):
// the chain from the boundary down to the start directory, and the "nearby" files handed later,
// both read through a session's view (harness/fsaccess) so a file the session cannot read is never
// loaded. Pure: no clock, no I/O.
package instructions

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

var (
	namesOnce sync.Once
	names     []string
)

// Names are the instruction file names in order of preference within one directory, from
// harness/spec/extra/instructions.json (copied from filesystem.md's sentence).
func Names() []string { return append([]string(nil), nameList()...) }

func nameList() []string {
	namesOnce.Do(func() {
		names = strings.Split(spec.Text("instructions.names"), "\n")
	})
	return names
}

// StartDir is where the walk ends: start (resolved against the boundary), or the boundary when
// start is outside it ("A start directory outside the boundary is read as the boundary").
func StartDir(boundary, start string) string {
	boundary = fsaccess.Resolve("/", boundary)
	start = fsaccess.Resolve(boundary, start)
	if !fsaccess.Within(boundary, start) {
		return boundary
	}
	return start
}

// Walk is the directories from the boundary down to the start directory, outermost first.
func Walk(boundary, start string) []string {
	boundary = fsaccess.Resolve("/", boundary)
	s := StartDir(boundary, start)
	return append(above(boundary, s), s)
}

// above is the directories from top down to p's parent, outermost first: p's ancestors
// (fsaccess.Ancestors) as far as top, for a resolved p within resolved top. None when p is top,
// which is then no ancestor of p (Index -1 keeps none).
func above(top, p string) []string {
	up := fsaccess.Ancestors(p)
	up = up[:slices.Index(up, top)+1]
	slices.Reverse(up)
	return up
}

// In is a directory's instruction file: the first of Names that is a file the session can read.
// A file at none (in a passage, or taken away) does not count, and neither does a directory of
// that name; the next name may still.
func In(v *fsaccess.View, dir string) (string, bool) {
	for _, name := range nameList() {
		p := fsaccess.Join(fsaccess.Resolve("/", dir), name)
		if v.ReadableFile(p) {
			return p, true
		}
	}
	return "", false
}

// Chain is the instruction files a session starts with, outermost first: one per directory
// from the boundary down to the start directory, where that directory has one. Never nil.
func Chain(v *fsaccess.View, boundary, start string) []string {
	out := []string{}
	for _, d := range Walk(boundary, start) {
		if f, ok := In(v, d); ok {
			out = append(out, f)
		}
	}
	return out
}

// Rel is an instruction file's path relative to the boundary, as the model is given it.
func Rel(boundary, p string) string {
	boundary, p = fsaccess.Resolve("/", boundary), fsaccess.Resolve("/", p)
	if boundary == "/" {
		return p[1:]
	}
	return strings.TrimPrefix(p, boundary+"/")
}

// Nearby is what reading the file read hands the model besides the file (the CLI's "nearby
// instructions"): the instruction file of each directory strictly below the start directory
// and above read, outermost first, that has not been handed before. handed is the session's
// set so far (the chain's files belong in it); it is not changed: next is a new set with the
// handed files added, and read itself when it is one of those directories' instruction file,
// since the model has it then. A read that reads nothing (not a file the session can see, or
// not below the start directory) hands nothing.
func Nearby(v *fsaccess.View, boundary, start, read string, handed map[string]bool) (give []string,
	next map[string]bool) {
	start = StartDir(boundary, start)
	read = fsaccess.Resolve(start, read)
	next = make(map[string]bool, len(handed)+2)
	for f, ok := range handed {
		if ok {
			next[f] = true
		}
	}
	if k, err := v.Stat(read); err != nil || k != fsaccess.File || read == start || !fsaccess.Within(start, read) {
		return nil, next
	}
	// start is a strict ancestor of read: the directories strictly between them.
	for _, d := range above(start, read)[1:] {
		f, ok := In(v, d)
		if !ok || next[f] {
			continue
		}
		next[f] = true
		if f != read {
			give = append(give, f)
		}
	}
	return give, next
}

// Given is every instruction file a session hands the model, in the order it hands them: the
// chain at the start, then, for each file read in turn, what that read hands (Nearby), so a file
// is given once per session however often something under it is read.
func Given(v *fsaccess.View, boundary, start string, reads []string) []string {
	out := Chain(v, boundary, start)
	handed := make(map[string]bool, len(out))
	for _, f := range out {
		handed[f] = true
	}
	for _, r := range reads {
		var give []string
		give, handed = Nearby(v, boundary, start, r, handed)
		out = append(out, give...)
	}
	return out
}

// RelOrAbs is the path a file is given to the model under: relative to the boundary inside it
// (Rel), and absolute outside it, where no relative path names it (a device's global file).
func RelOrAbs(boundary, p string) string {
	boundary, p = fsaccess.Resolve("/", boundary), fsaccess.Resolve("/", p)
	if p == boundary || !fsaccess.Within(boundary, p) {
		return p
	}
	return Rel(boundary, p)
}

// Linked is the files that count on a device: files, and each link (path → its target) whose
// target really is one of files inside the project (the boundary). A link to elsewhere is not
// read ("a file counts only when it really is a file inside the project").
func Linked(files []string, project string, links map[string]string) []string {
	project = fsaccess.Resolve("/", project)
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[fsaccess.Resolve("/", f)] = true
	}
	out := append([]string(nil), files...)
	for _, l := range slices.Sorted(maps.Keys(links)) {
		t := fsaccess.Resolve(fsaccess.Parent(fsaccess.Resolve("/", l)), links[l])
		if have[t] && fsaccess.Within(project, t) {
			out = append(out, l)
		}
	}
	return out
}
