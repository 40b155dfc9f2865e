package steps

import (
	"fmt"
)

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

// Instructions is the vocabulary of area instructions: the instruction files a session starts with.
var Instructions = &Vocabulary{newBuilder: func() builder { return &instructionsBuilder{} }, define: instructionsSteps}

func instructionsSteps() []stepDef {
	type B = instructionsBuilder
	return []stepDef{
		step(Given, "the files:", tableArg, "the files that exist, one path a row (a trailing / makes a directory)",
			func(b *B, a *args) (err error) { b.files, err = pathRows(a); return err }, "path"),
		step(Given, "no files", noArg, "no file exists",
			func(b *B, a *args) error { b.files = []string{}; return nil }),
		step(Given, "the boundary is {string:dir}", noArg, "what the session may see at all",
			func(b *B, a *args) error { s := a.str(0); b.boundary = &s; return nil }),
		step(Given, "the session starts in {string:dir}", noArg, "the start directory",
			func(b *B, a *args) error { s := a.str(0); b.start = &s; return nil }),
		step(Given, "the grants:", tableArg, "the session's grants (without this step everything is readable)",
			func(b *B, a *args) (err error) { b.grants, err = levelRows(a); return err }, "path", "level"),
		step(Given, "nothing is granted", noArg, "grants given and empty: nothing is readable",
			func(b *B, a *args) error { b.grants = map[string]any{}; return nil }),
		step(When, "the session starts", noArg,
			"marks the end of the setup (optional: the case is sent at the first Then)",
			func(b *B, a *args) error { return nil }),
		step(Then, "the instruction files are, in order:", tableArg,
			"the files loaded, outermost first: the whole answer",
			func(b *B, a *args) error {
				ps, err := pathRows(a)
				if err != nil {
					return err
				}
				return a.expect(nil, ps)
			}, "path"),
		step(Then, "the only instruction file is {string:path}", noArg, "exactly one file is loaded",
			func(b *B, a *args) error { return a.expect(nil, []string{a.str(0)}) }),
		step(Then, "no instruction file is loaded", noArg, "the answer is []",
			func(b *B, a *args) error { return a.expect(nil, []string{}) }),
	}
}
