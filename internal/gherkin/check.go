package gherkin

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// verifyAll runs every check against an answer's JSON and writes the failures as a reader wants
// them: where the Then is, what it says, then what differs.
func verifyAll(file string, checks []steps.Check, answer json.RawMessage) string {
	v, err := conformance.Value(answer)
	if err != nil {
		return "the answer is not JSON: " + err.Error()
	}
	var b strings.Builder
	for _, c := range checks {
		if d := c.Verify(v); d != "" {
			fmt.Fprintf(&b, "%s:%d: %s\n%s", file, c.Line, c.Step, table.Indent(d, "  "))
		}
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }
