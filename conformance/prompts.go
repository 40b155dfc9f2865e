package conformance

import (
	"errors"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/prompts"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Prompts is cases/prompts.json: the text the model is given of one of the spec's prompt files,
// its variables filled (harness/spec/files/prompts).
var Prompts = Define("prompts", "lembas-check",
	"the text the model is given of one of the spec's prompt files (prompts/agents/*.md, prompts/blocks/*.md), "+
		"its comment left out and its variables filled; a subagent's block with its agent's own instructions",
	answerPrompts).WithSteps(steps.Prompts)

// promptsCase names a prompt file and gives its variables; with agent (blocks/subagent.md only),
// {{name}} and {{instructions}} are the built-in agent's and vars gives the rest.
type promptsCase struct {
	About  string            `json:"about,omitempty"`
	Prompt string            `json:"prompt"`
	Agent  *string           `json:"agent,omitempty"`
	Vars   map[string]string `json:"vars"`
}

func (c promptsCase) Validate() error {
	if c.Prompt == "" {
		return Fieldf("prompt", "missing: the prompt file's path below prompts/ (%s)", joinNames())
	}
	if c.Vars == nil {
		return Fieldf("vars", "missing: the file's variables, {} for none")
	}
	if c.Agent != nil {
		if c.Prompt != prompts.SubagentBlock {
			return Fieldf("agent", "is %s's: it fills {{name}} and {{instructions}} there", prompts.SubagentBlock)
		}
		for _, v := range []string{"name", "instructions"} {
			if _, ok := c.Vars[v]; ok {
				return Fieldf("vars."+v, "is the agent's: with agent, give only report and read_only")
			}
		}
	}
	_, err := c.text()
	var fe *FieldError
	switch {
	case err == nil || errors.As(err, &fe):
		return err
	case c.Agent != nil:
		return Fieldf("agent", "%v", err)
	}
	return Fieldf("prompt", "%v", err)
}

func (c promptsCase) text() (string, error) {
	if c.Agent == nil {
		return prompts.Text(c.Prompt, c.Vars)
	}
	report, ok := c.Vars["report"]
	if !ok {
		return "", Fieldf("vars.report", "missing: the report sentence, \"\" when report is not offered")
	}
	readOnly, ok := c.Vars["read_only"]
	if !ok {
		return "", Fieldf("vars.read_only", "missing: the plan mode sentence, \"\" outside plan mode")
	}
	if len(c.Vars) != 2 {
		return "", Fieldf("vars", "with agent, only report and read_only")
	}
	return prompts.Subagent(*c.Agent, report, readOnly)
}

func joinNames() string { return strings.Join(prompts.Names(), ", ") }

// promptsAnswer is {"text": "…"}: what the model is given.
type promptsAnswer struct {
	Text *string `json:"text"`
}

func (a promptsAnswer) Validate() error {
	if a.Text == nil {
		return Fieldf("text", "missing: the prompt's text")
	}
	return nil
}

func answerPrompts(c promptsCase) (promptsAnswer, error) {
	t, err := c.text()
	return promptsAnswer{Text: &t}, err
}
