package bench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/format"
)

// Every summary line starts with the bench's one status, and the markdown heading's icon is its
// too: a bench cut short or that sent nothing is not ok (issue 10 saw "ok … 0 requests" with exit 2,
// and a recording with no request pass with exit 0).
func TestStatusWords(t *testing.T) {
	run := func(requests, errors int) Run {
		return Run{Name: "baseline", Totals: Totals{Requests: requests, Errors: errors}}
	}
	for _, c := range []struct {
		name string
		r    *Result
		want format.Status
		says string
	}{
		{"clean", &Result{File: "s.jsonl", Runs: []Run{run(3, 0)}}, format.OK, "baseline: 3 requests"},
		{"a request failed", &Result{File: "s.jsonl", Runs: []Run{run(3, 1)}}, format.Failed, "1 of 3 requests failed"},
		{"cut short", &Result{File: "s.jsonl", Runs: []Run{run(1, 0)}, Stopped: "connection refused"}, format.Unfinished, "not finished: connection refused"},
		{"no run", &Result{File: "s.jsonl", Stopped: "connection refused"}, format.Unfinished, "not finished"},
		{"no request", &Result{File: "s.jsonl", Runs: []Run{run(0, 0)}}, format.Unfinished, "no request: did the agent reach the fake?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Status(c.r); got != c.want {
				t.Fatalf("Status %v, want %v", got, c.want)
			}
			lines := Summaries(c.r)
			for _, l := range lines {
				if word, _, _ := strings.Cut(l, "\t"); word != c.want.Word() {
					t.Errorf("line %q", l)
				}
			}
			if all := strings.Join(lines, "\n"); !strings.Contains(all, c.says) {
				t.Errorf("summary %q lacks %q", all, c.says)
			}
			var md bytes.Buffer
			if err := WriteMarkdown(&md, c.r); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(md.String(), "## "+c.want.Icon()+" ") {
				t.Errorf("markdown %q", md.String()[:40])
			}
		})
	}
}
