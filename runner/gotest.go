package runner

import (
	"context"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

// TestTarget runs every embedded case against a target inside `go test`, one subtest per case
// named by its id (so `go test -run 'TestX/jobs/'` runs one area). A case of an area the target
// does not answer is skipped; one listed in expect as a known failure may fail.
func TestTarget(t *testing.T, target Target, expect *Expectations) {
	t.Helper()
	TestItems(t, target, expect, CaseItems(conformance.Embedded()), Result.Failure)
}

// TestItems runs work items (cases, scenarios) against a target inside `go test`, one subtest
// per item named by its case's id; failure writes a failed one's result for the log. The target
// is started here and closed when the test ends.
func TestItems(t *testing.T, target Target, expect *Expectations, items []Item, failure func(Result) string) {
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
			r := runOne(ctx, target, it, answers, expect)
			switch r.Verdict {
			case Pass:
			case Skip:
				t.Skip(r.Message)
			case XFail:
				t.Logf("expected failure: %s", r.Expected)
			default:
				t.Error(failure(r))
			}
		})
	}
}
