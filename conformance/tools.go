package conformance

import (
	"github.com/LLeMbas/lembas-check/harness/prefix"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Tools is cases/tools.json: each tool as the model is offered it, byte for byte (tools/*.json).
var Tools = Define("tools", "lembas-check",
	"the tools as the model is offered them: each one's name, description and parameters as tools/*.json "+
		"writes them (context.md §10: the tool list is part of every request's prefix)",
	answerTools).WithSteps(steps.Tools)

type toolsCase struct {
	About string   `json:"about,omitempty"`
	Tools []string `json:"tools"`
}

func (c toolsCase) Validate() error {
	if len(c.Tools) == 0 {
		return Fieldf("tools", "missing: the tools the case looks at, each a vendored tools/<name>.json")
	}
	seen := map[string]bool{}
	for i, name := range c.Tools {
		if t, ok := spec.Tools()[name]; !ok || !t.Whole {
			return Fieldf("tools", "[%d] %q: the vendored spec has no tools/%s.json", i, name, name)
		}
		if seen[name] {
			return Fieldf("tools", "[%d] %q is listed twice", i, name)
		}
		seen[name] = true
	}
	return nil
}

func answerTools(c toolsCase) ([]prefix.Definition, error) { return prefix.Definitions(c.Tools) }
