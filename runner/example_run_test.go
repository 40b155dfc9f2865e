package runner_test

import (
	"context"
	"fmt"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/runner"
)

// A Go implementation wraps its functions as runner.Funcs and runs the embedded cases of the
// areas it answers; here the builtin reference stands in for it, one area at a time.
func ExampleRun() {
	ctx := context.Background()
	var target runner.Target = runner.Builtin{}
	info, err := target.Start(ctx)
	if err != nil {
		panic(err)
	}
	var jobs []conformance.Case
	for _, c := range conformance.Embedded() {
		if c.Area == "jobs" {
			jobs = append(jobs, c)
		}
	}
	rep := runner.Run(ctx, target, info, runner.CaseItems(jobs), runner.Options{})
	rep.Closed(target.Close())
	failed := 0
	for _, r := range rep.Results {
		if r.Verdict != runner.Pass {
			failed++
		}
	}
	fmt.Println("jobs cases failed:", failed)
	// Output: jobs cases failed: 0
}
