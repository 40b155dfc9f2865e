// Package runnertest runs lembas-check's suite inside a Go project's own `go test`, as httptest
// serves a handler in one: its helpers take a *testing.T, so they live apart from runner and the
// lembas-check binary does not link the testing package.
package runnertest

import (
	"context"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/gherkin"
	"github.com/LLeMbas/lembas-check/runner"
)

// TestTarget runs every embedded case against a target, one subtest per case named by its id
// (so `go test -run 'TestX/jobs/'` runs one area). A case of an area the target does not answer
// is skipped; one listed in expect as a known failure may fail.
func TestTarget(t *testing.T, target runner.Target, expect *runner.Expectations) {
	t.Helper()
	TestItems(t, target, expect, runner.CaseItems(conformance.Embedded()), runner.Result.Failure)
}

// TestFeatures runs every embedded Gherkin scenario against a target, one subtest per scenario
// named by its id (`go test -run 'TestX/context/feature:'` runs one area's).
func TestFeatures(t *testing.T, target runner.Target, expect *runner.Expectations) {
	t.Helper()
	scs, err := gherkin.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	TestItems(t, target, expect, gherkin.Items(scs), gherkin.Failure)
}

// TestItems runs work items (cases, scenarios) against a target, one subtest per item named by
// its case's id; failure writes a failed one's result for the log. The target is started here
// and closed when the test ends.
func TestItems(t *testing.T, target runner.Target, expect *runner.Expectations, items []runner.Item,
	failure func(runner.Result) string) {
	t.Helper()
	ctx := context.Background()
	info, err := target.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.Close() })
	answers := map[string]bool{}
	for _, a := range info.Areas {
		answers[a] = true
	}
	for _, it := range items {
		t.Run(it.Case.ID, func(t *testing.T) {
			r := runner.RunOne(ctx, target, it, answers, expect)
			switch r.Verdict {
			case runner.Pass:
			case runner.Skip:
				t.Skip(r.Message)
			case runner.XFail:
				t.Logf("expected failure: %s", r.Expected)
			default:
				t.Error(failure(r))
			}
		})
	}
}
