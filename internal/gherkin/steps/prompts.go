package steps

import "fmt"

// prompts: the text the model is given of one of the spec's prompt files. Givens name the file,
// a built-in agent for the subagent block, and the variables; Thens say the text, whole or by line.

type promptsBuilder struct {
	prompt string
	agent  *string
	vars   map[string]any
}

func (b *promptsBuilder) Case() (map[string]any, error) {
	if b.prompt == "" {
		return nil, fmt.Errorf("no prompt: say it with `Given the prompt \"agents/explore.md\"` or " +
			"`Given the subagent block of the agent \"explore\"`")
	}
	c := map[string]any{"prompt": b.prompt, "vars": b.vars}
	if b.agent != nil {
		c["agent"] = *b.agent
	}
	return c, nil
}

// Prompts is the vocabulary of area prompts: the text the model is given of a prompt file.
var Prompts = &Vocabulary{newBuilder: func() builder { return &promptsBuilder{vars: map[string]any{}} },
	define: promptsSteps}

func promptsSteps() []stepDef {
	type B = promptsBuilder
	return []stepDef{
		step(Given, "the prompt {string:file}", noArg, "the prompt file, its path below prompts/",
			func(b *B, a *args) error { b.prompt = a.str(0); return nil }),
		step(Given, "the subagent block of the agent {string:agent}", noArg,
			"blocks/subagent.md for a subagent started as a built-in agent: {{name}} and {{instructions}} are "+
				"the agent's (report and read_only are \"\" unless a step sets them)",
			func(b *B, a *args) error {
				s := a.str(0)
				b.prompt, b.agent = "blocks/subagent.md", &s
				for _, v := range []string{"report", "read_only"} {
					if _, ok := b.vars[v]; !ok {
						b.vars[v] = ""
					}
				}
				return nil
			}),
		step(Given, "the variable {string:variable} is {text:value}", noArg, "one variable's value",
			func(b *B, a *args) error { b.vars[a.str(0)] = a.str(1); return nil }),
		step(Given, "the variables:", tableArg, "the variables and their values, one a row",
			func(b *B, a *args) error {
				rows, err := a.rows(2)
				for _, r := range rows {
					b.vars[r[0]] = r[1]
				}
				return err
			}, "variable", "value"),
		thenPart[B]("the model is given:", docArg, "the whole text, the docstring as it is", path{"text"}, docWant),
		step(Then, "line {int:n} of the text is {text:line}", noArg, "one line of the text, counting from 1",
			func(b *B, a *args) error {
				n, err := a.counted(0, "lines")
				if err != nil {
					return err
				}
				return a.expect(path{"text", lineView(n + 1)}, a.str(1))
			}),
	}
}
