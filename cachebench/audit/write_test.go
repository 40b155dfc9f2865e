package audit

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"
)

func dateReport(t *testing.T) *Report {
	t.Helper()
	rep, err := auditFile(t, recordings+"date-in-system.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep.File = "date-in-system.jsonl"
	return rep
}

func TestTableShowsTheBreakLikeGoTest(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, dateReport(t), "table", true); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"--- BREAK: request 4 (line 8), conversation 1, continues request 3: system prompt changed",
		"at $.messages[0].content: the system prompt of request 3 changed; it looks like a clock: 2026-11-05 → 2026-11-06",
		`- …ent":"Today is 2026-11-0⟦5⟧.`,
		`+ …ent":"Today is 2026-11-0⟦6⟧.`,
		"system prompt changed │        1 │         404",
		"FAIL\tdate-in-system.jsonl\t6 requests, 1 conversation: 2,537 prompt tokens, 62.2 % reusable (78.2 % without the breaks); 1 break fails the audit",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestJSONLinesAreOneRequestEachThenTotals(t *testing.T) {
	var b bytes.Buffer
	rep := dateReport(t)
	if err := Write(&b, rep, "json", false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != len(rep.Requests)+1 {
		t.Fatalf("%d lines for %d requests", len(lines), len(rep.Requests))
	}
	var q struct {
		Type  string
		Seq   int
		Cause string
		Path  string
		Clock string
	}
	if err := json.Unmarshal([]byte(lines[3]), &q); err != nil || q.Type != "request" || q.Seq != 4 || q.Cause != "system prompt changed" || q.Path != "$.messages[0].content" {
		t.Errorf("line 4: %+v %v", q, err)
	}
	var tot struct {
		Type   string
		Failed bool
		Totals struct {
			PromptTokens int64 `json:"prompt_tokens"`
			ByCause      map[string]struct {
				LostTokens int64 `json:"lost_tokens"`
			} `json:"by_cause"`
		}
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &tot); err != nil || tot.Type != "totals" || !tot.Failed || tot.Totals.ByCause["system prompt changed"].LostTokens != 404 {
		t.Errorf("totals: %+v %v", tot, err)
	}
}

func TestMarkdownAndSVG(t *testing.T) {
	rep := dateReport(t)
	var md bytes.Buffer
	if err := Write(&md, rep, "markdown", false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| 4 | 8 | system prompt changed | `$.messages[0].content` |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	var svg bytes.Buffer
	if err := Write(&svg, rep, "svg", false); err != nil {
		t.Fatal(err)
	}
	// Well-formed XML, one tooltip per request above, one bar per break below.
	dec := xml.NewDecoder(&svg)
	titles := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "title" {
			titles++
		}
	}
	if titles != len(rep.Requests)+1 {
		t.Errorf("%d tooltips, want %d", titles, len(rep.Requests)+1)
	}
	if err := Write(&svg, rep, "pdf", false); err == nil || !strings.Contains(err.Error(), "table, json, markdown, svg") {
		t.Errorf("unknown format: %v", err)
	}
}

func TestExcerptCutsAtCharacters(t *testing.T) {
	prev := []byte(strings.Repeat("é", 40) + "old" + strings.Repeat("ü", 40))
	cur := []byte(strings.Repeat("é", 40) + "new!" + strings.Repeat("ü", 40))
	p := commonPrefix(prev, cur)
	c := change(prev, cur, p)
	if !utf8.ValidString(c.Old) || !utf8.ValidString(c.New) {
		t.Fatalf("cut inside a character: %q %q", c.Old, c.New)
	}
	if !strings.Contains(c.Old, "⟦old⟧") || !strings.Contains(c.New, "⟦new!⟧") || !strings.HasPrefix(c.New, "…") || !strings.HasSuffix(c.New, "…") {
		t.Errorf("%q %q", c.Old, c.New)
	}
}

func TestClockHeuristic(t *testing.T) {
	for _, c := range []struct {
		old, new, want string
		ok             bool
	}{
		{"Today is 2026-11-05.", "Today is 2026-11-06.", "2026-11-05 → 2026-11-06", true},
		{"It is 23:59:10 now", "It is 00:00:05 now", "23:59:10 → 00:00:05", true},
		{"Thursday", "Friday", "Thursday → Friday", true},
		{"", "Date: November 6", "added November 6", true},
		{"./main.go:10:21: undefined", "./main.go:11:3: undefined", "", false}, // a file position, not a time
		{"You are careful.", "You are very careful.", "", false},
	} {
		got, ok := clockChange(Change{OldWide: c.old, NewWide: c.new})
		if got != c.want || ok != c.ok {
			t.Errorf("%q → %q: %q %v, want %q %v", c.old, c.new, got, ok, c.want, c.ok)
		}
	}
}
