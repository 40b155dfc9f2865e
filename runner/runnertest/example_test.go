package runnertest_test

import (
	"testing"

	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/runnertest"
)

// In a Go project's own test file: every embedded case of the areas the functions answer, one
// subtest each (`go test -run 'TestHarness/jobs/'` runs one area).
func ExampleTestTarget() {
	impl := runner.Funcs{
		Implementation: runner.Implementation{Name: "my harness", Language: "go", HarnessSpec: "3.1.0"},
		Areas:          map[string]func([]byte) ([]byte, error){"jobs": myJobsNote},
	}
	testHarness := func(t *testing.T) { runnertest.TestTarget(t, impl, nil) }
	_ = testHarness // func TestHarness(t *testing.T) { runnertest.TestTarget(t, impl, nil) }
}

func myJobsNote(caseJSON []byte) ([]byte, error) { return nil, nil }
