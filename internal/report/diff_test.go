package report

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/selection"
	"github.com/LLeMbas/lembas-check/runner"
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
	// A made-up case both answer x: the same wrong answer.
	shared := cases[0]
	shared.ID, shared.Index = "jobs/eeeeeeee", 98
	y := runner.Outcome{Answer: json.RawMessage(`{"text": "</pre><script>alert(1)</script>"}`)}
	ta := scripted{areas: []string{"jobs"}, answers: map[string]runner.Outcome{
		cases[2].ID: x,
		cases[3].ID: x,
		cases[6].ID: {Verdict: runner.Crashed, Message: "exited (exit status 1)", Stderr: "Traceback\n"},
		cases[7].ID: {Verdict: runner.Timeout, Message: "no answer within 10s"},
		cases[8].ID: {Verdict: runner.Error, Message: "KeyError"},
		cases[9].ID: {Verdict: runner.Skip, Message: "not yet"},
		shared.ID:   x,
	}}
	tb := scripted{areas: []string{"jobs"}, answers: map[string]runner.Outcome{
		cases[1].ID: y,
		cases[3].ID: y,
		cases[4].ID: {Verdict: runner.Skip, Message: "area not implemented"},
		cases[6].ID: {Verdict: runner.Crashed, Message: "exited (exit status 2)"},
		cases[7].ID: {Verdict: runner.Crashed, Message: "exited (exit status 2)"},
		cases[9].ID: {Verdict: runner.Skip, Message: "no"},
		shared.ID:   x,
	}}
	ctx := context.Background()
	a, err := runCases(ctx, ta, append(append([]conformance.Case{}, cases[:10]...), shared), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// b lacks case 5 and has a case a lacks (a made-up one).
	bCases := append(append([]conformance.Case{}, cases[:5]...), cases[6:10]...)
	extra := cases[0]
	extra.ID, extra.Index = "jobs/ffffffff", 99
	bCases = append(bCases, shared, extra)
	b, err = runCases(ctx, tb, bCases, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"agree", "disagree a", "disagree b", "disagree neither", "only in a", "only in a",
		"not compared both crashed", "not compared a timed out, b crashed", "not compared a errored", "skipped by both", "both wrong", "only in b"}
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
		if d.Why != "" {
			got += " " + d.Why
		}
		if got != want[i] {
			t.Errorf("case %d (%s): %s, want %s", i, d.Case.ID, got, want[i])
		}
	}
	if d := c.Cases[1]; !strings.Contains(d.Diff, "-") || !strings.Contains(d.Diff, "alert(1)") {
		t.Errorf("a disagreement of two answers has no diff: %q", d.Diff)
	}
	if c.Cases[11].Case.ID != "jobs/ffffffff" || c.Cases[11].A != nil {
		t.Errorf("the case only b has: %+v", c.Cases[11])
	}
	n := CountDiff(c.Cases)
	if fmt.Sprint(n) != "{12 map[agree:1 both wrong:1 disagree:3 not compared:3 only in a:2 only in b:1 skipped by both:1] 1 1 1}" || n.Compared() != 5 || n.Failures() != 7 {
		t.Errorf("counts %+v", n)
	}
	// A report against itself: its wrong answers are both wrong, its faults not compared.
	self := CountDiff(Compare(a, a).Cases)
	if fmt.Sprint(self.By) != "map[agree:4 both wrong:3 not compared:3 skipped by both:1]" {
		t.Errorf("a report against itself: %v", self.By)
	}
}

// The same answer on both sides is an agreement only when the spec backs it, and a side that
// was asked and gave no answer is never one (issue 21: two adapters answering error to every case,
// or crashing on every case, diffed as "ok: … agree"; two giving the same wrong answer as well).
func TestCompareJudgesAnswersNotTheirAbsence(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:4]
	wrong := json.RawMessage(`{"text": "wrong"}`)
	every := func(o runner.Outcome) scripted {
		s := scripted{areas: []string{"jobs"}, answers: map[string]runner.Outcome{}}
		for _, c := range cases {
			s.answers[c.ID] = o
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		a, b   runner.Outcome
		want   string
		status format.Status
	}{
		{"both error", runner.Outcome{Verdict: runner.Error, Message: "TypeError"}, runner.Outcome{Verdict: runner.Error, Message: "KeyError"}, "not compared: both errored", format.Unfinished},
		{"both crash", runner.Outcome{Verdict: runner.Crashed, Message: "exited"}, runner.Outcome{Verdict: runner.Crashed, Message: "exited"}, "not compared: both crashed", format.Unfinished},
		{"a crashes", runner.Outcome{Verdict: runner.Crashed, Message: "exited"}, runner.Outcome{}, "not compared: a crashed", format.Unfinished},
		{"b errs", runner.Outcome{}, runner.Outcome{Verdict: runner.Error, Message: "no"}, "not compared: b errored", format.Unfinished},
		{"protocol and timeout", runner.Outcome{Verdict: runner.ProtocolError, Message: "x"}, runner.Outcome{Verdict: runner.Timeout, Message: "y"}, "not compared: a broke the protocol, b timed out", format.Unfinished},
		{"both malformed", runner.Outcome{Verdict: runner.Malformed, Message: "jobs.json:3"}, runner.Outcome{Verdict: runner.Malformed, Message: "jobs.json:3"}, "not compared: both had a malformed case", format.Unfinished},
		{"the same wrong answer", runner.Outcome{Answer: wrong}, runner.Outcome{Answer: wrong}, "both wrong", format.Failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			ta, tb := every(tc.a), every(tc.b)
			if tc.a.Verdict == "" && tc.a.Answer == nil {
				ta = scripted{areas: []string{"jobs"}}
			}
			if tc.b.Verdict == "" && tc.b.Answer == nil {
				tb = scripted{areas: []string{"jobs"}}
			}
			a, _ := runCases(ctx, ta, cases, runner.Options{})
			b, _ := runCases(ctx, tb, cases, runner.Options{})
			c := Compare(a, b)
			for _, d := range c.Cases {
				if got := c.title(d); got != tc.want {
					t.Errorf("%s: %q, want %q", d.Case.ID, got, tc.want)
				}
			}
			if got := DiffStatus(c); got != tc.status {
				t.Errorf("status %v, want %v", got, tc.status)
			}
		})
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
	t.Setenv("COLUMNS", "400") // the cells whole, as they come: a test of what they say, not of the layout
	a, b, _ := twoReports(t)
	c := Compare(a, b)
	c.B.Target.Implementation.Name = "other"
	s := written(t, c, func(w io.Writer, c *Comparison) error { return WriteDiff(w, c, "table", true) })
	for _, w := range []string{
		"a: scripted\nb: scripted — other\n",
		"│ jobs │    12 │     1 │          1 │        3 │       1 │       1 │       1 │            3 │         2 │         1 │               1 │",
		"\n1 both wrong: the same answer on both sides, which the spec does not back\n  CASE           BOTH ANSWERED   ABOUT\n  jobs/eeeeeeee  another answer",
		"3 disagreement(s): the spec backs scripted (a) in 1, other (b) in 1, neither in 1\n",
		"  CASE           SPEC BACKS    SCRIPTED (A)         OTHER (B)            ABOUT\n",
		"  " + c.Cases[2].Case.ID + "  other (b)     another answer       the expected answer",
		"\n3 not compared: a side gave no answer\n",
		"  " + c.Cases[7].Case.ID + "  a timed out, b crashed  timeout: no answer within 10s    crashed: exited (exit status 2)",
		"  " + c.Cases[8].Case.ID + "  a errored               error: KeyError                  the expected answer",
		"--- DISAGREE: " + c.Cases[1].Case.ID + " — the spec backs scripted (a)\n",
		"--- DISAGREE: " + c.Cases[3].Case.ID + " — the spec backs neither\n",
		"--- BOTH WRONG: jobs/eeeeeeee — the same answer on both sides, which the spec does not back\n",
		"    scripted (a): fail\n        text: x\n    other (b): fail\n        (the same answer as a)\n    diff (-expect +both):\n",
		"--- NOT COMPARED: " + c.Cases[7].Case.ID + " — a timed out, b crashed\n",
		"    scripted (a): timeout: no answer within 10s\n    other (b): crashed: exited (exit status 2)\n",
		"    diff (-a +b):\n",
		"  jobs: 1 only in a — other (b) skipped: area not implemented: " + c.Cases[4].Case.ID + "\n",
		"  jobs: 1 only in a — not in other (b)'s run: " + c.Cases[5].Case.ID + "\n",
		"  jobs: 1 skipped by both — scripted (a) skipped: not yet; other (b) skipped: no: " + c.Cases[9].Case.ID + "\n",
		"  jobs: 1 only in b — not in scripted (a)'s run: jobs/ffffffff\n",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("the table does not say %q:\n%s", w, s)
		}
	}
	// The verdict and its counts lead, both wrong first, and end the table (issue 21).
	head := "FAIL\t1 both wrong, 3 disagree (a right 1, b right 1, neither 1), 3 not compared, 1 agree, 2 only in a, 1 only in b, 1 skipped by both; 5 of 12 cases compared\n"
	if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, "\n"+head) {
		t.Errorf("the first and last lines are not %q:\n%s", head, s)
	}
	// Answers read as text: the job's two-line command is two lines, not a "\n" escape (issue 16).
	if strings.Contains(s, `\n`) || !strings.Contains(s, "        command: |-\n          make build\n          make test∎\n") {
		t.Errorf("answers are not shown as text:\n%s", s)
	}
	var out bytes.Buffer
	good := wellAnswered(t)
	WriteDiffTable(&out, Compare(good, good), false)
	if !strings.HasSuffix(out.String(), "ok\t10 agree; 10 of 10 cases compared\n") || strings.Contains(out.String(), "---") {
		t.Errorf("a good report against itself:\n%s", out.String())
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
	if n := CountDiff(c.Cases); n.By[Agree] != 0 || n.By[SkippedByBoth] != 4 {
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
	// The footer's fields are named as a run's: counts by verdict, status, failed; and the header
	// says the verdict first (issue 21).
	f := lines[len(lines)-1]
	if fmt.Sprint(f) != "map[a_right:1 b_right:1 cases:12 compared:5 counts:map[agree:1 both wrong:1 disagree:3 not compared:3 only in a:2 only in b:1 skipped by both:1] failed:true interrupted:false neither_right:1 status:FAIL type:footer]" {
		t.Errorf("footer %v", f)
	}
	if h := lines[0]; h["status"] != "FAIL" || !strings.HasPrefix(h["summary"].(string), "FAIL 1 both wrong, 3 disagree") {
		t.Errorf("header %v", h)
	}
}

func TestWriteDiffMarkdown(t *testing.T) {
	a, b, _ := twoReports(t)
	s := written(t, Compare(a, b), WriteDiffMarkdown)
	// The markdown says what the table says: the counts, the list, the reasons, each disagreement.
	for _, w := range []string{
		"## ❌ lembas-check diff: 1 both wrong, 3 disagree (a right 1, b right 1, neither 1), 3 not compared, 1 agree, 2 only in a, 1 only in b, 1 skipped by both; 5 of 12 cases compared\n",
		"| jobs | 12 | 1 | 1 | 3 | 1 | 1 | 1 | 3 | 2 | 1 | 1 |",
		"### 1 both wrong: the same answer on both sides, which the spec does not back\n\n| Case | Both answered | About |\n|---|---|---|\n| `jobs/eeeeeeee` | another answer | jobs: note for command `npm test`, exit 0 after 5s |\n",
		"### 3 disagreement(s): the spec backs a in 1, b in 1, neither in 1",
		"| Case | Spec backs | a | b | About |",
		"### 3 not compared: a side gave no answer\n\n| Case | Why | a | b | About |\n",
		"| both crashed | crashed: exited (exit status 1) | crashed: exited (exit status 2) |",
		"— not compared: a errored</summary>",
		"— both wrong</summary>",
		"- **jobs**: 1 skipped by both — a skipped: not yet; b skipped: no",
		"— disagree: the spec backs b</summary>",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("markdown does not say %q:\n%s", w, s)
		}
	}
	if strings.Count(s, "<details>") != 7 {
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
	cells := regexp.MustCompile(`<a class="cell ([a-z]+)" href="#(case-[a-z_]+-[0-9a-f]{8})"[^>]*>(|[ab–=◐◑]|×[ab]?)</a>`).FindAllStringSubmatch(s, -1)
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
	if fmt.Sprint(classes) != "map[agree:1 bothwrong=:1 disagreea:1 disagreeb:1 disagree–:1 notcompared×:2 notcompared×a:1 only◐:2 only◑:1 skipped:1]" {
		t.Errorf("cells %v", classes)
	}
	// The disagreements are listed first, each with whom the spec backs (issue 16: they were found
	// by hovering cells); a filter per kind, with its count.
	list := s[strings.Index(s, `<section id="disagreements"`):strings.Index(s, `<section id="notcompared"`)]
	if n := strings.Count(list, "<tr><td><a href=\"#case-"); n != 3 || !strings.Contains(list, `<td class="backs-b">b</td>`) || !strings.Contains(list, `<td class="backs-neither">neither</td>`) {
		t.Errorf("%d disagreements listed:\n%s", n, list)
	}
	// Each side of the three disagreements shows its first differing line (issue 27).
	if n := strings.Count(list, `<code class="first">`); n != 6 {
		t.Errorf("%d first differing lines in the disagreements:\n%s", n, list)
	}
	// The cases both got wrong lead, then the disagreements, then those not compared (issue 21).
	both, nc := strings.Index(s, `<section id="bothwrong"`), strings.Index(s, `<section id="notcompared"`)
	if both < 0 || nc < 0 || both > strings.Index(s, `<section id="disagreements"`) || nc < strings.Index(s, `<section id="disagreements"`) ||
		!strings.Contains(s[nc:], `<td class="fault">a timed out, b crashed</td>`) {
		t.Error("the lists of cases both wrong and not compared are missing or out of order")
	}
	if !strings.Contains(s, "<title>FAIL 1 both wrong, 3 disagree") || !strings.Contains(s, `id="verdict">FAIL: 1 both wrong, 3 disagree`) {
		t.Error("the title and verdict do not lead with the count of cases both wrong")
	}
	for _, f := range []string{`for="f-agree"><i class="swatch agree"></i>agree <b>1</b>`, `both wrong <b>1</b>`, `disagree <b>3</b>`, `not compared <b>3</b>`, `only in one <b>3</b>`, `skipped by both <b>1</b>`} {
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
	if got, err := Select(one, a); err != nil || len(got.Results) != 1 || len(a.Results) != 11 {
		t.Errorf("%v (%v)", got, err)
	}
	// A selection that keeps every result is still a report of its own: changing it leaves the
	// report it was selected from as it was.
	all, _ := selection.New(nil, "")
	got, err := Select(all, a)
	if err != nil || len(got.Results) != len(a.Results) {
		t.Fatalf("%v (%v)", got, err)
	}
	was := a.Results[0].Verdict
	got.Results[0].Verdict = runner.Interrupted
	if a.Results[0].Verdict != was {
		t.Error("changing the selected report changed the report it was selected from")
	}
	// An area the report lacks is an error, not an empty report (issue 10: `diff` of two saved
	// reports with --area jbos said ok, 0 cases).
	prefix, _ := selection.New([]string{"prefix"}, "")
	if got, err := Select(prefix, a); err == nil || !strings.Contains(err.Error(), "--area prefix") {
		t.Errorf("%v (%v)", got, err)
	}
}

// A diff is ok only when something was compared and all of it agreed: one with a side's run
// interrupted, or with no case on both sides, is unfinished; one with a case both got wrong or a
// side's fault fails; its summary and icon say so.
func TestDiffStatus(t *testing.T) {
	a, b, _ := twoReports(t)
	stopped := *a
	stopped.Results = append([]runner.Result{}, a.Results...)
	stopped.Results[0].Verdict, stopped.Results[0].Answer = runner.Interrupted, nil
	onlyA := *a
	onlyA.Results = a.Results[:2]
	onlyB := *a
	onlyB.Results = a.Results[2:4]
	good := wellAnswered(t)
	crashOne := *good
	crashOne.Results = append([]runner.Result{}, good.Results...)
	crashOne.Results[0].Verdict, crashOne.Results[0].Answer, crashOne.Results[0].Message = runner.Crashed, nil, "exited (exit status 1)"
	for _, c := range []struct {
		name string
		c    *Comparison
		want format.Status
	}{
		{"the same", Compare(good, good), format.OK},
		{"the same, some wrong or faulted", Compare(a, a), format.Failed},
		{"a crash on one side, the rest agreeing", Compare(good, &crashOne), format.Failed},
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
			lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(tb.String(), "\n\t", "\t")), "\n")
			if word, _, _ := strings.Cut(lines[len(lines)-1], "\t"); word != c.want.Word() {
				t.Errorf("summary %q", lines[len(lines)-1])
			}
			if !strings.HasPrefix(md.String(), "## "+c.want.Icon()) {
				t.Errorf("markdown %q", md.String()[:30])
			}
		})
	}
}

// wellAnswered is a report of ten jobs cases each answered as the spec expects.
func wellAnswered(t *testing.T) *runner.Report {
	t.Helper()
	rep, err := runCases(context.Background(), scripted{areas: []string{"jobs"}}, conformancetest.Cases(t, conformance.Jobs)[:10], runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
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

// A saved report cut at a line boundary (no footer) is a damaged input to a diff, an error naming
// the file and what it lacks, never a run of fewer cases (issue 21: a warning, and exit 0).
func TestOpenSideRefusesAReportCutShort(t *testing.T) {
	var js bytes.Buffer
	if err := WriteJSON(&js, wellAnswered(t)); err != nil {
		t.Fatal(err)
	}
	whole := js.String()
	path := t.TempDir() + "/cut.json"
	if err := os.WriteFile(path, []byte(whole[:strings.LastIndex(whole, `{"type":"footer"`)]), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	rep, err := OpenSide(context.Background(), path, selection.Selection{}, SideOptions{Log: &log})
	if rep != nil || err == nil || !strings.Contains(err.Error(), path+": a damaged report: no footer line: the report was cut short after 10 cases") {
		t.Errorf("%v (%v)", rep, err)
	}
}

// A case judged by its checks, not an expectation (a Gherkin scenario in a saved report, its
// expect null), is backed by the side's own verdict: the same answer passed agrees, failed is
// both wrong.
func TestCompareWithoutAnExpectation(t *testing.T) {
	c := conformance.Case{Label: conformance.Label{ID: "context/feature:1", Area: "context"}, Expect: json.RawMessage("null")}
	answer := json.RawMessage(`{"text": "x"}`)
	for v, want := range map[runner.Verdict]DiffVerdict{runner.Pass: Agree, runner.Fail: BothWrong, runner.XFail: BothWrong} {
		r := runner.Result{Case: c, Verdict: v, Answer: answer}
		if got := compareOne(&r, &r).Verdict; got != want {
			t.Errorf("both %s: %s, want %s", v, got, want)
		}
	}
	pass := runner.Result{Case: c, Verdict: runner.Pass, Answer: answer}
	fail := runner.Result{Case: c, Verdict: runner.Fail, Answer: json.RawMessage(`{"text": "y"}`)}
	if d := compareOne(&fail, &pass); d.Verdict != Disagree || d.Right != "b" {
		t.Errorf("%s, right %q", d.Verdict, d.Right)
	}
}

// A saved report run with --expect marks a skip its file did not list; to a diff it is a skip,
// not a side that was asked and gave no answer.
func TestCompareReadsAnUnlistedSkipAsASkip(t *testing.T) {
	c := conformance.Case{Label: conformance.Label{ID: "jobs/00000001", Area: "jobs"}, Expect: []byte(`{"a":1}`)}
	skip := &runner.Result{Case: c, Verdict: runner.UnlistedSkip}
	a := &runner.Report{Results: []runner.Result{*skip}}
	b := &runner.Report{Results: []runner.Result{*skip}}
	d := Compare(a, b).Cases
	if len(d) != 1 || d[0].Verdict != SkippedByBoth {
		t.Fatalf("an unlisted skip on both sides: %+v, want %q", d, SkippedByBoth)
	}
}

// While b runs, each of its cases that fails the diff is shown as it ends, compared with a's
// result, and one that agrees is not; the table after it leaves the streamed cases out.
func TestDiffStreamsFailingCasesAsBRuns(t *testing.T) {
	a, b, _ := twoReports(t)
	show := DiffRun{A: "a", B: "b"}.streamed(a)
	var out bytes.Buffer
	for _, r := range b.Results {
		show(&out, r)
	}
	c := Compare(a, b)
	want := len(c.failures())
	if n := strings.Count(out.String(), "\n--- ") + strings.Count(out.String()[:4], "--- "); n != want {
		t.Errorf("streamed %d failing cases, want %d:\n%s", n, want, out.String())
	}
	c.Streamed = true
	var table bytes.Buffer
	if err := WriteDiffTable(&table, c, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(table.String(), "\n--- ") {
		t.Errorf("the table repeats what was streamed:\n%s", table.String())
	}
}
