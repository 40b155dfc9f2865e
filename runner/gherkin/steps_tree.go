package gherkin

import (
	"fmt"
	"strings"
)

// Steps shared by the areas that describe a tree and its grants (fs_access, instructions): a
// table of paths, and a table of path → level.

// pathRows reads a one-column table of paths.
func pathRows(a *args) ([]string, error) {
	rows, err := a.rows(1)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, r := range rows {
		out = append(out, strings.TrimSpace(r[0]))
	}
	return out, nil
}

// levelRows reads a two-column table of path | level into an object; a path twice is an error.
func levelRows(a *args) (map[string]any, error) {
	rows, err := a.rows(2)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, r := range rows {
		p, l := strings.TrimSpace(r[0]), strings.TrimSpace(r[1])
		if _, dup := out[p]; dup {
			return nil, fmt.Errorf("%s is in the table twice", p)
		}
		out[p] = l
	}
	return out, nil
}

// instructions: the instruction files a session starts with. Givens lay out the files, the
// boundary, the start directory and the grants; Thens list what is loaded, in order.

type instructionsBuilder struct {
	files    []string
	boundary *string
	start    *string
	grants   map[string]any // nil: absent (everything readable)
}

func (b *instructionsBuilder) Case() (map[string]any, error) {
	switch {
	case b.files == nil:
		return nil, fmt.Errorf("no files: say which exist with `Given the files:` (or `Given no files`)")
	case b.boundary == nil:
		return nil, fmt.Errorf("no boundary: say it with `Given the boundary is \"/…\"`")
	case b.start == nil:
		return nil, fmt.Errorf("no start directory: say it with `Given the session starts in \"/…\"`")
	}
	c := map[string]any{"files": b.files, "boundary": *b.boundary, "start": *b.start}
	if b.grants != nil {
		c["grants"] = b.grants
	}
	return c, nil
}

func init() {
	type B = instructionsBuilder
	register("instructions", func() builder { return &B{} },
		step(given, "the files:", tableArg, "the files that exist, one path a row (a trailing / makes a directory)",
			func(b *B, a *args) (err error) { b.files, err = pathRows(a); return err }, "path"),
		step(given, "no files", noArg, "no file exists",
			func(b *B, a *args) error { b.files = []string{}; return nil }),
		step(given, "the boundary is {string:dir}", noArg, "what the session may see at all",
			func(b *B, a *args) error { s := a.str(0); b.boundary = &s; return nil }),
		step(given, "the session starts in {string:dir}", noArg, "the start directory",
			func(b *B, a *args) error { s := a.str(0); b.start = &s; return nil }),
		step(given, "the grants:", tableArg, "the session's grants (without this step everything is readable)",
			func(b *B, a *args) (err error) { b.grants, err = levelRows(a); return err }, "path", "level"),
		step(given, "nothing is granted", noArg, "grants given and empty: nothing is readable",
			func(b *B, a *args) error { b.grants = map[string]any{}; return nil }),
		step(when, "the session starts", noArg, "marks the end of the setup (optional: the case is sent at the first Then)",
			func(b *B, a *args) error { return nil }),
		step(then, "the instruction files are, in order:", tableArg, "the files loaded, outermost first: the whole answer",
			func(b *B, a *args) error {
				ps, err := pathRows(a)
				if err != nil {
					return err
				}
				return a.expect(nil, ps)
			}, "path"),
		step(then, "the only instruction file is {string:path}", noArg, "exactly one file is loaded",
			func(b *B, a *args) error { return a.expect(nil, []string{a.str(0)}) }),
		step(then, "no instruction file is loaded", noArg, "the answer is []",
			func(b *B, a *args) error { return a.expect(nil, []string{}) }),
	)
}

// fs_access: one operation on a session's view of a tree. Givens lay out the tree, the mounts,
// the grants, the floor and the start directory; one When is the operation; Thens say the answer.

type fsAccessBuilder struct {
	fields map[string]any
}

func (b *fsAccessBuilder) Case() (map[string]any, error) {
	if _, ok := b.fields["tree"]; !ok {
		return nil, fmt.Errorf("no tree: lay it out with `Given the tree:` (or `Given an empty tree`)")
	}
	if _, ok := b.fields["op"]; !ok {
		return nil, fmt.Errorf("no operation: a When says it, e.g. `When the session reads \"/a.md\"`")
	}
	return b.fields, nil
}

func (b *fsAccessBuilder) op(op, p string) error {
	if prev, ok := b.fields["op"]; ok {
		return fmt.Errorf("this scenario already does %s: a case is one operation", prev)
	}
	b.fields["op"], b.fields["path"] = op, p
	return nil
}

// fsOps are the operations a When may name, with the words it names them by.
var fsOps = []struct{ op, words string }{
	{"level", "asks for the level of"},
	{"list", "lists"},
	{"read", "reads"},
	{"write", "writes"},
	{"mkdir", "makes the directory"},
	{"rm", "removes"},
	{"commit", "commits"},
}

func init() {
	type B = fsAccessBuilder
	steps := viewSteps(func(b *B) map[string]any { return b.fields })
	steps = append(steps,
		step(when, "the session does {word:op} on {string:path}", noArg, "any operation by its name (level, list, read, write, mkdir, rm, commit), for outlines",
			func(b *B, a *args) error { return b.op(a.str(0), a.str(1)) }))
	for _, o := range fsOps {
		steps = append(steps, step(when, "the session "+o.words+" {string:path}", noArg, "the "+o.op+" operation",
			func(b *B, a *args) error { return b.op(o.op, a.str(0)) }))
	}
	steps = append(steps,
		step(then, "it succeeds", noArg, `the answer is {"ok": true}`,
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"ok": true}) }),
		step(then, "it fails with {text:error}", noArg, `the answer is {"error": …}, the error's exact text`,
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"error": a.str(0)}) }),
		step(then, "the listing is:", tableArg, `the answer is {"entries": […]}, one entry a row, in order`,
			func(b *B, a *args) error {
				rows, err := a.rows(1)
				entries := []string{}
				for _, r := range rows {
					entries = append(entries, r[0])
				}
				if err != nil {
					return err
				}
				return a.expect(nil, map[string]any{"entries": entries})
			}, "entry"),
		step(then, "the listing is empty", noArg, `the answer is {"entries": []}`,
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"entries": []string{}}) }),
		step(then, "the level is {string:level} and it is a passage", noArg, `the answer is {"level": …, "passage": true}`,
			func(b *B, a *args) error {
				return a.expect(nil, map[string]any{"level": a.str(0), "passage": true})
			}),
		step(then, "the level is {string:level} and it is not a passage", noArg, `the answer is {"level": …, "passage": false}`,
			func(b *B, a *args) error {
				return a.expect(nil, map[string]any{"level": a.str(0), "passage": false})
			}),
	)
	register("fs_access", func() builder { return &B{fields: map[string]any{}} }, steps...)
}

// viewSteps are the Givens of a session's view of a tree (fs_access's fields: tree, mounts,
// grants, floor, cwd), for any area whose case has them.
func viewSteps[B any](fields func(*B) map[string]any) []stepDef {
	return []stepDef{
		step(given, "the tree:", tableArg, "the nodes, one path a row; a directory ends with /, parents are implied",
			func(b *B, a *args) error {
				t, err := pathRows(a)
				fields(b)["tree"] = t
				return err
			}, "path"),
		step(given, "an empty tree", noArg, "no node but the root",
			func(b *B, a *args) error { fields(b)["tree"] = []string{}; return nil }),
		step(given, "the mounts {strings:dirs}", noArg, "directories that are forge repositories",
			func(b *B, a *args) error { fields(b)["mounts"] = a.list(0); return nil }),
		step(given, "the grants:", tableArg, "the session's grants",
			func(b *B, a *args) error {
				g, err := levelRows(a)
				fields(b)["grants"] = g
				return err
			}, "path", "level"),
		step(given, "the floor:", tableArg, "the most each path may be, whatever the grants",
			func(b *B, a *args) error {
				g, err := levelRows(a)
				fields(b)["floor"] = g
				return err
			}, "path", "level"),
		step(given, "the session starts in {string:dir}", noArg, "the start directory relative paths resolve against",
			func(b *B, a *args) error { fields(b)["cwd"] = a.str(0); return nil }),
	}
}
