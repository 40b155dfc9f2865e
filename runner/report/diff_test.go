package report

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/selection"
)

// twoReports runs ten jobs cases through two scripted implementations that differ in every way a
// diff tells apart; want is the verdict and the side found right, case by case.
func twoReports(t *testing.T) (a, b *runner.Report, want []string) {
	t.Helper()
	cases := conformancetest.Cases(t, conformance.Jobs)
	if len(cases) < 10 {
		t.Fatalf("%d jobs cases, want 10", len(cases))
	}
	x := runner.Outcome{Answer: json.RawMessage(`{"text": "x"}`)}
	y := runner.Outcome{Answer: json.RawMessage(`{"text": "</pre><script>alert(1)</script>"}`)}
	ta := scripted{areas: []string{"jobs"}, answers: map[string]runner.Outcome{
		cases[2].ID: x,
		cases[3].ID: x,
		cases[6].ID: {Verdict: runner.Crashed, Message: "exited (exit status 1)", Stderr: "Traceback\n"},
		cases[7].ID: {Verdict: runner.Timeout, Message: "no answer within 10s"},
		cases[8].ID: {Verdict: runner.Error, Message: "KeyError"},
		cases[9].ID: {Verdict: runner.Skip, Message: "not yet"},
	}}
	tb := scripted{areas: []string{"jobs"}, answers: map[string]runner.Outcome{
		cases[1].ID: y,
		cases[3].ID: y,
		cases[4].ID: {Verdict: runner.Skip, Message: "area not implemented"},
		cases[6].ID: {Verdict: runner.Crashed, Message: "exited (exit status 2)"},
		cases[7].ID: {Verdict: runner.Crashed, Message: "exited (exit status 2)"},
		cases[9].ID: {Verdict: runner.Skip, Message: "no"},
	}}
	ctx := context.Background()
	a, err := runCases(ctx, ta, cases[:10], runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// b lacks case 5 and has a case a lacks (a made-up one).
	bCases := append(append([]conformance.Case{}, cases[:5]...), cases[6:10]...)
	extra := cases[0]
	extra.ID, extra.Index = "jobs/ffffffff", 99
	bCases = append(bCases, extra)
	b, err = runCases(ctx, tb, bCases, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"agree", "disagree a", "disagree b", "disagree neither", "only in a", "only in a", "agree", "disagree neither", "disagree b", "skipped by both", "only in b"}
	return a, b, want
}

func TestCompare(t *testing.T) {
	a, b, want := twoReports(t)
	c := Compare(a, b)
	if len(c.Cases) != len(want) {
		t.Fatalf("%d cases, want %d", len(c.Cases), len(want))
	}
	for i, d := range c.Cases {
		got := string(d.Verdict)
		if d.Right != "" {
			got += " " + d.Right
		}
		if got != want[i] {
			t.Errorf("case %d (%s): %s, want %s", i, d.Case.ID, got, want[i])
		}
	}
	if d := c.Cases[1]; !strings.Contains(d.Diff, "-") || !strings.Contains(d.Diff, "alert(1)") {
		t.Errorf("a disagreement of two answers has no diff: %q", d.Diff)
	}
	if c.Cases[10].Case.ID != "jobs/ffffffff" || c.Cases[10].A != nil {
		t.Errorf("the case only b has: %+v", c.Cases[10])
	}
	n := CountDiff(c.Cases)
	if n != (DiffCounts{Cases: 11, Agree: 2, Disagree: 5, ARight: 1, BRight: 2, Neither: 2, OnlyInA: 2, OnlyInB: 1, Skipped: 1}) {
		t.Errorf("counts %+v", n)
	}
	if !c.Disagrees() {
		t.Error("Disagrees is false")
	}
	if Compare(a, a).Disagrees() {
		t.Error("a report disagrees with itself")
	}
}

func TestCompareNotesDifferentExpectations(t *testing.T) {
	a, _, _ := twoReports(t)
	b := *a
	b.Results = append([]runner.Result{}, a.Results...)
	b.Results[0].Case.Expect = json.RawMessage(`{"text": "another"}`)
	if d := Compare(a, &b).Cases[0]; !strings.Contains(d.Note, "expect different answers") {
		t.Errorf("note %q", d.Note)
	}
}

func TestWriteDiffTable(t *testing.T) {
	a, b, _ := twoReports(t)
	c := Compare(a, b)
	c.B.Target.Implementation.Name = "other"
	s := written(t, c, func(w io.Writer, c *Comparison) error { return WriteDiff(w, c, "table", true) })
	for _, w := range []string{
		"a: scripted\nb: scripted — other\n",
		"│ jobs │    11 │     2 │        5 │       1 │       2 │       2 │         2 │         1 │               1 │",
		"5 disagreement(s): the spec backs scripted (a) in 1, other (b) in 2, neither in 2\n",
		"  CASE           SPEC BACKS    SCRIPTED (A)                   OTHER (B)                        ABOUT\n",
		"  " + c.Cases[2].Case.ID + "  other (b)     another answer                 the expected answer",
		"--- DISAGREE: " + c.Cases[1].Case.ID + " — the spec backs scripted (a)\n",
		"--- DISAGREE: " + c.Cases[7].Case.ID + " — the spec backs neither\n",
		"    scripted (a): timeout: no answer within 10s\n    other (b): crashed: exited (exit status 2)\n",
		"    diff (-a +b):\n",
		"  jobs: 1 only in a — other (b) skipped: area not implemented: " + c.Cases[4].Case.ID + "\n",
		"  jobs: 1 only in a — not in other (b)'s run: " + c.Cases[5].Case.ID + "\n",
		"  jobs: 1 skipped by both — scripted (a) skipped: not yet; other (b) skipped: no: " + c.Cases[9].Case.ID + "\n",
		"  jobs: 1 only in b — not in scripted (a)'s run: jobs/ffffffff\n",
		"FAIL\t11 cases: 2 agree, 5 disagree (a right 1, b right 2, neither 2), 2 only in a, 1 only in b, 1 skipped by both\n",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("the table does not say %q:\n%s", w, s)
		}
	}
	// Answers read as text: the job's two-line command is two lines, not a "\n" escape (issue 16).
	if strings.Contains(s, `\n`) || !strings.Contains(s, "        command: |-\n          make build\n          make test\n") {
		t.Errorf("answers are not shown as text:\n%s", s)
	}
	var out bytes.Buffer
	WriteDiffTable(&out, Compare(a, a), false)
	if !strings.HasSuffix(out.String(), "ok\t10 cases: 9 agree, 0 disagree (a right 0, b right 0, neither 0), 0 only in a, 0 only in b, 1 skipped by both\n") || strings.Contains(out.String(), "---") {
		t.Errorf("a report against itself:\n%s", out.String())
	}
	if err := WriteDiff(&out, c, "junit", false); err == nil {
		t.Error("an unknown diff format writes")
	}
}

// Cases both sides skipped are not "agree" (issue 16: two adapters implementing only jobs showed
// "186 agree", all green, though 176 were checked by neither): they have their own count, and a
// diff in which nothing was compared is not ok.
func TestSkippedByBothIsNotAgreement(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:4]
	skip := scripted{areas: []string{}, answers: map[string]runner.Outcome{}}
	for _, c := range cases {
		skip.answers[c.ID] = runner.Outcome{Verdict: runner.Skip, Message: "area not implemented"}
	}
	ctx := context.Background()
	a, _ := runCases(ctx, skip, cases, runner.Options{})
	b, _ := runCases(ctx, skip, cases[:3], runner.Options{})
	c := Compare(a, b)
	if n := CountDiff(c.Cases); n.Agree != 0 || n.Skipped != 4 {
		t.Errorf("counts %+v", n)
	}
	if DiffStatus(c) != format.Unfinished {
		t.Errorf("status %v", DiffStatus(c))
	}
	var page bytes.Buffer
	WriteDiffHTML(&page, c)
	if n := strings.Count(page.String(), `class="cell skipped"`); n != 4 || strings.Contains(page.String(), `class="cell agree"`) {
		t.Errorf("%d skipped cells", n)
	}
}

func TestWriteDiffJSON(t *testing.T) {
	a, b, want := twoReports(t)
	sc := bufio.NewScanner(strings.NewReader(written(t, Compare(a, b), WriteDiffJSON)))
	var lines []map[string]any
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %s", sc.Text())
		}
		lines = append(lines, m)
	}
	if len(lines) != len(want)+2 || lines[0]["type"] != "header" || lines[len(lines)-1]["type"] != "footer" {
		t.Fatalf("%d lines", len(lines))
	}
	if l := lines[3]; l["verdict"] != "disagree" || l["right"] != "b" || l["a"].(map[string]any)["answer"].(map[string]any)["text"] != "x" {
		t.Errorf("case line %v", l)
	}
	if l := lines[len(lines)-2]; l["a"] != nil || l["verdict"] != "only in b" {
		t.Errorf("the case only b has: %v", l)
	}
	if f := lines[len(lines)-1]; f["disagree"] != 5.0 || f["disagrees"] != true || f["only_in_a"] != 2.0 {
		t.Errorf("footer %v", f)
	}
}

func TestWriteDiffMarkdown(t *testing.T) {
	a, b, _ := twoReports(t)
	s := written(t, Compare(a, b), WriteDiffMarkdown)
	// The markdown says what the table says: the counts, the list, the reasons, each disagreement.
	for _, w := range []string{
		"## ❌ lembas-check diff",
		"| jobs | 11 | 2 | 5 | 1 | 2 | 2 | 2 | 1 | 1 |",
		"### 5 disagreement(s): the spec backs a in 1, b in 2, neither in 2",
		"| Case | Spec backs | a | b | About |",
		"- **jobs**: 1 skipped by both — a skipped: not yet; b skipped: no",
		"— disagree: the spec backs b</summary>",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("markdown does not say %q:\n%s", w, s)
		}
	}
	if strings.Count(s, "<details>") != 5 {
		t.Errorf("markdown:\n%s", s)
	}
}

// The HTML page is self-contained, has one cell per case in its area's row, each linking to its
// case's panel, and escapes what the implementations said.
func TestWriteDiffHTML(t *testing.T) {
	a, b, _ := twoReports(t)
	c := Compare(a, b)
	s := written(t, c, WriteDiffHTML)
	if regexp.MustCompile(`(?i)(src|href)="(https?:)?//`).MatchString(s) || strings.Contains(s, "<link") || strings.Contains(s, "@import") {
		t.Error("the page loads something from elsewhere")
	}
	if !strings.Contains(s, "<style>") || !strings.Contains(s, "<script>") {
		t.Error("no inline CSS or JS")
	}
	if strings.Contains(s, "<script>alert(1)") || !strings.Contains(s, "&lt;script&gt;alert(1)") {
		t.Error("an answer's text is not escaped")
	}
	cells := regexp.MustCompile(`<a class="cell ([a-z]+)" href="#(case-[a-z_]+-[0-9a-f]{8})"[^>]*>([ab–]?)</a>`).FindAllStringSubmatch(s, -1)
	if len(cells) != len(c.Cases) {
		t.Fatalf("%d cells for %d cases", len(cells), len(c.Cases))
	}
	classes := map[string]int{}
	for _, m := range cells {
		classes[m[1]+m[3]]++
		if !strings.Contains(s, `<section class="case" id="`+m[2]+`">`) {
			t.Errorf("cell %s opens nothing", m[2])
		}
	}
	if fmt.Sprint(classes) != "map[agree:2 disagreea:1 disagreeb:2 disagree–:2 onlya:2 onlyb:1 skipped:1]" {
		t.Errorf("cells %v", classes)
	}
	// The disagreements are listed first, each with whom the spec backs (issue 16: they were found
	// by hovering cells); a filter per kind, with its count.
	list := s[strings.Index(s, `<section id="disagreements">`):strings.Index(s, `<section id="matrix">`)]
	if n := strings.Count(list, "<tr><td><a href=\"#case-"); n != 5 || !strings.Contains(list, `<td class="backs-b">b</td>`) || !strings.Contains(list, `<td class="backs-neither">neither</td>`) {
		t.Errorf("%d disagreements listed:\n%s", n, list)
	}
	for _, f := range []string{`for="f-agree"><i class="swatch agree"></i>agree <b>2</b>`, `disagree <b>5</b>`, `only in one <b>3</b>`, `skipped by both <b>1</b>`} {
		if !strings.Contains(s, f) {
			t.Errorf("no filter %q", f)
		}
	}
	// Why a case is on one side only is on the page, not inside each case.
	if !strings.Contains(s, "<li><b>jobs</b>: 1 only in a — <span class=\"why\">b skipped: area not implemented</span></li>") {
		t.Error("the reasons for cases on one side are not listed")
	}
	if !strings.Contains(s, `<tr class="changed"><td class="a">`) || !strings.Contains(s, `<td class="b">text: &lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>`) {
		t.Error("the answers are not side by side")
	}
}

// A line of an answer that starts with "-" and is the same on both sides is not marked removed
// (issue 16: the page trimmed the indent before looking for the mark).
func TestDiffHTMLReadsTheMarkFromTheFirstColumn(t *testing.T) {
	a, b, _ := twoReports(t)
	a.Results[1].Answer = json.RawMessage(`{"text":"-e\nsame\nx"}`)
	b.Results[1].Answer = json.RawMessage(`{"text":"-e\nsame\ny"}`)
	var out bytes.Buffer
	WriteDiffHTML(&out, Compare(a, b))
	if !strings.Contains(out.String(), `<tr class="same"><td class="a">  -e</td><td class="b">  -e</td></tr>`) {
		t.Errorf("the unchanged -e line:\n%s", out.String())
	}
}

func TestSelectReport(t *testing.T) {
	a, _, _ := twoReports(t)
	one, _ := selection.New([]string{"jobs"}, a.Results[3].Case.ID)
	if got, err := Select(one, a); err != nil || len(got.Results) != 1 || len(a.Results) != 10 {
		t.Errorf("%v (%v)", got, err)
	}
	// An area the report lacks is an error, not an empty report (issue 10: `diff` of two saved
	// reports with --area jbos said ok, 0 cases).
	prefix, _ := selection.New([]string{"prefix"}, "")
	if got, err := Select(prefix, a); err == nil || !strings.Contains(err.Error(), "--area prefix") {
		t.Errorf("%v (%v)", got, err)
	}
}

// A diff is ok only when something was compared and all of it agreed: one with a side's run
// interrupted, or with no case on both sides, is unfinished, its summary and icon saying so.
func TestDiffStatus(t *testing.T) {
	a, b, _ := twoReports(t)
	stopped := *a
	stopped.Results = append([]runner.Result{}, a.Results...)
	stopped.Results[0].Verdict, stopped.Results[0].Answer = runner.Interrupted, nil
	onlyA := *a
	onlyA.Results = a.Results[:2]
	onlyB := *a
	onlyB.Results = a.Results[2:4]
	for _, c := range []struct {
		name string
		c    *Comparison
		want format.Status
	}{
		{"the same", Compare(a, a), format.OK},
		{"disagreeing", Compare(a, b), format.Failed},
		{"interrupted", Compare(&stopped, a), format.Unfinished},
		{"nothing on both sides", Compare(&onlyA, &onlyB), format.Unfinished},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := DiffStatus(c.c); got != c.want {
				t.Fatalf("DiffStatus %v, want %v", got, c.want)
			}
			var tb, md bytes.Buffer
			WriteDiffTable(&tb, c.c, false)
			WriteDiffMarkdown(&md, c.c)
			lines := strings.Split(strings.TrimSpace(tb.String()), "\n")
			if word, _, _ := strings.Cut(lines[len(lines)-1], "\t"); word != c.want.Word() {
				t.Errorf("summary %q", lines[len(lines)-1])
			}
			if !strings.HasPrefix(md.String(), "## "+c.want.Icon()) {
				t.Errorf("markdown %q", md.String()[:30])
			}
		})
	}
}

// written is what write writes of c; a write that fails ends the test.
func written(t *testing.T, c *Comparison, write func(io.Writer, *Comparison) error) string {
	t.Helper()
	var out bytes.Buffer
	if err := write(&out, c); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// A disagreement shows a side's stderr as a failure does: its last 20 lines, after a "…" (it
// showed the whole tail the runner keeps).
func TestDisagreementShowsTheStderrTail(t *testing.T) {
	a, b, _ := twoReports(t)
	c := Compare(a, b)
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("log line %d", i))
	}
	c.Cases[7].B.Stderr = strings.Join(lines, "\n") + "\n"
	s := written(t, c, func(w io.Writer, c *Comparison) error { return WriteDiff(w, c, "table", true) })
	if !strings.Contains(s, "        stderr (tail):\n            …\n            log line 11\n") || strings.Contains(s, "log line 10\n") || !strings.Contains(s, "            log line 30\n") {
		t.Errorf("the stderr of %s:\n%s", c.Cases[7].Case.ID, s)
	}
}
