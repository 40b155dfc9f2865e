package live

import (
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/cachebench/audit"
	"github.com/LLeMbas/lembas-check/runner"
)

// evidence is what a verdict rests on, for `live -v` (runner.Result.Evidence): a pass's own
// message, which says what was compared and where a note was found. Whatever else a verdict
// says is its Message.
func evidence(v runner.Verdict, msg string) string {
	if v != runner.Pass {
		return ""
	}
	return msg
}

// pairs names the requests the audit compared, each with the one it continues (5←4), so that a
// rule that held says on what; a request to another model is compared only to its model.
func pairs(rep *audit.Report) string {
	var out []string
	for _, q := range rep.Requests {
		switch {
		case q.Cause == audit.ModelChanged:
			// Another model's cache holds nothing of it: the audit compares no further.
			out = append(out, fmt.Sprintf("%d←%d only to its model", q.Seq, q.Continues))
		case q.Continues != 0:
			out = append(out, fmt.Sprintf("%d←%d", q.Seq, q.Continues))
		}
	}
	return strings.Join(out, ", ")
}
