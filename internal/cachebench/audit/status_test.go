package audit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/format"
)

// The summary's first word and the markdown icon follow Status: a damaged recording and one with
// no request are not ok (issue 10 saw "ok" and ✅ with exit 2 for the first, and exit 0 for the
// second: a gate that passes when the agent never reached the fake).
func TestStatusWords(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *Report
		want format.Status
		says string
	}{
		{"clean", &Report{File: "s.jsonl", Totals: Totals{Requests: 3}}, format.OK, ""},
		{"a break", &Report{File: "s.jsonl", Totals: Totals{Requests: 3, Failing: 1}}, format.Failed, "1 break fails"},
		{"damaged", &Report{File: "s.jsonl", Damage: "line 4: cut short", Totals: Totals{Requests: 3}}, format.Unfinished, "damaged"},
		{"no request", &Report{File: "s.jsonl"}, format.Unfinished, "no request: did the agent reach the fake?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Status(c.r); got != c.want {
				t.Fatalf("Status %v, want %v", got, c.want)
			}
			s := Summary(c.r)
			if word, _, _ := strings.Cut(s, "\t"); word != c.want.Word() || !strings.Contains(s, c.says) {
				t.Errorf("summary %q", s)
			}
			var md bytes.Buffer
			if err := WriteMarkdown(&md, c.r); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(md.String(), "\n\n"+c.want.Icon()+" ") {
				t.Errorf("markdown without %s:\n%s", c.want.Icon(), md.String())
			}
		})
	}
}

// --allow takes a cause by its name or its slug.
func TestParseCauses(t *testing.T) {
	got, err := ParseCauses([]string{"tools-changed", string(SystemChanged)})
	if err != nil || len(got) != 2 || got[0] != ToolsChanged || got[1] != SystemChanged {
		t.Fatalf("%v, %v", got, err)
	}
	if _, err := ParseCauses([]string{"paint"}); err == nil || !strings.HasPrefix(err.Error(), `--allow "paint": not a cause`) {
		t.Errorf("an unknown cause: %v", err)
	}
}
