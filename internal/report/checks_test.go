package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/coverage"
	"github.com/LLeMbas/lembas-check/runner"
)

// run --format markdown names, for a failing case, the spec statement it checks (from the
// coverage map), and says the coverage figure (issue 28).
func TestMarkdownNamesTheStatementAFailureChecks(t *testing.T) {
	var e coverage.Entry
	for _, s := range coverage.Load().Statements {
		if len(s.Cases) > 0 {
			e = s
			break
		}
	}
	id := e.Cases[0]
	area := id[:strings.IndexByte(id, '/')]
	rep := &runner.Report{Results: []runner.Result{{Case: conformance.Case{Label: conformance.Label{ID: id, Area: area}}, Verdict: runner.Fail, Diff: "-a\n+b"}}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rep); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("checks `%s:%d`", e.File, e.Line)
	if !strings.Contains(b.String(), want) {
		t.Errorf("the failure of %s does not say %q:\n%s", id, want, b.String())
	}
	if !strings.Contains(b.String(), coverage.Load().Summarize().Line()) {
		t.Errorf("no coverage figure in the summary:\n%s", b.String())
	}
}
