package steps

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// One of lembas-check's own areas (filesystem.md, Indexing, by tokens).

// index: what search's index embeds as a tree changes. Each Given or When is one step on the
// tree, in order; Thens say what was embedded (by the contents, which the answer names by their
// SHA-256) and what the index holds per path.

type indexBuilder struct {
	steps []map[string]any
}

func (b *indexBuilder) Case() (map[string]any, error) {
	if len(b.steps) == 0 {
		return nil,
			fmt.Errorf(
				"no steps: write a file with `Given the file \"/Notes/a.md\" holds \"…\"`, or mount a repository",
			)
	}
	return map[string]any{"steps": b.steps}, nil
}

func (b *indexBuilder) add(s map[string]any) error { b.steps = append(b.steps, s); return nil }

// contentHash is how the answer names a content: "a file: bytes, with a content hash (SHA-256)"
// (filesystem.md, Node kinds). A Then says the content; the answer holds its key.
func contentHash(content string) string {
	h := sha256.Sum256([]byte(content))
	return hex.EncodeToString(h[:])
}

// removed is the content cell of a forge commit's file it removes.
const removed = "(removed)"

// branchFiles reads a table of path | content: a repository's files by relative path.
func branchFiles(a *args, removals bool) (map[string]any, error) {
	rows, err := a.rows(2)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for i, r := range rows {
		p := strings.TrimSpace(r[0])
		if _, dup := out[p]; dup {
			return nil, fmt.Errorf("row %d: %s is already a row", i+1, p)
		}
		switch {
		case r[1] == removed && removals:
			out[p] = nil
		case r[1] == removed:
			return nil, fmt.Errorf("row %d: a mounted branch's file has content; %s is for a commit that removes a "+
				"file", i+1, removed)
		default:
			out[p] = r[1]
		}
	}
	return out, nil
}

// Index is the vocabulary of area index: search's index as a tree changes.
var Index = &Vocabulary{newBuilder: func() builder { return &indexBuilder{} }, define: indexSteps}

func indexSteps() []stepDef {
	type B = indexBuilder
	add := (*B).add
	write := addOp(add, "write", "path", "content")
	mount := func(b *B, a *args) error {
		files, err := branchFiles(a, false)
		if err != nil {
			return err
		}
		return b.add(map[string]any{"op": "mount", "path": a.str(0), "files": files})
	}
	return []stepDef{
		step(Given, "the file {string:path} holds {text:content}", noArg,
			"a file written (op write): outside every mount it is indexed now",
			write),
		step(Given, "a repository mounted at {string:path} with:", tableArg,
			"a repository mounted at its default branch (op mount): its files by relative path",
			mount, "path", "content"),
		step(When, "the file {string:path} is written with {text:content}", noArg,
			"a file written (op write); inside a mount, staged in the working copy",
			write),
		step(When, "a repository is mounted at {string:path} with:", tableArg,
			"a repository mounted at its default branch (op mount): its files by relative path",
			mount, "path", "content"),
		step(When, "{string:from} is moved to {string:to}", noArg, "a file or a directory moved (op mv)",
			addOp(add, "mv", "from", "to")),
		step(When, "{string:from} is copied to {string:to}", noArg, "a file or a directory copied (op copy)",
			addOp(add, "copy", "from", "to")),
		step(When, "{string:path} is removed", noArg, "a file or a directory removed (op rm)",
			addOp(add, "rm", "path")),
		step(When, "the session commits {string:path}", noArg,
			"the session commits every staged change of the mount holding the path (op commit)",
			addOp(add, "commit", "path")),
		step(When, "the session commits only {strings:paths} in {string:path}", noArg,
			"the session commits the staged changes under these paths only (op commit with paths)",
			addOp(add, "commit", "paths", "path")),
		step(When, "a commit on the forge changes {string:path}:", tableArg,
			"someone else's commit on the mount's branch (op forge_commit): files by relative path, the content "+
				"(removed) removing one",
			func(b *B, a *args) error {
				files, err := branchFiles(a, true)
				if err != nil {
					return err
				}
				return b.add(map[string]any{"op": "forge_commit", "path": a.str(0), "files": files})
			}, "path", "content"),

		thenPart[B]("nothing is embedded", noArg, "the answer's embedded is []", path{"embedded"}, is([]any{})),
		thenPart[B]("the embedded contents are, in order:", tableArg,
			"every content embedded, in order, one a row (the answer names each by its SHA-256)",
			path{"embedded"}, tableWant(1, func(r []string) string { return contentHash(r[0]) }), "content"),
		thenPart[B]("{int:n} contents are embedded", noArg, "how many contents were embedded", path{"embedded", length},
			valWant(0)),
		step(Then, "the index holds:", tableArg,
			"everything the index holds: each path with its content (the answer names it by its SHA-256)",
			func(b *B, a *args) error {
				rows, err := a.rows(2)
				if err != nil {
					return err
				}
				held := map[string]string{}
				for _, r := range rows {
					held[strings.TrimSpace(r[0])] = contentHash(r[1])
				}
				return a.expect(path{"index"}, held)
			}, "path", "content"),
		step(Then, "the index holds {string:path} as {text:content}", noArg,
			"one path the index holds, and its content",
			func(b *B, a *args) error { return a.expect(path{"index", a.str(0)}, contentHash(a.str(1))) }),
		step(Then, "the index holds nothing", noArg, "the answer's index is {}",
			func(b *B, a *args) error { return a.expect(path{"index"}, map[string]any{}) }),
		step(Then, "step {int:n} is refused with {text:error}", noArg,
			"the spec refuses the n-th step (counting from 1), with filesystem.md's error text; the later steps are "+
				"not taken",
			func(b *B, a *args) error { return b.refused(a, map[string]any{"error": a.str(1)}) }),
		step(Then, "step {int:n} is refused", noArg,
			"the spec refuses the n-th step (counting from 1) and fixes no text for it",
			func(b *B, a *args) error { return b.refused(a, map[string]any{}) }),
	}
}

// refused expects the answer {"refused": {"step": n-1, …}}: the n-th step, counting from 1.
func (b *indexBuilder) refused(a *args, r map[string]any) error {
	n := a.num(0)
	if n < 1 || n > len(b.steps) {
		return fmt.Errorf("step %d: the scenario has steps 1 to %d", n, len(b.steps))
	}
	r["step"] = n - 1
	return a.expect(path{"refused"}, r)
}
