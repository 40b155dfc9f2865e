package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/runner"
)

// SmokeStatus is how a smoke check of an adapter ended: failed when a step is FAIL, else ok.
func SmokeStatus(checks []runner.SmokeCheck) format.Status {
	for _, c := range checks {
		if c.Status == runner.SmokeFail {
			return format.Failed
		}
	}
	return format.OK
}

// WriteSmoke writes a smoke check: a line per step (its status, the step, what was found, the
// adapter's stderr under a failure), then the summary line for the adapter command.
func WriteSmoke(w io.Writer, command string, checks []runner.SmokeCheck) error {
	failed := 0
	for _, c := range checks {
		detail := strings.ReplaceAll(c.Detail, "\n", "\n"+strings.Repeat(" ", 29))
		fmt.Fprintf(w, "%-5s %-22s %s\n", c.Status, c.Step, detail)
		if c.Stderr != "" {
			fmt.Fprintf(w, "%28s stderr (tail):\n%s", "", table.Indent(c.Stderr, strings.Repeat(" ", 33)))
		}
		if c.Status == runner.SmokeFail {
			failed++
		}
	}
	st := SmokeStatus(checks)
	var err error
	if st == format.OK {
		_, err = fmt.Fprintf(w,
			"%s\t%s speaks the adapter protocol; `lembas-check run --impl …` runs the suite through it\n", st.Word(),
			command)
	} else {
		_, err = fmt.Fprintf(w, "%s\t%s: %d problem(s), each marked FAIL above\n", st.Word(), command, failed)
	}
	return err
}
