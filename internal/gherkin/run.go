package gherkin

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/runner"
)

// Item is the scenario as the runner's work item: its case, judged by its Thens. One that could
// not be made into a case (Err) is never sent; its verdict is error.
func (sc Scenario) Item() runner.Item {
	it := runner.Item{Case: sc.Case}
	if sc.Err != nil {
		it.Err = fmt.Errorf("the scenario cannot be run: %w", sc.Err)
		return it
	}
	file, _, _ := strings.Cut(sc.Case.File, ":")
	checks := sc.Checks
	it.Check = func(answer json.RawMessage) string { return verifyAll(file, checks, answer) }
	return it
}

// Items makes each scenario a work item, for runner.Run.
func Items(scs []Scenario) []runner.Item {
	items := make([]runner.Item, len(scs))
	for i, sc := range scs {
		items[i] = sc.Item()
	}
	return items
}

// RunScenarios hands each scenario's case to a started target (info is what its Start said) and
// checks the answer with the scenario's Thens: runner.Run on Items(scs).
func RunScenarios(ctx context.Context, t runner.Target, info runner.TargetInfo, scs []Scenario,
	opts runner.Options) []runner.Result {
	return runner.Run(ctx, t, info, Items(scs), opts).Results
}

// Failure is a failed scenario as a person reads it: where it is, its name, and each Then that
// did not hold with what differs (or the target's own fault).
func Failure(r runner.Result) string {
	var b strings.Builder
	b.WriteString(strings.ToUpper(string(r.Verdict)) + ": " + r.Case.ID + " (" + r.Case.File + ")\n")
	b.WriteString("  Scenario: " + r.Case.About + "\n")
	if r.Expected != "" {
		b.WriteString("  listed as a known failure (" + r.Expected + ") but it passes\n")
	}
	if r.Message != "" {
		b.WriteString(table.Indent(r.Message, "  "))
	}
	if r.Diff != "" {
		b.WriteString(table.Indent(r.Diff, "  "))
	}
	runner.WriteStderr(&b, "  ", r.Stderr)
	return b.String()
}
