package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/term"
	"github.com/LLeMbas/lembas-check/internal/textdiff"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/selection"
)

// DiffVerdict is what became of one case between two implementations.
type DiffVerdict string

// The verdicts of a diff.
const (
	// Agree: the same answer (or, when neither answered, the same verdict).
	Agree DiffVerdict = "agree"
	// Disagree: different answers; the spec's expectation says who is right.
	Disagree DiffVerdict = "disagree"
	// OnlyInA: only a has something to say: b's run lacks the case, or b skipped it.
	OnlyInA DiffVerdict = "only in a"
	OnlyInB DiffVerdict = "only in b"
	// SkippedByBoth: neither side checked the case (both skipped it, or one skipped it and the
	// other's run lacks it): nothing was compared, so it does not count as agreeing.
	SkippedByBoth DiffVerdict = "skipped by both"
)

// Side is one implementation of a diff, as given on the command line and as it introduced itself.
type Side struct {
	Label  string            `json:"label"`
	Target runner.TargetInfo `json:"target"`
}

// DiffCase is one case lined up between the two reports.
type DiffCase struct {
	Case    conformance.Case
	Verdict DiffVerdict
	// Right is, for a disagreement, whose answer the spec's expectation backs: "a", "b" or
	// "neither".
	Right string
	// A and B are each side's result; nil for the side that lacks the case.
	A, B *runner.Result
	// Diff is go-cmp's report between the two answers, (-a +b), when both answered.
	Diff string
	// Note says what else is odd: the two reports expecting different answers.
	Note string
}

// Comparison is two reports lined up by case id.
type Comparison struct {
	A, B  Side
	Cases []DiffCase
}

// Compare lines up two reports by case id, a's order first, then the cases only b has.
func Compare(a, b *runner.Report) *Comparison {
	c := &Comparison{A: Side{Label: a.Target.Name(), Target: a.Target}, B: Side{Label: b.Target.Name(), Target: b.Target}}
	inB := map[string]*runner.Result{}
	for i := range b.Results {
		inB[b.Results[i].Case.ID] = &b.Results[i]
	}
	seen := map[string]bool{}
	for i := range a.Results {
		ra := &a.Results[i]
		seen[ra.Case.ID] = true
		c.Cases = append(c.Cases, compareOne(ra, inB[ra.Case.ID]))
	}
	for i := range b.Results {
		if rb := &b.Results[i]; !seen[rb.Case.ID] {
			c.Cases = append(c.Cases, compareOne(nil, rb))
		}
	}
	return c
}

func answered(r *runner.Result) bool { return r != nil && r.Answer != nil }

// gaveNothing says whether a side has nothing to compare: it skipped the case, or its run was
// interrupted before the case ended.
func gaveNothing(r *runner.Result) bool {
	return r.Verdict == runner.Skip || r.Verdict == runner.Interrupted
}

// compareOne judges one case. A skip on one side makes the case "only in" the other: that side
// gave nothing to compare (an area it does not implement is not a disagreement).
func compareOne(a, b *runner.Result) DiffCase {
	d := DiffCase{A: a, B: b}
	if a != nil {
		d.Case = a.Case
	} else {
		d.Case = b.Case
	}
	if a != nil && b != nil && len(b.Case.Expect) > 0 && conformance.Diff(a.Case.Expect, b.Case.Expect) != "" {
		d.Note = "the two reports expect different answers for this case (different suites?); a's expectation decides"
	}
	skipped := func(r *runner.Result) bool { return r == nil || r.Verdict == runner.Skip }
	switch {
	case skipped(a) && skipped(b):
		d.Verdict = SkippedByBoth
	case b == nil:
		d.Verdict = OnlyInA
	case a == nil:
		d.Verdict = OnlyInB
	case gaveNothing(b):
		d.Verdict = OnlyInA
	case gaveNothing(a):
		d.Verdict = OnlyInB
	case answered(a) && answered(b):
		d.Diff = conformance.Diff(a.Answer, b.Answer)
		d.Verdict = Agree
		if d.Diff != "" {
			d.Verdict = Disagree
		}
	case !answered(a) && !answered(b) && baseVerdict(a.Verdict) == baseVerdict(b.Verdict):
		d.Verdict = Agree
	default:
		d.Verdict = Disagree
	}
	d.Diff = textdiff.Plain(d.Diff)
	if d.Verdict == Disagree {
		right := func(r *runner.Result) bool { return answered(r) && conformance.Diff(d.Case.Expect, r.Answer) == "" }
		switch {
		case right(a):
			d.Right = "a"
		case right(b):
			d.Right = "b"
		default:
			d.Right = "neither"
		}
	}
	return d
}

// baseVerdict forgets an expectations file: an xfail that crashed is a crash.
func baseVerdict(v runner.Verdict) runner.Verdict {
	switch v {
	case runner.XFail:
		return runner.Fail
	case runner.XPass:
		return runner.Pass
	}
	return v
}

// Disagrees says whether any case disagrees.
func (c *Comparison) Disagrees() bool {
	for _, d := range c.Cases {
		if d.Verdict == Disagree {
			return true
		}
	}
	return false
}

// DiffCounts tallies a diff's cases.
type DiffCounts struct {
	Cases    int `json:"cases"`
	Agree    int `json:"agree"`
	Disagree int `json:"disagree"`
	ARight   int `json:"a_right"`
	BRight   int `json:"b_right"`
	Neither  int `json:"neither_right"`
	OnlyInA  int `json:"only_in_a"`
	OnlyInB  int `json:"only_in_b"`
	Skipped  int `json:"skipped_by_both"`
}

// CountDiff tallies cases.
func CountDiff(cases []DiffCase) DiffCounts {
	var n DiffCounts
	for _, d := range cases {
		n.Cases++
		switch d.Verdict {
		case Agree:
			n.Agree++
		case Disagree:
			n.Disagree++
			switch d.Right {
			case "a":
				n.ARight++
			case "b":
				n.BRight++
			default:
				n.Neither++
			}
		case OnlyInA:
			n.OnlyInA++
		case OnlyInB:
			n.OnlyInB++
		case SkippedByBoth:
			n.Skipped++
		}
	}
	return n
}

// ByArea groups the cases by area, areas in name order.
func (c *Comparison) ByArea() ([]string, map[string][]DiffCase) {
	m := map[string][]DiffCase{}
	for _, d := range c.Cases {
		m[d.Case.Area] = append(m[d.Case.Area], d)
	}
	names := make([]string, 0, len(m))
	for a := range m {
		names = append(names, a)
	}
	sort.Strings(names)
	return names, m
}

// Select keeps a saved report's results that the selection holds, as --area and --run choose the
// cases of a live run; a selection that holds none of them is an error naming it.
func Select(s selection.Selection, r *runner.Report) (*runner.Report, error) {
	kept, err := selection.Apply(s, r.Results, func(x runner.Result) conformance.Case { return x.Case })
	if err != nil {
		return nil, err
	}
	out := *r
	out.Results = kept
	return &out, nil
}

// DiffFormats are the formats a diff is written in, the table first.
var DiffFormats = format.Formats[*Comparison]{
	{Name: "table", Write: WriteDiffTable},
	{Name: "json", About: "JSON lines", Write: func(w io.Writer, c *Comparison, _ bool) error { return WriteDiffJSON(w, c) }},
	{Name: "markdown", About: "for $GITHUB_STEP_SUMMARY", Write: func(w io.Writer, c *Comparison, _ bool) error { return WriteDiffMarkdown(w, c) }},
	{Name: "html", About: "one self-contained page", Write: func(w io.Writer, c *Comparison, _ bool) error { return WriteDiffHTML(w, c) }},
}

// WriteDiff writes a comparison in one of DiffFormats. verbose lists the cases only one side has
// too (the table format).
func WriteDiff(w io.Writer, c *Comparison, name string, verbose bool) error {
	return DiffFormats.Write(w, name, c, verbose)
}

// DiffStatus is how a diff ended: unfinished when a side's run was interrupted or no case was
// compared at all (each was on one side only), failed on a disagreement, else ok.
func DiffStatus(c *Comparison) format.Status {
	n := CountDiff(c.Cases)
	switch {
	case c.interrupted() > 0 || n.Agree+n.Disagree == 0:
		return format.Unfinished
	case n.Disagree > 0:
		return format.Failed
	}
	return format.OK
}

// interrupted counts the cases a side's run did not finish.
func (c *Comparison) interrupted() int {
	n := 0
	for _, d := range c.Cases {
		for _, r := range []*runner.Result{d.A, d.B} {
			if r != nil && r.Verdict == runner.Interrupted {
				n++
				break
			}
		}
	}
	return n
}

// diffWhy says what an unfinished diff needs said.
func diffWhy(c *Comparison) string {
	n := CountDiff(c.Cases)
	switch {
	case c.interrupted() > 0:
		return fmt.Sprintf("interrupted: %d cases were not finished on one side or both", c.interrupted())
	case n.Agree+n.Disagree == 0:
		return "no case was compared: none was answered on both sides"
	}
	return ""
}

// String names a side: the implementation as it introduced itself, after what it was given as
// when that says more (a report's path).
func (s Side) String() string {
	name := s.Target.Name()
	if s.Label == "" || s.Label == name || s.Label == s.Target.Command || s.Label == s.Target.Kind {
		return name
	}
	return s.Label + " — " + name
}

// Short names a side in lists and verdicts: the implementation and its version, without its
// command ("LLeMbas server 3.1.0"), or what it was given as when it gave no name.
func (s Side) Short() string {
	name := s.Target.Implementation.Name
	if v := s.Target.Implementation.Version; v != "" {
		name += " " + v
	}
	if name == "" {
		return s.Label
	}
	return name
}

// side is the named side ("a" or "b") of the comparison.
func (c *Comparison) side(who string) Side {
	if who == "b" {
		return c.B
	}
	return c.A
}

// name is a side as lists and verdicts say it: "scripted (b)"; both the same name, only the
// letter says which.
func (c *Comparison) name(who string) string {
	if c.A.Short() == c.B.Short() {
		return who
	}
	return c.side(who).Short() + " (" + who + ")"
}

// Backs says whom the spec's expectation backs in a disagreement: "scripted (b)", or "neither".
func (c *Comparison) Backs(d DiffCase) string {
	if d.Right == "neither" || d.Right == "" {
		return "neither"
	}
	return c.name(d.Right)
}

// title is a diff case's one-line verdict: "agree", "disagree: the spec backs scripted (b)",
// "only in lembas-check reference 0.1.0 (a)".
func (c *Comparison) title(d DiffCase) string {
	switch d.Verdict {
	case Disagree:
		return "disagree: the spec backs " + c.Backs(d)
	case OnlyInA:
		return "only in " + c.name("a")
	case OnlyInB:
		return "only in " + c.name("b")
	}
	return string(d.Verdict)
}

// says is what one side did with a case in a few words: "the expected answer", "another
// answer", "crashed: exited (exit status 1)", "not in its run".
func says(r *runner.Result, expect []byte) string {
	switch {
	case r == nil:
		return "not in its run"
	case answered(r) && conformance.Diff(expect, r.Answer) == "":
		return "the expected answer"
	case answered(r):
		return "another answer"
	}
	s := string(baseVerdict(r.Verdict))
	if r.Message != "" {
		s += ": " + oneLine(r.Message, 60)
	}
	return s
}

// OnlyGroup is a set of one area's cases that are on one side only, or neither, for one reason.
type OnlyGroup struct {
	Area    string
	Verdict DiffVerdict
	// Why is the reason in words: "b skipped them: area not implemented", "not in b's run".
	Why string
	IDs []string
}

// OnlyReasons groups, per area, the cases only one side checked (or neither) by why: the other's
// skip message, its absence from the other's run, an interrupt.
func (c *Comparison) OnlyReasons() []OnlyGroup {
	var out []OnlyGroup
	at := map[string]int{}
	names, by := c.ByArea()
	for _, area := range names {
		for _, d := range by[area] {
			why := ""
			switch d.Verdict {
			case OnlyInA:
				why = c.lacks("b", d.B)
			case OnlyInB:
				why = c.lacks("a", d.A)
			case SkippedByBoth:
				why = c.lacks("a", d.A) + "; " + c.lacks("b", d.B)
			default:
				continue
			}
			key := area + "\x00" + string(d.Verdict) + "\x00" + why
			i, ok := at[key]
			if !ok {
				i = len(out)
				at[key] = i
				out = append(out, OnlyGroup{Area: area, Verdict: d.Verdict, Why: why})
			}
			out[i].IDs = append(out[i].IDs, d.Case.ID)
		}
	}
	return out
}

// lacks says why a side has nothing for a case.
func (c *Comparison) lacks(who string, r *runner.Result) string {
	switch {
	case r == nil:
		return "not in " + c.name(who) + "'s run"
	case r.Verdict == runner.Skip && r.Message != "":
		return c.name(who) + " skipped: " + r.Message
	case r.Verdict == runner.Skip:
		return c.name(who) + " skipped"
	case r.Verdict == runner.Interrupted:
		return c.name(who) + "'s run was interrupted"
	}
	return c.name(who) + ": " + string(r.Verdict)
}

// Disagreements are the cases that disagree, in the comparison's order.
func (c *Comparison) Disagreements() []DiffCase {
	var out []DiffCase
	for _, d := range c.Cases {
		if d.Verdict == Disagree {
			out = append(out, d)
		}
	}
	return out
}

// textLines is an answer as text (table.Text), line by line.
func textLines(raw []byte) []string {
	return strings.Split(table.Text(raw), "\n")
}

// AnswerDiff is the line diff of the two answers as text (-a +b); nil unless both answered.
func (d DiffCase) AnswerDiff() []textdiff.Line {
	if !answered(d.A) || !answered(d.B) {
		return nil
	}
	return textdiff.Lines(textLines(d.A.Answer), textLines(d.B.Answer))
}

// countsHeader and countsRow are the per-area counts as every format shows them.
var countsHeader = []string{"Area", "Cases", "Agree", "Disagree", "a right", "b right", "Neither", "Only in a", "Only in b", "Skipped by both"}

func countsRow(n DiffCounts) []any {
	return []any{n.Cases, n.Agree, n.Disagree, n.ARight, n.BRight, n.Neither, n.OnlyInA, n.OnlyInB, n.Skipped}
}

// WriteDiffTable writes what a person reads: both sides, a summary per area, the list of
// disagreements with whom the spec backs, why cases are on one side only, then each
// disagreement with both answers as text and their diff, then one line.
func WriteDiffTable(w io.Writer, c *Comparison, verbose bool) error {
	fmt.Fprintf(w, "a: %s\nb: %s\n", c.A, c.B)
	t := table.New(w, 1)
	head := make([]any, len(countsHeader))
	for i, h := range countsHeader {
		head[i] = h
	}
	t.Header(head...)
	names, by := c.ByArea()
	for _, a := range names {
		if err := t.Append(append([]any{a}, countsRow(CountDiff(by[a]))...)...); err != nil {
			return err
		}
	}
	t.Footer(append([]any{"all"}, countsRow(CountDiff(c.Cases))...)...)
	if err := t.Render(); err != nil {
		return err
	}
	if ds := c.Disagreements(); len(ds) > 0 {
		fmt.Fprintf(w, "\n%s\n", disagreeHeading(c, ds))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "  CASE\tSPEC BACKS\t%s\t%s\tABOUT\n", strings.ToUpper(c.name("a")), strings.ToUpper(c.name("b")))
		for _, d := range ds {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", d.Case.ID, c.Backs(d), says(d.A, d.Case.Expect), says(d.B, d.Case.Expect), oneLine(d.Case.About, 60))
		}
		tw.Flush()
	}
	if groups := c.OnlyReasons(); len(groups) > 0 {
		fmt.Fprintln(w, "\nChecked by one side only, or neither:")
		for _, g := range groups {
			line := fmt.Sprintf("  %s: %d %s — %s", g.Area, len(g.IDs), g.Verdict, g.Why)
			if verbose {
				line += ": " + strings.Join(g.IDs, ", ")
			}
			fmt.Fprintln(w, line)
		}
	}
	for _, d := range c.Disagreements() {
		fmt.Fprintln(w)
		writeDisagreement(w, c, d)
	}
	fmt.Fprintln(w, term.Line(w, summaryLine(c)))
	return nil
}

// disagreeHeading counts the disagreements by whom the spec backs.
func disagreeHeading(c *Comparison, ds []DiffCase) string {
	n := CountDiff(ds)
	return fmt.Sprintf("%d disagreement(s): the spec backs %s in %d, %s in %d, neither in %d", n.Disagree, c.name("a"), n.ARight, c.name("b"), n.BRight, n.Neither)
}

func summaryLine(c *Comparison) string {
	n := CountDiff(c.Cases)
	s := fmt.Sprintf("%s\t%d cases: %d agree, %d disagree (a right %d, b right %d, neither %d), %d only in a, %d only in b, %d skipped by both",
		DiffStatus(c).Word(), n.Cases, n.Agree, n.Disagree, n.ARight, n.BRight, n.Neither, n.OnlyInA, n.OnlyInB, n.Skipped)
	if reason := diffWhy(c); reason != "" {
		s += "\t" + reason
	}
	return s
}

// writeDisagreement writes one disagreement as `go test` writes a failure: the case, what it is
// about, the case and its expectation, each side's outcome, and the line diff of their answers.
func writeDisagreement(w io.Writer, c *Comparison, d DiffCase) {
	fmt.Fprintf(w, "%s %s — the spec backs %s\n", term.Word(w, "--- DISAGREE:"), d.Case.ID, c.Backs(d))
	fmt.Fprintf(w, "    %s\n", d.Case.Where())
	if d.Case.About != "" {
		fmt.Fprintf(w, "    %s\n", d.Case.About)
	}
	if d.Note != "" {
		fmt.Fprintf(w, "    note: %s\n", d.Note)
	}
	fmt.Fprintf(w, "    case:\n%s", table.Indent(table.Text(d.Case.Input), "        "))
	fmt.Fprintf(w, "    expect:\n%s", table.Indent(table.Text(d.Case.Expect), "        "))
	for _, who := range []string{"a", "b"} {
		r := d.A
		if who == "b" {
			r = d.B
		}
		fmt.Fprintf(w, "    %s: %s\n", c.name(who), sideText(r))
		if answered(r) {
			fmt.Fprint(w, table.Indent(table.Text(r.Answer), "        "))
		}
		if r != nil {
			runner.WriteStderr(w, "        ", r.Stderr)
		}
	}
	if lines := d.AnswerDiff(); lines != nil {
		fmt.Fprintf(w, "    diff (-a +b):\n")
		for _, l := range lines {
			fmt.Fprintf(w, "        %s\n", term.Diff(w, string(l.Op)+" "+l.Text))
		}
	}
}

// sideText is one side's outcome: its verdict and message.
func sideText(r *runner.Result) string {
	if r == nil {
		return "(not in this run)"
	}
	s := string(baseVerdict(r.Verdict))
	if r.Message != "" {
		s += ": " + r.Message
	}
	return s
}

// JSON lines: a header naming both sides, one line per case, a footer with the counts.

// DiffJSONSide is one side's outcome in a JSON diff line.
type DiffJSONSide struct {
	Verdict runner.Verdict  `json:"verdict"`
	Answer  json.RawMessage `json:"answer,omitempty"`
	Message string          `json:"message,omitempty"`
}

// DiffJSONCase is one case's line.
type DiffJSONCase struct {
	Type    string          `json:"type"` // "case"
	ID      string          `json:"id"`
	Area    string          `json:"area"`
	File    string          `json:"file"`
	Index   int             `json:"index"`
	Verdict DiffVerdict     `json:"verdict"`
	Right   string          `json:"right,omitempty"`
	Note    string          `json:"note,omitempty"`
	Case    json.RawMessage `json:"case,omitempty"`
	Expect  json.RawMessage `json:"expect,omitempty"`
	A       *DiffJSONSide   `json:"a"`
	B       *DiffJSONSide   `json:"b"`
	Diff    string          `json:"diff,omitempty"`
}

func jsonSide(r *runner.Result) *DiffJSONSide {
	if r == nil {
		return nil
	}
	return &DiffJSONSide{Verdict: r.Verdict, Answer: r.Answer, Message: r.Message}
}

// WriteDiffJSON writes the comparison as JSON lines.
func WriteDiffJSON(w io.Writer, c *Comparison) error {
	enc := json.NewEncoder(w)
	if err := enc.Encode(map[string]any{"type": "header", "tool": "lembas-check", "version": runner.ToolVersion, "spec": spec.Version(), "a": c.A, "b": c.B}); err != nil {
		return err
	}
	for _, d := range c.Cases {
		if err := enc.Encode(DiffJSONCase{Type: "case", ID: d.Case.ID, Area: d.Case.Area, File: d.Case.File, Index: d.Case.Index,
			Verdict: d.Verdict, Right: d.Right, Note: d.Note, Case: d.Case.Input, Expect: d.Case.Expect,
			A: jsonSide(d.A), B: jsonSide(d.B), Diff: d.Diff}); err != nil {
			return err
		}
	}
	return enc.Encode(struct {
		Type string `json:"type"`
		DiffCounts
		Disagree bool `json:"disagrees"`
	}{"footer", CountDiff(c.Cases), c.Disagrees()})
}

// WriteDiffMarkdown writes a summary that fits $GITHUB_STEP_SUMMARY, saying what the table says:
// both sides, the per-area counts, the disagreements with whom the spec backs, why cases are on
// one side only, then each disagreement folded in a <details>.
func WriteDiffMarkdown(w io.Writer, c *Comparison) error {
	fmt.Fprintf(w, "## %s lembas-check diff\n\n- **a**: %s\n- **b**: %s\n\n", DiffStatus(c).Icon(), format.MarkdownCell(c.A.String()), format.MarkdownCell(c.B.String()))
	if reason := diffWhy(c); reason != "" {
		fmt.Fprintf(w, "**%s**\n\n", format.MarkdownCell(reason))
	}
	fmt.Fprintln(w, "| "+strings.Join(countsHeader, " | ")+" |")
	fmt.Fprintln(w, "|---"+strings.Repeat("|--:", len(countsHeader)-1)+"|")
	row := func(name string, n DiffCounts) {
		var b strings.Builder
		b.WriteString("| " + name + " |")
		for _, v := range countsRow(n) {
			fmt.Fprintf(&b, " %v |", v)
		}
		fmt.Fprintln(w, b.String())
	}
	names, by := c.ByArea()
	for _, a := range names {
		row(a, CountDiff(by[a]))
	}
	row("**all**", CountDiff(c.Cases))
	fmt.Fprintln(w)
	if ds := c.Disagreements(); len(ds) > 0 {
		fmt.Fprintf(w, "### %s\n\n", format.MarkdownCell(disagreeHeading(c, ds)))
		fmt.Fprintf(w, "| Case | Spec backs | %s | %s | About |\n|---|---|---|---|---|\n", format.MarkdownCell(c.name("a")), format.MarkdownCell(c.name("b")))
		for _, d := range ds {
			fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s |\n", d.Case.ID, format.MarkdownCell(c.Backs(d)), format.MarkdownCell(says(d.A, d.Case.Expect)), format.MarkdownCell(says(d.B, d.Case.Expect)), format.MarkdownCell(oneLine(d.Case.About, 100)))
		}
		fmt.Fprintln(w)
	}
	if groups := c.OnlyReasons(); len(groups) > 0 {
		fmt.Fprintln(w, "### Checked by one side only, or neither")
		fmt.Fprintln(w)
		for _, g := range groups {
			fmt.Fprintf(w, "- **%s**: %d %s — %s\n", g.Area, len(g.IDs), g.Verdict, format.MarkdownCell(g.Why))
		}
		fmt.Fprintln(w)
	}
	for _, d := range c.Disagreements() {
		var b strings.Builder
		writeDisagreement(&b, c, d)
		fmt.Fprintf(w, "<details><summary><code>%s</code> — %s</summary>\n\n%s\n\n</details>\n\n", d.Case.ID, format.MarkdownCell(c.title(d)), format.MarkdownFence("", b.String()))
	}
	return nil
}
