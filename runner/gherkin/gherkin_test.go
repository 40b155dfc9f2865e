package gherkin

import (
	"testing"

	"github.com/LLeMbas/lembas-check/runner"
)

// Every embedded scenario passes against the builtin reference.
func TestFeaturesPassAgainstBuiltin(t *testing.T) {
	TestTarget(t, runner.Builtin{}, nil)
}
