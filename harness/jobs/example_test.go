package jobs_test

import (
	"fmt"

	"github.com/LLeMbas/lembas-check/harness/jobs"
)

// The note a session is given when a background command ends, in the spec's words.
func ExampleNote() {
	exit := 0
	note, err := jobs.Note(jobs.Record{Kind: jobs.KindCommand, ID: "job-1", Command: "make test", Exit: &exit, Seconds: 65})
	if err != nil {
		panic(err)
	}
	fmt.Println(note)
	// Output:
	// [A background job you started has finished:]
	// job-1 (make test) exited with 0 after 1m 05s. It printed nothing you had not read.
}
