package steps

import (
	"fmt"
)

// tools: each tool as the model is offered it. Givens name the tools a session offers; Thens say
// what a tool's definition holds (its name, description, a parameter's description).

type toolsBuilder struct{ tools []string }

func (b *toolsBuilder) Case() (map[string]any, error) {
	if len(b.tools) == 0 {
		return nil,
			fmt.Errorf("no tools: say which with `Given the session offers:` or `Given the session offers \"…\"`")
	}
	return map[string]any{"tools": b.tools}, nil
}

// Tools is the vocabulary of area tools: each tool as the model is offered it.
var Tools = &Vocabulary{newBuilder: func() builder { return &toolsBuilder{} }, define: toolsSteps}

func toolsSteps() []stepDef {
	type B = toolsBuilder
	nth := func(_ *B, a *args) (int, error) { return a.counted(0, "tools") }
	return []stepDef{
		step(Given, "the session offers:", tableArg, "the tools the case looks at, one name a row, in order",
			func(b *B, a *args) error {
				names, err := mapRows(a, 1, func(r []string) string { return r[0] })
				b.tools = append(b.tools, names...)
				return err
			}, "tool"),
		step(Given, "the session offers {string:tool}", noArg, "one more tool the case looks at",
			func(b *B, a *args) error { b.tools = append(b.tools, a.str(0)); return nil }),
		step(When, "the tools are listed", noArg,
			"marks the end of the setup (optional: the case is sent at the first Then)",
			func(b *B, a *args) error { return nil }),
		thenOf[B]("tool {int:n} is {string:name}", noArg, "the n-th tool's name, counting from 1", nth,
			path{"name"}, valWant(1)),
		thenOf[B]("tool {int:n}'s description is:", docArg, "the n-th tool's description, whole", nth,
			path{"description"}, docWant),
		step(Then, "tool {int:n}'s parameter {string:param} is described as {string:text}", noArg,
			"one parameter's description, whole",
			func(b *B, a *args) error {
				i, err := a.counted(0, "tools")
				if err != nil {
					return err
				}
				return a.expect(path{i, "parameters", "properties", a.str(1), "description"}, a.str(2))
			}),
		step(Then, "tool {int:n} takes the parameters:", tableArg, "the n-th tool's required parameters, in order",
			func(b *B, a *args) error {
				i, err := a.counted(0, "tools")
				if err != nil {
					return err
				}
				names, err := mapRows(a, 1, func(r []string) any { return r[0] })
				if err != nil {
					return err
				}
				return a.expect(path{i, "parameters", "required"}, names)
			}, "parameter"),
	}
}
