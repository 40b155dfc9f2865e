package runner_test

import (
	"encoding/json"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/jobs"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/runnertest"
)

// A Go implementation of the harness runs lembas-check's suite inside its own `go test`: it wraps
// its functions as runner.Funcs, one per area it implements, and calls runner.TestTarget. Here the
// "implementation" is harness/jobs itself, decoding the case as an outside project would.
func TestExampleGoImplementation(t *testing.T) {
	impl := runner.Funcs{
		Implementation: runner.Implementation{Name: "my harness", Language: "go", HarnessSpec: "3.1.0"},
		Areas: map[string]func([]byte) ([]byte, error){
			"jobs": func(caseJSON []byte) ([]byte, error) {
				var c struct {
					Kind, ID, Command, Unread, Agent, Description, Report, Reason, Error, Worktree, Text string
					Exit                                                                                 *int
					Seconds, Steps, Tools                                                                int
				}
				if err := json.Unmarshal(caseJSON, &c); err != nil {
					return nil, err
				}
				text, err := jobs.Note(jobs.Record{Kind: c.Kind, ID: c.ID, Command: c.Command, Exit: c.Exit, Unread: c.Unread,
					Agent: c.Agent, Description: c.Description, Report: c.Report, Steps: c.Steps, Tools: c.Tools,
					Reason: c.Reason, Error: c.Error, Worktree: c.Worktree, Seconds: c.Seconds, Text: c.Text})
				if err != nil {
					return nil, err
				}
				return json.Marshal(map[string]string{"text": text})
			},
		},
	}
	runnertest.TestTarget(t, impl, nil)
}
