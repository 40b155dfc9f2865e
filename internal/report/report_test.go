package report

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/term"
	"github.com/LLeMbas/lembas-check/internal/textdiff"
	"github.com/LLeMbas/lembas-check/runner"
)

// runCases starts the target, runs the cases and closes it.
func runCases(ctx context.Context, t runner.Target, cases []conformance.Case, opts runner.Options) (*runner.Report, error) {
	info, err := t.Start(ctx)
	if err != nil {
		return nil, err
	}
	rep := runner.Run(ctx, t, info, runner.CaseItems(cases), opts)
	rep.Closed(t.Close())
	return rep, nil
}

// scripted is a target that answers by case id.
type scripted struct {
	areas   []string
	answers map[string]runner.Outcome
}

func (s scripted) Start(context.Context) (runner.TargetInfo, error) {
	return runner.TargetInfo{Kind: "go", Implementation: runner.Implementation{Name: "scripted"}, Areas: s.areas}, nil
}

func (s scripted) Answer(_ context.Context, c conformance.Case) runner.Outcome {
	if o, ok := s.answers[c.ID]; ok {
		return o
	}
	return runner.Outcome{Answer: c.Expect}
}

func (scripted) Close() error { return nil }

func TestReportFormats(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:3]
	target := scripted{areas: []string{"jobs"}, answers: map[string]runner.Outcome{cases[1].ID: {Answer: json.RawMessage(`{"text":"x"}`)}, cases[2].ID: {Verdict: runner.Timeout, Message: "no answer in 10s", Stderr: "hung\n"}}}
	rep, err := runCases(context.Background(), target, cases, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(js.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("JSON report has %d lines, want header + 3 + footer", len(lines))
	}
	var c JSONCase
	if err := json.Unmarshal([]byte(lines[2]), &c); err != nil || c.ID != cases[1].ID || c.Verdict != runner.Fail || c.Diff == "" || c.Area != "jobs" {
		t.Fatalf("case line %s (%v)", lines[2], err)
	}
	back, err := ReadJSON(strings.NewReader(js.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Results) != 3 || back.Results[2].Verdict != runner.Timeout || back.Results[0].Verdict != runner.Pass || back.Target.Implementation.Name != "scripted" {
		t.Fatalf("read back: %+v", back.Results)
	}
	cut := strings.Join(lines[:3], "\n") + "\n" + lines[3][:20]
	if _, err := ReadJSON(strings.NewReader(cut)); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("a report cut mid-line: %v", err)
	}
	var ju bytes.Buffer
	if err := WriteJUnit(&ju, rep); err != nil {
		t.Fatal(err)
	}
	var parsed junitSuites
	if err := xml.Unmarshal(ju.Bytes(), &parsed); err != nil {
		t.Fatalf("JUnit is not XML: %v\n%s", err, ju.String())
	}
	// The root counts are the suites' sums, failures and errors apart (issue 10 saw failures="2" and
	// no errors at the root while the suite said 1 and 1).
	if parsed.Tests != 3 || parsed.Fail != 1 || parsed.Errors != 1 || len(parsed.Suites) != 1 || parsed.Suites[0].Cases[2].Error == nil || parsed.Suites[0].Cases[1].Failure == nil {
		t.Fatalf("JUnit: %+v", parsed)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| jobs | 3 | 1 | 2 | 0 | 0 |") || !strings.Contains(md.String(), "<details>") {
		t.Fatalf("markdown:\n%s", md.String())
	}
	if err := Write(&md, rep, "yaml", false); err == nil {
		t.Fatal("an unknown format writes")
	}
}

// The summary's first word, the markdown icon, the JSON footer's status and Status agree, for
// each way a run can end; an interrupted run and one that checked nothing are not ok.
func TestStatusWordsAgree(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:3]
	pass := runner.Result{Case: cases[0], Verdict: runner.Pass}
	fail := runner.Result{Case: cases[1], Verdict: runner.Fail, Diff: "x"}
	skip := runner.Result{Case: cases[2], Verdict: runner.Skip, Message: "area not implemented"}
	stop := runner.Result{Case: cases[2], Verdict: runner.Interrupted, Message: "run interrupted: context canceled"}
	for _, c := range []struct {
		name    string
		results []runner.Result
		want    format.Status
		why     string
	}{
		{"all pass", []runner.Result{pass, skip}, format.OK, ""},
		{"a failure", []runner.Result{pass, fail}, format.Failed, ""},
		{"interrupted", []runner.Result{pass, fail, stop}, format.Unfinished, "interrupted: 1 of 3"},
		{"every case skipped", []runner.Result{skip}, format.Unfinished, "no case was checked"},
		{"no case", nil, format.Unfinished, "no case was run"},
		{"a part not run", []runner.Result{pass, skip}, format.Unfinished, "not run: midnight: starting nosuch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := &runner.Report{Target: runner.TargetInfo{Implementation: runner.Implementation{Name: "x"}}, Results: c.results}
			if c.name == "a part not run" {
				rep.NotRun = []string{"midnight: starting nosuch: executable file not found"}
			}
			if got := Status(rep); got != c.want {
				t.Fatalf("Status %v, want %v", got, c.want)
			}
			var tb, md, js bytes.Buffer
			WriteTable(&tb, rep, false)
			WriteMarkdown(&md, rep)
			WriteJSON(&js, rep)
			lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(tb.String(), "\n\t", "\t")), "\n")
			last := lines[len(lines)-1]
			if word, _, _ := strings.Cut(last, "\t"); word != c.want.Word() || !strings.Contains(last, c.why) {
				t.Errorf("summary %q, want %q first and %q", last, c.want.Word(), c.why)
			}
			if !strings.HasPrefix(md.String(), "## "+c.want.Icon()+" ") {
				t.Errorf("markdown starts %q", md.String()[:20])
			}
			jl := strings.Split(strings.TrimSpace(js.String()), "\n")
			var f JSONFooter
			if err := json.Unmarshal([]byte(jl[len(jl)-1]), &f); err != nil || f.Status != c.want.Word() {
				t.Errorf("JSON footer %s (%v)", jl[len(jl)-1], err)
			}
			var ju bytes.Buffer
			WriteJUnit(&ju, rep)
			var parsed junitSuites
			if err := xml.Unmarshal(ju.Bytes(), &parsed); err != nil {
				t.Fatal(err)
			}
			sf, se := 0, 0
			for _, s := range parsed.Suites {
				sf, se = sf+s.Fail, se+s.Errors
			}
			if parsed.Fail != sf || parsed.Errors != se {
				t.Errorf("JUnit root failures=%d errors=%d, suites %d and %d", parsed.Fail, parsed.Errors, sf, se)
			}
		})
	}
}

// What a CI shows (issue 16): JUnit names carry the id and the start of the case's about, with the
// file and line; markdown's summaries carry the about; the heading names the tool once; go-cmp's
// non-breaking spaces reach no report a person copies from.
func TestNamesACIShows(t *testing.T) {
	c := conformancetest.Cases(t, conformance.Chunk)[0]
	diff := "  []string{\n-\u00a0\t\"A short note\",\n+\u00a0\t\"a short note\",\n  }\n"
	rep := &runner.Report{Spec: "3.1.0", Target: runner.TargetInfo{Kind: "builtin", Implementation: runner.Implementation{Name: "lembas-check reference", Version: "0.1.0"}},
		Results: []runner.Result{{Case: c, Verdict: runner.Fail, Answer: json.RawMessage(`["a short note"]`), Diff: diff}}}

	var ju bytes.Buffer
	WriteJUnit(&ju, rep)
	var parsed junitSuites
	if err := xml.Unmarshal(ju.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	got := parsed.Suites[0].Cases[0]
	if want := c.ID + ": " + oneLine(c.About, 72); got.Name != want || !strings.HasPrefix(got.Name, "chunk/134b9ada: A text that fits is one piece") {
		t.Errorf("JUnit name %q, want %q", got.Name, want)
	}
	if got.File != "conformance/cases/chunk.json" || got.Line != c.Line || got.Line < 2 {
		t.Errorf("JUnit file %q line %d", got.File, got.Line)
	}
	// want and got as text, a line each, and their line diff (issue 27: one-line escaped JSON).
	if body := got.Failure.Body; !strings.Contains(body, "    want:\n        - |-\n") || !strings.Contains(body, "        + - a short note\n") {
		t.Errorf("JUnit body:\n%s", body)
	}
	// The case's CRs and trailing spaces are marked, the marks explained once (issue 27).
	if body := got.Failure.Body; !strings.Contains(body, "with CRLF␍\n") || strings.Count(body, textdiff.Legend) != 1 {
		t.Errorf("JUnit body without its whitespace marked:\n%s", body)
	}
	var dt bytes.Buffer
	other := *rep
	other.Results = []runner.Result{{Case: c, Verdict: runner.Pass, Answer: c.Expect}}
	writeFailing(&dt, Compare(rep, &other), Compare(rep, &other).Cases[0])
	if !strings.Contains(dt.String(), "with CRLF␍\n") || !strings.Contains(dt.String(), textdiff.Legend) {
		t.Errorf("diff's case without its whitespace marked:\n%s", dt.String())
	}
	if parsed.Name != "lembas-check reference 0.1.0 against harness spec 3.1.0" {
		t.Errorf("JUnit suites %q", parsed.Name)
	}

	var md bytes.Buffer
	WriteMarkdown(&md, rep)
	if !strings.HasPrefix(md.String(), "## ❌ lembas-check reference 0.1.0 against harness spec 3.1.0: 1 of 1 checked, 0 skipped\n") {
		t.Errorf("markdown heading %q", strings.SplitN(md.String(), "\n", 2)[0])
	}
	if !strings.Contains(md.String(), "<summary><code>"+c.ID+"</code> A text that fits is one piece") {
		t.Errorf("markdown summary without the about:\n%s", md.String())
	}

	var tb, js bytes.Buffer
	WriteTable(&tb, rep, false)
	WriteJSON(&js, rep)
	for name, out := range map[string]string{"table": tb.String(), "markdown": md.String(), "JUnit": ju.String(), "JSON": js.String()} {
		if strings.Contains(out, "\u00a0") || strings.Contains(out, `\u00a0`) {
			t.Errorf("%s carries go-cmp's non-breaking spaces", name)
		}
		if !strings.Contains(out, "- ") {
			t.Errorf("%s lost the diff's marks", name)
		}
	}

	// An implementation not named lembas-check is named after the tool.
	rep.Target.Implementation.Name = "LLeMbas server"
	if got := runName(rep); got != "lembas-check: LLeMbas server 0.1.0 against harness spec 3.1.0" {
		t.Errorf("%q", got)
	}
	// A scenario's file carries its line; JUnit gives the two apart.
	if got := (conformance.Label{File: "features/jobs.feature:12", Line: 12}).Path(); got != "features/jobs.feature" {
		t.Errorf("%q", got)
	}
	// The line survives a saved report.
	back, err := ReadJSON(&js)
	if err != nil || back.Results[0].Case.Line != c.Line {
		t.Errorf("read back line %d (%v)", back.Results[0].Case.Line, err)
	}
}

// Colour only where it is asked for: a term.Writer (a terminal without NO_COLOR) gets the verdict
// and diff lines painted; any other writer none.
func TestTableColour(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:2]
	rep := &runner.Report{Target: runner.TargetInfo{Implementation: runner.Implementation{Name: "x"}}, Results: []runner.Result{
		{Case: cases[0], Verdict: runner.Pass},
		{Case: cases[1], Verdict: runner.Fail, Diff: "  {\n-\t\"a\",\n+\t\"b\",\n  \t\"-e\",\n  }\n"}}}
	var plain bytes.Buffer
	WriteTable(&plain, rep, false)
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("colour in a plain writer:\n%q", plain.String())
	}
	var b bytes.Buffer
	WriteTable(term.Writer{Writer: &b}, rep, false)
	s := b.String()
	for _, want := range []string{"\x1b[31m--- FAIL:\x1b[0m", "\x1b[31m-\t\"a\",\x1b[0m", "\x1b[32m+\t\"b\",\x1b[0m", "\n          \t\"-e\",\n", "\x1b[31mFAIL\x1b[0m\t2 of 2 checked, 0 skipped\tx\t"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%q", want, s)
		}
	}
}

// A saved report is read as every JSON-lines input here (jsonx.ReadLine): a bad line is quoted
// as every message quotes one (format.Quote: it was cut at 80 characters), and a line over
// 64 MiB says so (it said "bufio.Scanner: token too long").
func TestReadJSONNamesTheBadLine(t *testing.T) {
	long := strings.Repeat("x", 150)
	if _, err := ReadJSON(strings.NewReader("\n" + long + "\n")); err == nil || !strings.HasSuffix(err.Error(), `line 2: not a JSON report line (invalid character 'x' looking for beginning of value): "`+long+`"`) {
		t.Errorf("a line that is not JSON: %v", err)
	}
	huge := `{"type":"case","message":"` + strings.Repeat("x", 64<<20) + `"}`
	if _, err := ReadJSON(strings.NewReader(huge + "\n")); err == nil || !strings.HasPrefix(err.Error(), `line 1 is over 64 MiB: "{\"type\":\"case\"`) {
		t.Errorf("a line over 64 MiB: %.200v", err)
	}
}

// A case's about in a cell: on one line, cut after max characters with an ellipsis, never inside
// one.
func TestOneLine(t *testing.T) {
	for _, c := range []struct {
		s    string
		max  int
		want string
	}{{"a\n  b\tc", 10, "a b c"}, {"ééééé", 4, "ééé…"}, {"four", 4, "four"}} {
		if got := oneLine(c.s, c.max); got != c.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
		}
	}
}

// Every format's first line says how much was checked (issue 21: `ok … 257 skip` read as a full
// run): the table's summary, markdown's heading, JUnit's first line, the JSON footer's numbers.
func TestCoverageInEveryFormat(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:3]
	rep := &runner.Report{Target: runner.TargetInfo{Implementation: runner.Implementation{Name: "x"}}, Results: []runner.Result{
		{Case: cases[0], Verdict: runner.Pass}, {Case: cases[1], Verdict: runner.Skip}, {Case: cases[2], Verdict: runner.Skip}}}
	const want = "1 of 3 checked, 2 skipped"
	if got := Headline(rep); got != "ok "+want {
		t.Errorf("Headline %q", got)
	}
	var tb, md, ju, js bytes.Buffer
	WriteTable(&tb, rep, false)
	WriteMarkdown(&md, rep)
	WriteJUnit(&ju, rep)
	WriteJSON(&js, rep)
	lines := strings.Split(strings.TrimSpace(tb.String()), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "ok\t"+want+"\tx\t1 pass, 0 fail, 0 xfail\t") {
		t.Errorf("table summary %q", last)
	}
	if first, _, _ := strings.Cut(md.String(), "\n"); first != "## ✅ lembas-check: x against harness spec : "+want {
		t.Errorf("markdown heading %q", first)
	}
	if second := strings.Split(ju.String(), "\n")[1]; second != "<!-- ok "+want+" -->" {
		t.Errorf("JUnit's first line %q", second)
	}
	jl := strings.Split(strings.TrimSpace(js.String()), "\n")
	var f JSONFooter
	if err := json.Unmarshal([]byte(jl[len(jl)-1]), &f); err != nil || f.Checked != 1 || f.Skipped != 2 || f.Cases != 3 || f.Failed || f.Exit != 0 || f.Interrupted {
		t.Errorf("JSON footer %s (%v)", jl[len(jl)-1], err)
	}
}

// A malformed case was not sent: it is not counted as checked, nor as a failure of the target,
// but in a column of its own, and it fails the run; a run of nothing but malformed cases and
// skips checked nothing (exit 2). Before, the table counted it in Fail and the headline as
// checked ("471 of 471 checked" for a suite with a broken file).
func TestMalformedIsNotChecked(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:3]
	rep := &runner.Report{Target: runner.TargetInfo{Implementation: runner.Implementation{Name: "x"}}, Results: []runner.Result{
		{Case: cases[0], Verdict: runner.Pass}, {Case: cases[1], Verdict: runner.Malformed, Message: "jobs.json:3: case 1"},
		{Case: cases[2], Verdict: runner.Skip}}}
	const want = "1 of 3 checked, 1 skipped, 1 malformed"
	if got := Headline(rep); got != "FAIL "+want {
		t.Errorf("Headline %q", got)
	}
	var tb, md, js bytes.Buffer
	WriteTable(&tb, rep, false)
	WriteMarkdown(&md, rep)
	WriteJSON(&js, rep)
	lines := strings.Split(strings.TrimSpace(tb.String()), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "FAIL\t"+want+"\tx\t1 pass, 0 fail, 0 xfail\t") {
		t.Errorf("table summary %q", last)
	}
	if !strings.Contains(tb.String(), "Malformed") || !strings.Contains(tb.String(), "--- MALFORMED: "+cases[1].ID) {
		t.Errorf("no Malformed column or heading:\n%s", tb.String())
	}
	if !strings.Contains(md.String(), "| Area | Cases | Pass | Fail | XFail | Skip | Malformed | Time |\n") ||
		!strings.Contains(md.String(), "| jobs | 3 | 1 | 0 | 0 | 1 | 1 |") {
		t.Errorf("markdown table:\n%s", md.String())
	}
	jl := strings.Split(strings.TrimSpace(js.String()), "\n")
	var f JSONFooter
	if err := json.Unmarshal([]byte(jl[len(jl)-1]), &f); err != nil || f.Checked != 1 || f.Cases != 3 || !f.Failed || f.Exit != 1 {
		t.Errorf("JSON footer %s (%v)", jl[len(jl)-1], err)
	}
	rep.Results[0].Verdict = runner.Skip
	if st, reason := Status(rep), why(rep); st != format.Unfinished || reason != "no case was checked: 1 of 3 cases are malformed and the target skipped the rest" {
		t.Errorf("only malformed and skipped: %v, %q", st, reason)
	}
	rep.Results = rep.Results[1:2]
	if st, reason := Status(rep), why(rep); st != format.Unfinished || reason != "no case was checked: every case (1) is malformed" {
		t.Errorf("only malformed: %v, %q", st, reason)
	}
}

// -v shows what each pass rests on, in its line (issue 21: live -v printed nothing for a pass).
func TestVerboseTableShowsEvidence(t *testing.T) {
	c := conformance.Case{Label: conformance.Label{ID: "live/midnight/tools", Area: "live"}}
	rep := &runner.Report{Results: []runner.Result{{Case: c, Verdict: runner.Pass, Evidence: "4 requests compared (2←1, 3←2, 4←3, 5←4)"}}}
	var b bytes.Buffer
	WriteTable(&b, rep, true)
	if !strings.Contains(b.String(), "--- PASS: live/midnight/tools (0.0ms): 4 requests compared (2←1, 3←2, 4←3, 5←4)\n") {
		t.Errorf("no evidence:\n%s", b.String())
	}
}

// A run that streamed its verdicts to stdout (Output.Stream) ends there with the table and the
// summary, each failure shown once; a --out file keeps them all, in the cases' order; stdout
// that is a JSON report gets no stream.
func TestStreamedRunShowsEachFailureOnce(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:3]
	target := scripted{areas: []string{"jobs"}, answers: map[string]runner.Outcome{cases[1].ID: {Answer: json.RawMessage(`{"text":"x"}`)}}}
	o := Output{Output: format.Output{Format: "table"}}
	var stdout bytes.Buffer
	rep, err := runCases(context.Background(), target, cases, runner.Options{Stream: o.Stream(&stdout)})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Write(&stdout, &bytes.Buffer{}, rep, nil, "case"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stdout.String(), "--- FAIL: "+cases[1].ID); n != 1 {
		t.Errorf("stdout shows the failure %d times:\n%s", n, stdout.String())
	}
	if !strings.Contains(stdout.String(), "FAIL\t") {
		t.Errorf("no summary:\n%s", stdout.String())
	}
	if (Output{Output: format.Output{Format: "json"}}).Stream(&stdout) != nil {
		t.Error("a JSON report on stdout is streamed into")
	}
}

// JUnit of a whole run names no case by its id alone, and each file is a path in the repository
// (issue 27: 80 of 267 names were a hash, files "spec 3.1.0:jobs.json").
func TestJUnitOfAFullRunNamesEveryCase(t *testing.T) {
	rep, err := runCases(context.Background(), runner.Builtin{}, conformance.Embedded(), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ju bytes.Buffer
	if err := WriteJUnit(&ju, rep); err != nil {
		t.Fatal(err)
	}
	var parsed junitSuites
	if err := xml.Unmarshal(ju.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range parsed.Suites {
		for _, c := range s.Cases {
			n++
			if id, title, _ := strings.Cut(c.Name, ": "); title == "" || strings.Contains(id, " ") {
				t.Errorf("JUnit name %q: want the id and a title", c.Name)
			}
			if _, err := os.Stat(filepath.Join("..", "..", c.File)); err != nil || c.Line == 0 {
				t.Errorf("%s: file %q line %d is not a place in the repository", c.Name, c.File, c.Line)
			}
		}
	}
	if n != len(rep.Results) {
		t.Errorf("%d JUnit cases of %d results", n, len(rep.Results))
	}
}
