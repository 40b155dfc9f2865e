package audit

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/term"
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
		// The summary goes on in lines after a tab within 100 columns (term.Line): read by its words.
		if !strings.Contains(words(out), words(want)) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestJSONLinesAreOneRequestEachThenTotalsAndFooter(t *testing.T) {
	var b bytes.Buffer
	rep := dateReport(t)
	if err := Write(&b, rep, "json", false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != len(rep.Requests)+2 {
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
		Totals struct {
			PromptTokens int64 `json:"prompt_tokens"`
			ByCause      map[string]struct {
				LostTokens int64 `json:"lost_tokens"`
			} `json:"by_cause"`
		}
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-2]), &tot); err != nil || tot.Type != "totals" || tot.Totals.ByCause["system prompt changed"].LostTokens != 404 {
		t.Errorf("totals: %+v %v", tot, err)
	}
	var foot format.Footer
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &foot); err != nil || foot.Type != "footer" || foot.Status != "FAIL" || !foot.Failed || foot.Exit != 1 || foot.Counts["failing"] == 0 {
		t.Errorf("footer: %+v %v", foot, err)
	}
}

// The audit's footer is every command's (issue 21: `status: ERROR` stood beside `failed: false`):
// an audit with no request is ERROR, failed, exit 2, saying why.
func TestFooterOfAnAuditNotMade(t *testing.T) {
	f := Footer(&Report{})
	if f.Status != "ERROR" || !f.Failed || f.Exit != 2 || !strings.Contains(f.Error, "no request") {
		t.Errorf("%+v", f)
	}
}

func TestMarkdownAndSVG(t *testing.T) {
	rep := dateReport(t)
	var md bytes.Buffer
	if err := Write(&md, rep, "markdown", false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// The verdict in a word beside its emoji; each break says whether it fails (issue 27).
		"❌ **FAIL** 1 break(s) the spec does not allow.",
		"| 4 | 8 | system prompt changed (fails) | `$.messages[0].content` |",
		// The changed text, as the table shows it.
		"Request 4, at `$.messages[0].content`:\n\n```diff\n- …ent\":\"Today is 2026-11-0⟦5⟧.",
		"\n+ …ent\":\"Today is 2026-11-0⟦6⟧.",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
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
	// The picture's, one per request, two per break (its bar below, its mark), one per
	// conversation start.
	if want := 1 + len(rep.Requests) + 2*rep.Totals.Breaks + rep.Totals.Conversations; titles != want {
		t.Errorf("%d tooltips, want %d", titles, want)
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

// Every month's last day and the day after, in every form: each reads as a clock, whole.
func TestClockHeuristicEveryMonthEveryForm(t *testing.T) {
	forms := []string{"Mon Jan 02 2006", "Jan 2, 2006", "01/02/2006", "Monday, January 2, 2006", "2006-01-02", "2 January 2006", "January 2", "Jan. 2", "Monday, 2 January 2006"}
	for m := time.January; m <= time.December; m++ {
		last := time.Date(2026, m+1, 0, 12, 0, 0, 0, time.UTC) // the month's last day
		next := last.AddDate(0, 0, 1)
		for _, f := range forms {
			o, n := last.Format(f), next.Format(f)
			got, ok := clockChange(Change{OldWide: "It is " + o + ".", NewWide: "It is " + n + "."})
			if want := o + " → " + n; !ok || got != want {
				t.Errorf("%s: %q, want %q", f, got, want)
			}
		}
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
		// The forms real harnesses write: opencode (JavaScript's toDateString), qwen-code, codex.
		{"Today's date: Mon Nov 30 2026", "Today's date: Tue Dec 01 2026", "Mon Nov 30 2026 → Tue Dec 01 2026", true},
		{"Today's date is Monday, November 30, 2026 (formatted", "Today's date is Tuesday, December 1, 2026 (formatted", "Monday, November 30, 2026 → Tuesday, December 1, 2026", true},
		{"<current_date>2026-11-30</current_date>", "<current_date>2026-12-01</current_date>", "2026-11-30 → 2026-12-01", true},
		{"as of Nov 30, 2026.", "as of Dec 1, 2026.", "Nov 30, 2026 → Dec 1, 2026", true},
		{"on 11/30/2026 at 11:59 pm", "on 12/01/2026 at 12:00 am", "11/30/2026, 11:59 pm → 12/01/2026, 12:00 am", true},
		{"now: 2026-11-30T23:59:50Z", "now: 2026-12-01T00:00:30Z", "2026-11-30T23:59:50Z → 2026-12-01T00:00:30Z", true},
		{"Date: 31 May 2026", "Date: 1 June 2026", "31 May 2026 → 1 June 2026", true},
		{"Date: May 31", "Date: June 1", "May 31 → June 1", true},
	} {
		got, ok := clockChange(Change{OldWide: c.old, NewWide: c.new})
		if got != c.want || ok != c.ok {
			t.Errorf("%q → %q: %q %v, want %q %v", c.old, c.new, got, ok, c.want, c.ok)
		}
	}
}

// On a terminal the table paints its breaks, their changed text and its status word; elsewhere it
// paints nothing.
func TestTableColour(t *testing.T) {
	var plain, painted bytes.Buffer
	WriteTable(&plain, dateReport(t), false)
	WriteTable(term.Writer{Writer: &painted}, dateReport(t), false)
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("colour in a buffer:\n%q", plain.String())
	}
	for _, want := range []string{"\x1b[31m--- BREAK:\x1b[0m request 4", "    \x1b[31m- …ent", "    \x1b[32m+ …ent", "\x1b[31mFAIL\x1b[0m\tdate-in-system.jsonl\t"} {
		if !strings.Contains(painted.String(), want) {
			t.Errorf("no %q in\n%q", want, painted.String())
		}
	}
}

// A change as a diff shows it (the markdown's, live's verdicts'): "- old", "+ new", a side that is
// empty (a model named on one side only) left out.
func TestChangeLines(t *testing.T) {
	for c, want := range map[Change]string{
		{Old: "a⟦1⟧b", New: "a⟦2⟧b"}: "- a⟦1⟧b\n+ a⟦2⟧b\n",
		{New: "fake-model"}:          "+ fake-model\n",
		{Old: "fake-model"}:          "- fake-model\n",
	} {
		if got := c.Lines(); got != want {
			t.Errorf("%+v: %q, want %q", c, got, want)
		}
	}
}

// words is s with each run of spaces, tabs and newlines one space.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }
