// Package report writes what a run and a diff found, for people (tables, markdown, an HTML page)
// and machines (JSON lines, JUnit XML); reads a saved JSON report back; and lines two reports up
// case by case (Compare). It imports runner for the report's types; runner and its targets never
// import it, so a target cannot depend on how it is reported.
package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/coverage"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/term"
	"github.com/LLeMbas/lembas-check/internal/textdiff"
	"github.com/LLeMbas/lembas-check/runner"
)

// Formats are the formats a run's report is written in, the table first.
var Formats = format.Formats[*runner.Report]{
	{Name: "table", Write: WriteTable},
	{Name: "json", About: "JSON lines", Write: func(w io.Writer, r *runner.Report, _ bool) error {
		return WriteJSON(w,
			r)
	}},
	{Name: "junit", About: "JUnit XML", Write: func(w io.Writer, r *runner.Report, _ bool) error {
		return WriteJUnit(w,
			r)
	}},
	{Name: "markdown", About: "for $GITHUB_STEP_SUMMARY", Write: func(w io.Writer, r *runner.Report, _ bool) error {
		return cappedMarkdown(w, func(w io.Writer) error { return WriteMarkdown(w, r) })
	}},
}

// Write writes a report in one of Formats. verbose adds passing cases to the table format.
func Write(w io.Writer, r *runner.Report, name string, verbose bool) error {
	return Formats.Write(w, name, r, verbose)
}

// Status is how the run ended: unfinished when a case was interrupted, a part of the run could
// not be made (NotRun), or no case was checked at all (every one skipped: a gate that checked
// nothing does not pass), failed when a verdict fails the run, else ok.
func Status(r *runner.Report) format.Status {
	n := count(r.Results)
	switch {
	case n.interrupted > 0 || n.checked() == 0 || len(r.NotRun) > 0:
		return format.Unfinished
	case r.Failed():
		return format.Failed
	}
	return format.OK
}

// why says what a status that is not plain needs said: the run interrupted, nothing checked.
func why(r *runner.Report) string {
	n := count(r.Results)
	switch {
	case n.interrupted > 0:
		return fmt.Sprintf("the run was interrupted: %d of %d cases were not finished", n.interrupted, len(r.Results))
	case len(r.NotRun) > 0:
		return "not run: " + strings.Join(r.NotRun, "; ")
	case len(r.Results) == 0:
		return "no case was run"
	case n.checked() == 0 && n.malformed == len(r.Results):
		return fmt.Sprintf("no case was checked: every case (%d) is malformed", n.malformed)
	case n.checked() == 0 && n.malformed > 0:
		return fmt.Sprintf("no case was checked: %d of %d cases are malformed and the target skipped the rest",
			n.malformed, len(r.Results))
	case n.checked() == 0:
		return "no case was checked: the target skipped every one"
	}
	return ""
}

// tally counts a run's verdicts in the columns of its summary.
type tally struct {
	pass, fail, xfail, skip, interrupted int
	malformed                            int // cases that could not be read: not sent, not checked
	unlisted                             int // skips --expect does not list (also in skip)
	d                                    time.Duration
}

func (t tally) checked() int { return t.pass + t.fail + t.xfail }

func count(rs []runner.Result) tally {
	var t tally
	for _, x := range rs {
		t.d += x.Duration
		switch x.Verdict {
		case runner.Pass:
			t.pass++
		case runner.Skip:
			t.skip++
		case runner.UnlistedSkip:
			// Not checked, and failing the run: a skip in the counts, named in the summary.
			t.skip++
			t.unlisted++
		case runner.XFail:
			t.xfail++
		case runner.Interrupted:
			t.interrupted++
		case runner.Malformed:
			t.malformed++
		default:
			t.fail++
		}
	}
	return t
}

// columns are a summary table's count columns: Malformed and Interrupted only when the run has
// such cases, so that every row adds up to its cases.
type columns struct{ malformed, interrupted bool }

func (t tally) columns() columns { return columns{t.malformed > 0, t.interrupted > 0} }

func (c columns) names() []string {
	out := []string{"Cases", "Pass", "Fail", "XFail", "Skip"}
	if c.malformed {
		out = append(out, "Malformed")
	}
	if c.interrupted {
		out = append(out, "Interrupted")
	}
	return out
}

// row is a tally as a table's cells, in the columns c.
func (t tally) row(cases int, c columns) []any {
	row := []any{cases, t.pass, t.fail, t.xfail, t.skip}
	if c.malformed {
		row = append(row, t.malformed)
	}
	if c.interrupted {
		row = append(row, t.interrupted)
	}
	return row
}

// WriteTable writes what a person reads: each failure as `go test` shows one (the case, want, got
// and the diff), then a summary per area, then one line (Summary).
func WriteTable(w io.Writer, r *runner.Report, verbose bool) error {
	return writeTable(w, r, verbose, true)
}

// writeTable is WriteTable; without results it leaves out what a person was shown as each case
// ended (runner.Options.Stream), so a streamed run does not show its failures twice.
func writeTable(w io.Writer, r *runner.Report, verbose, results bool) error {
	for _, x := range r.Results {
		if results {
			x.WriteShown(w, verbose)
		}
	}
	if len(r.Results) == 0 {
		// A run not made (runner.NotMade): no table of nothing, the summary says why.
		return WriteSummary(w, r)
	}
	all := count(r.Results)
	cols := all.columns()
	t := table.New(w, 1)
	header := []any{"Area"}
	for _, c := range cols.names() {
		header = append(header, c)
	}
	t.Header(append(header, "Time")...)
	names, by := r.ByArea()
	for _, a := range names {
		n := count(by[a])
		if err := t.Append(append(append([]any{a}, n.row(len(by[a]), cols)...), table.Millis(n.d))...); err != nil {
			return err
		}
	}
	t.Footer(append(append([]any{"all"}, all.row(len(r.Results), cols)...), table.Millis(r.Duration))...)
	if err := t.Render(); err != nil {
		return err
	}
	if r.CloseErr != "" {
		fmt.Fprintf(w, "warning: %s\n", r.CloseErr)
	}
	return WriteSummary(w, r)
}

// Coverage says how much of the run was checked: "10 of 267 checked, 257 skipped" (and how
// many were malformed or interrupted). Every format's first line carries it, so a run that
// checks little is not read as a run that checks much.
func Coverage(r *runner.Report) string {
	n := count(r.Results)
	s := fmt.Sprintf("%d of %d checked, %d skipped", n.checked(), len(r.Results), n.skip)
	if n.malformed > 0 {
		s += fmt.Sprintf(", %d malformed", n.malformed)
	}
	if n.interrupted > 0 {
		s += fmt.Sprintf(", %d interrupted", n.interrupted)
	}
	return s
}

// Headline is the status word and the coverage: "ok 10 of 267 checked, 257 skipped".
func Headline(r *runner.Report) string { return Status(r).Word() + " " + Coverage(r) }

// WriteSummary writes the run's last line: the status word, the coverage, the target, the
// verdict counts, the time, and why when the run is unfinished.
func WriteSummary(w io.Writer, r *runner.Report) error {
	n := count(r.Results)
	s := fmt.Sprintf("%s\t%s\t%s\t%d pass, %d fail, %d xfail", Status(r).Word(), Coverage(r), r.Target.Name(), n.pass,
		n.fail, n.xfail)
	if n.unlisted > 0 {
		s += fmt.Sprintf(", %d skipped unlisted in --expect", n.unlisted)
	}
	s += "\t" + table.Millis(r.Duration)
	if reason := why(r); reason != "" {
		s += "\t" + reason
	}
	_, err := fmt.Fprintln(w, term.Line(w, s))
	return err
}

// UnlistedSkips names the skips an expectations file does not list ("" when there are none), for
// stderr: the first ten ids, and what to do.
func UnlistedSkips(r *runner.Report) string {
	var ids []string
	for _, x := range r.Results {
		if x.Verdict == runner.UnlistedSkip {
			ids = append(ids, x.Case.ID)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	n := len(ids)
	if n > 10 {
		ids = append(ids[:10], "…")
	}
	return fmt.Sprintf("%d skipped cases it does not list fail the run: %s (list each as `ID skip WHY`, or start a "+
		"baseline with --write-expect FILE)", n, strings.Join(ids, ", "))
}

// JSON lines: a header, one line per case, a footer. The same shape is read back by ReadJSON, so
// a saved report can stand for an implementation in `lembas-check diff`.

// JSONHeader is the first line of a JSON report.
type JSONHeader struct {
	Type    string            `json:"type"` // "header"
	Tool    string            `json:"tool"`
	Version string            `json:"version"`
	Spec    string            `json:"spec"`
	Target  runner.TargetInfo `json:"target"`
	Started time.Time         `json:"started"`
}

// JSONCase is one case's line: the case's label embedded, so its keys stand where they stand in
// `lembas-check list --format json`, after "type".
type JSONCase struct {
	Type string `json:"type"` // "case"
	conformance.Label
	Verdict  runner.Verdict  `json:"verdict"`
	Case     json.RawMessage `json:"case,omitempty"`
	Expect   json.RawMessage `json:"expect"`
	Answer   json.RawMessage `json:"answer"`
	Diff     string          `json:"diff"`
	Message  string          `json:"message,omitempty"`
	Expected string          `json:"expected_failure,omitempty"`
	Stderr   string          `json:"stderr,omitempty"`
	MS       float64         `json:"ms"`
}

// JSONFooter is the last line: the footer every command writes (format.Footer: status, exit,
// failed, interrupted, counts by verdict, error) and the run's own fields.
type JSONFooter struct {
	format.Footer
	Cases int `json:"cases"`
	// Checked and Skipped are the coverage line's numbers (Coverage).
	Checked int     `json:"checked"`
	Skipped int     `json:"skipped"`
	MS      float64 `json:"ms"`
	// CloseErr is what closing the target said when it failed (an adapter slow to exit).
	CloseErr string `json:"close_error,omitempty"`
	// NotRun is what of the run could not be made (runner.Report.NotRun).
	NotRun []string `json:"not_run,omitempty"`
}

// WriteJSON writes the report as JSON lines.
func WriteJSON(w io.Writer, r *runner.Report) error {
	enc := jsonx.NewEncoder(w)
	if err := enc.Encode(JSONHeader{Type: "header", Tool: r.Tool, Version: r.Version, Spec: r.Spec, Target: r.Target,
		Started: r.Started}); err != nil {
		return err
	}
	for _, x := range r.Results {
		answer := x.Answer
		if answer == nil {
			answer = json.RawMessage("null")
		}
		if err := enc.Encode(JSONCase{
			Type: "case", Label: x.Case.Label,
			Verdict: x.Verdict, Case: x.Case.Input, Expect: x.Case.Expect, Answer: answer, Diff: textdiff.Plain(x.Diff),
			Message: x.Message, Expected: x.Expected, Stderr: x.Stderr, MS: msf(x.Duration),
		}); err != nil {
			return err
		}
	}
	counts := map[string]int{}
	for v, n := range r.Counts() {
		counts[string(v)] = n
	}
	n := count(r.Results)
	return enc.Encode(JSONFooter{
		Footer: format.NewFooter(Status(r), n.interrupted > 0, counts, why(r)),
		Cases:  len(r.Results), Checked: n.checked(), Skipped: n.skip, MS: msf(r.Duration), CloseErr: r.CloseErr,
		NotRun: r.NotRun,
	})
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// maxReportLine bounds a line ReadJSON reads.
const maxReportLine = 64 << 20

// ReadJSON reads a report written by WriteJSON. A line cut short or not JSON is an error naming it.
func ReadJSON(rd io.Reader) (*runner.Report, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	rep := &runner.Report{}
	sawHeader, sawFooter := false, false
	for n, eof := 1, false; !eof; n++ {
		line, err := jsonx.ReadLine(br, maxReportLine)
		var long *jsonx.LineTooLong
		switch {
		case errors.As(err, &long):
			return nil, fmt.Errorf("line %d is over %d MiB: %s…", n, maxReportLine>>20, format.Quote(long.Head))
		case errors.Is(err, io.EOF):
			eof = true
		case err != nil:
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var probe struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			return nil, fmt.Errorf("line %d: not a JSON report line (%v): %s", n, err, format.Quote(line))
		}
		switch probe.Type {
		case "header":
			var h JSONHeader
			if err := json.Unmarshal(line, &h); err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			rep.Tool, rep.Version, rep.Spec, rep.Target, rep.Started = h.Tool, h.Version, h.Spec, h.Target, h.Started
			sawHeader = true
		case "case":
			var c JSONCase
			if err := json.Unmarshal(line, &c); err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			answer := c.Answer
			if string(answer) == "null" && c.Verdict != runner.Pass && c.Verdict != runner.Fail &&
				c.Verdict != runner.XFail && c.Verdict != runner.XPass {
				answer = nil
			}
			rep.Results = append(rep.Results, runner.Result{
				Case:    conformance.Case{Label: c.Label, Input: c.Case, Expect: c.Expect},
				Verdict: c.Verdict, Answer: answer, Diff: c.Diff, Message: c.Message, Expected: c.Expected,
				Stderr:   c.Stderr,
				Duration: time.Duration(c.MS * float64(time.Millisecond)),
			})
		case "footer":
			var f JSONFooter
			if err := json.Unmarshal(line, &f); err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			rep.Duration = time.Duration(f.MS * float64(time.Millisecond))
			rep.CloseErr, rep.NotRun = f.CloseErr, f.NotRun
			sawFooter = true
		default:
			return nil, fmt.Errorf("line %d: unknown line type %q", n, probe.Type)
		}
	}
	if !sawHeader {
		return nil, fmt.Errorf("no header line: not a report written by `lembas-check run --format json`")
	}
	if !sawFooter {
		return rep, fmt.Errorf("no footer line: the report was cut short after %d cases", len(rep.Results))
	}
	return rep, nil
}

// JUnit XML, as CI systems read it: one testsuite per area, a testcase per case.

type junitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	Name    string   `xml:"name,attr"`
	junitCounts
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name string `xml:"name,attr"`
	junitCounts
	Cases []junitCase `xml:"testcase"`
}

// junitCounts are the attributes a testsuites and a testsuite both carry.
type junitCounts struct {
	Tests   int    `xml:"tests,attr"`
	Fail    int    `xml:"failures,attr"`
	Errors  int    `xml:"errors,attr"`
	Skipped int    `xml:"skipped,attr"`
	Time    string `xml:"time,attr"`
}

// add counts a suite's tests into the whole run's (its time is the run's own).
func (n *junitCounts) add(o junitCounts) {
	n.Tests += o.Tests
	n.Fail += o.Fail
	n.Errors += o.Errors
	n.Skipped += o.Skipped
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
	SystemErr string        `xml:"system-err,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit writes JUnit XML.
func WriteJUnit(w io.Writer, r *runner.Report) error {
	names, by := r.ByArea()
	out := junitSuites{Name: runName(r), junitCounts: junitCounts{Time: secs(r.Duration)}}
	for _, a := range names {
		s := junitSuite{Name: a}
		var d time.Duration
		for _, x := range by[a] {
			d += x.Duration
			c := junitCase{Name: caseName(x.Case), Classname: "lembas-check." + a, File: x.Case.Path(),
				Line: x.Case.Line, Time: secs(x.Duration)}
			body := x.FailureText()
			switch x.Verdict {
			case runner.Pass:
			case runner.Skip:
				c.Skipped = &junitSkipped{Message: x.Message}
				s.Skipped++
			case runner.XFail:
				c.SystemOut = "expected failure (" + x.Expected + ")\n" + body
			case runner.Fail, runner.XPass, runner.UnlistedSkip:
				c.Failure = &junitFailure{Message: firstLine(x), Type: string(x.Verdict), Body: body}
				s.Fail++
			default:
				c.Error = &junitFailure{Message: firstLine(x), Type: string(x.Verdict), Body: body}
				s.Errors++
			}
			if x.Stderr != "" {
				c.SystemErr = x.Stderr
			}
			s.Cases = append(s.Cases, c)
		}
		s.Tests, s.Time = len(by[a]), secs(d)
		out.add(s.junitCounts)
		out.Suites = append(out.Suites, s)
	}
	if len(r.NotRun) > 0 {
		// What could not be run is an error a CI's test view shows, not an absence.
		s := junitSuite{Name: "lembas-check", junitCounts: junitCounts{Time: secs(0)}}
		for _, why := range r.NotRun {
			s.Cases = append(s.Cases, junitCase{Name: "not run", Classname: "lembas-check.run", Time: secs(0),
				Error: &junitFailure{Message: "not run: " + why, Type: "not run", Body: why}})
			s.Tests++
			s.Errors++
		}
		out.add(s.junitCounts)
		out.Suites = append(out.Suites, s)
	}
	io.WriteString(w, xml.Header)
	// The coverage as a comment on the first line after the declaration: a person opening the
	// file reads it first, and no JUnit reader minds it.
	fmt.Fprintf(w, "<!-- %s -->\n", strings.ReplaceAll(Headline(r), "--", "- -"))
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// caseName is how a CI's test view names a case: its id and its title (conformance.Case.Title:
// its about, or what it asks) — "chunk/134b9ada: A text that fits is one piece, CRLF read as LF…".
func caseName(c conformance.Case) string {
	if title := c.Title(); title != "" {
		return c.ID + ": " + oneLine(title, 72)
	}
	return c.ID
}

// runName names a run in a heading: what was checked against which spec, the tool named once
// ("lembas-check reference 0.1.0", not "lembas-check: lembas-check reference 0.1.0").
func runName(r *runner.Report) string {
	name := r.Target.Name()
	if !strings.HasPrefix(name, "lembas-check") {
		name = "lembas-check: " + name
	}
	return name + " against harness spec " + r.Spec
}

func firstLine(x runner.Result) string {
	switch {
	case x.ExpectNote() != "":
		return x.ExpectNote()
	case x.Message != "":
		return string(x.Verdict) + ": " + x.Message
	}
	return x.Case.Where() + ": the answer differs from the expectation"
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteMarkdown writes a summary that fits $GITHUB_STEP_SUMMARY: the per-area table, then each
// failure folded in a <details>.
func WriteMarkdown(w io.Writer, r *runner.Report) error {
	fmt.Fprintf(w, "## %s %s: %s\n\n", Status(r).Icon(), format.MarkdownCell(runName(r)), Coverage(r))
	if reason := why(r); reason != "" {
		fmt.Fprintf(w, "**%s**\n\n", format.MarkdownCell(reason))
	}
	if r.CloseErr != "" {
		fmt.Fprintf(w, "warning: %s\n\n", format.MarkdownCell(r.CloseErr))
	}
	if len(r.Results) == 0 {
		return nil // a run not made: the heading and why say it all
	}
	all := count(r.Results)
	cols := all.columns()
	head := "| Area | " + strings.Join(cols.names(), " | ") + " |"
	fmt.Fprintln(w, head+" Time |")
	fmt.Fprintln(w, "|---"+strings.Repeat("|--:", strings.Count(head, "|")-1)+"|")
	mdRow := func(name string, n tally, cases int, d time.Duration, bold bool) {
		var b strings.Builder
		b.WriteString("| " + name + " |")
		for _, v := range n.row(cases, cols) {
			if bold {
				fmt.Fprintf(&b, " **%v** |", v)
			} else {
				fmt.Fprintf(&b, " %v |", v)
			}
		}
		fmt.Fprintf(&b, " %s |", table.Millis(d))
		fmt.Fprintln(w, b.String())
	}
	names, by := r.ByArea()
	for _, a := range names {
		n := count(by[a])
		mdRow(a, n, len(by[a]), n.d, false)
	}
	mdRow("**all**", all, len(r.Results), r.Duration, true)
	fmt.Fprintf(w, "\nSpec coverage: %s (`lembas-check spec coverage`).\n\n", coverage.Load().Summarize().Line())
	var failed []runner.Result
	for _, x := range r.Results {
		if x.Verdict.Failed() {
			failed = append(failed, x)
		}
	}
	sort.SliceStable(failed, func(i, j int) bool { return failed[i].Case.ID < failed[j].Case.ID })
	for _, x := range failed {
		about := ""
		if title := x.Case.Title(); title != "" {
			about = " " + format.MarkdownCell(oneLine(title, 100)) + " —"
		}
		fmt.Fprintf(w, "<details><summary><code>%s</code>%s %s</summary>\n\n%s%s\n\n</details>\n\n", x.Case.ID, about,
			format.MarkdownCell(firstLine(x)), checks(x.Case.ID), format.MarkdownFence("", x.Failure()))
	}
	return nil
}

// maxChecks is how many of a failing case's statements its markdown names.
const maxChecks = 3

// checks says which statements of the spec a case holds an implementation to, from the coverage
// map, as markdown lines before its failure; "" for a case the map ties to none.
func checks(id string) string {
	st := coverage.ForCase(id)
	if len(st) == 0 {
		return ""
	}
	var b strings.Builder
	for i, e := range st {
		if i == maxChecks {
			fmt.Fprintf(&b, "- … and %d more (`lembas-check spec coverage`)\n", len(st)-maxChecks)
			break
		}
		fmt.Fprintf(&b, "- checks `%s:%d` (%s): %s\n", e.File, e.Line, format.MarkdownCell(e.Heading),
			format.MarkdownCell(oneLine(e.Text, 160)))
	}
	return b.String() + "\n"
}
