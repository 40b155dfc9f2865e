package steps

import (
	"fmt"
	"strings"
)

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

// FSAccess is the vocabulary of area fs_access: one operation on a session's view of a tree.
var FSAccess = &Vocabulary{newBuilder: func() builder { return &fsAccessBuilder{fields: map[string]any{}} },
	define: fsAccessSteps}

func fsAccessSteps() []stepDef {
	type B = fsAccessBuilder
	steps := viewSteps(func(b *B) map[string]any { return b.fields })
	steps = append(steps,
		step(Given, "the tree is a device's", noArg,
			"a device's tree: its listings leave out build directories and what each .gitignore says",
			func(b *B, a *args) error { b.fields["device"] = true; return nil }),
		step(Given, "the .gitignore {string:path} says:", docArg,
			"a .gitignore file of the tree (also a path of it) and its lines, one a docstring line",
			func(b *B, a *args) error {
				t, err := a.text()
				g, _ := b.fields["gitignore"].(map[string]any)
				if g == nil {
					g = map[string]any{}
					b.fields["gitignore"] = g
				}
				g[a.str(0)] = strings.Split(t, "\n")
				return err
			}),
		step(When, "the session does {word:op} on {string:path}", noArg,
			"any operation by its name (level, list, read, write, mkdir, rm, commit), for outlines",
			func(b *B, a *args) error { return b.op(a.str(0), a.str(1)) }))
	for _, o := range fsOps {
		steps = append(steps, step(When, "the session "+o.words+" {string:path}", noArg, "the "+o.op+" operation",
			func(b *B, a *args) error { return b.op(o.op, a.str(0)) }))
	}
	steps = append(steps, step(When, "the session lists {string:path} as text to depth {int:depth}", noArg,
		"the list_text operation: the listing the model reads, depth levels down",
		func(b *B, a *args) error { b.fields["depth"] = a.num(1); return b.op("list_text", a.str(0)) }))
	level := func(passage bool) want {
		return func(a *args) (any, error) { return map[string]any{"level": a.str(0), "passage": passage}, nil }
	}
	steps = append(steps,
		thenPart[B]("it succeeds", noArg, `the answer is {"ok": true}`, nil, is(map[string]any{"ok": true})),
		failsWith[B](),
		thenPart[B]("the listing is:", tableArg, `the answer is {"entries": […]}, one entry a row, in order`,
			nil, field("entries", tableWant(1, cell)), "entry"),
		thenPart[B]("the text is:", docArg, `the answer is {"text": …}: the docstring as it is (no final line break)`,
			nil, field("text", docWant)),
		thenPart[B]("the listing is empty", noArg, `the answer is {"entries": []}`, nil,
			is(map[string]any{"entries": []string{}})),
		thenPart[B]("the level is {string:level} and it is a passage", noArg,
			`the answer is {"level": …, "passage": true}`, nil, level(true)),
		thenPart[B]("the level is {string:level} and it is not a passage", noArg,
			`the answer is {"level": …, "passage": false}`, nil, level(false)),
	)
	return steps
}
