package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
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
	switch {
	case b == nil:
		d.Verdict = OnlyInA
	case a == nil:
		d.Verdict = OnlyInB
	case a.Verdict == runner.Skip && b.Verdict == runner.Skip:
		d.Verdict = Agree
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
	f, err := DiffFormats.Lookup(name)
	if err != nil {
		return err
	}
	return f.Write(w, c, verbose)
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

// title is a diff case's one-line verdict: "agree", "disagree: b is right", "only in a".
func (d DiffCase) title() string {
	if d.Verdict != Disagree {
		return string(d.Verdict)
	}
	if d.Right == "neither" {
		return "disagree: neither is right"
	}
	return "disagree: " + d.Right + " is right"
}

// WriteDiffTable writes what a person reads: a summary per area, then each disagreement with both
// answers and their diff, then one line.
func WriteDiffTable(w io.Writer, c *Comparison, verbose bool) error {
	fmt.Fprintf(w, "a: %s\nb: %s\n", c.A, c.B)
	t := table.New(w, 1)
	t.Header("Area", "Cases", "Agree", "Disagree", "a right", "b right", "Neither", "Only in a", "Only in b")
	names, by := c.ByArea()
	for _, a := range names {
		n := CountDiff(by[a])
		if err := t.Append(a, n.Cases, n.Agree, n.Disagree, n.ARight, n.BRight, n.Neither, n.OnlyInA, n.OnlyInB); err != nil {
			return err
		}
	}
	n := CountDiff(c.Cases)
	t.Footer("all", n.Cases, n.Agree, n.Disagree, n.ARight, n.BRight, n.Neither, n.OnlyInA, n.OnlyInB)
	if err := t.Render(); err != nil {
		return err
	}
	for _, d := range c.Cases {
		switch {
		case d.Verdict == Disagree:
			writeDisagreement(w, d)
		case verbose && d.Verdict != Agree:
			fmt.Fprintf(w, "--- %s: %s%s\n", strings.ToUpper(string(d.Verdict)), d.Case.ID, onlyWhy(d))
		}
	}
	fmt.Fprintln(w, summaryLine(c))
	return nil
}

// onlyWhy says why a case is only on one side: the other's skip reason, or its absence.
func onlyWhy(d DiffCase) string {
	other, name := d.B, "b"
	if d.Verdict == OnlyInB {
		other, name = d.A, "a"
	}
	if other == nil {
		return " (not in " + name + "'s run)"
	}
	return fmt.Sprintf(" (%s skipped it: %s)", name, other.Message)
}

func summaryLine(c *Comparison) string {
	n := CountDiff(c.Cases)
	s := fmt.Sprintf("%s\t%d cases: %d agree, %d disagree (a right %d, b right %d, neither %d), %d only in a, %d only in b",
		DiffStatus(c).Word(), n.Cases, n.Agree, n.Disagree, n.ARight, n.BRight, n.Neither, n.OnlyInA, n.OnlyInB)
	if reason := diffWhy(c); reason != "" {
		s += "\t" + reason
	}
	return s
}

func writeDisagreement(w io.Writer, d DiffCase) {
	who := d.Right + " is right"
	if d.Right == "neither" {
		who = "neither is right"
	}
	fmt.Fprintf(w, "--- DISAGREE: %s (%s)\n", d.Case.ID, who)
	fmt.Fprintf(w, "    %s\n", d.Case.Where())
	if d.Case.About != "" {
		fmt.Fprintf(w, "    %s\n", d.Case.About)
	}
	if d.Note != "" {
		fmt.Fprintf(w, "    note: %s\n", d.Note)
	}
	fmt.Fprintf(w, "    case:   %s\n", table.JSON(d.Case.Input, "            "))
	fmt.Fprintf(w, "    expect: %s\n", table.JSON(d.Case.Expect, "            "))
	for _, s := range []struct {
		name string
		r    *runner.Result
	}{{"a", d.A}, {"b", d.B}} {
		fmt.Fprintf(w, "    %s:      %s\n", s.name, sideText(s.r, "            "))
	}
	if d.Diff != "" {
		fmt.Fprintf(w, "    diff (-a +b):\n%s", table.Indent(d.Diff, "        "))
	}
}

// sideText is one side's outcome: its answer, or its verdict and message.
func sideText(r *runner.Result, prefix string) string {
	if r == nil {
		return "(not in this run)"
	}
	s := string(baseVerdict(r.Verdict))
	if r.Message != "" {
		s += ": " + r.Message
	}
	if answered(r) {
		s += "\n" + prefix + table.JSON(r.Answer, prefix)
	}
	if r.Stderr != "" {
		s += "\n" + prefix + "stderr (tail):\n" + strings.TrimRight(table.Indent(r.Stderr, prefix+"    "), "\n")
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

// WriteDiffMarkdown writes a summary that fits $GITHUB_STEP_SUMMARY: the per-area table, then each
// disagreement folded in a <details>.
func WriteDiffMarkdown(w io.Writer, c *Comparison) error {
	fmt.Fprintf(w, "## %s lembas-check diff\n\n- **a**: %s\n- **b**: %s\n\n", DiffStatus(c).Icon(), mdEscape(c.A.String()), mdEscape(c.B.String()))
	if reason := diffWhy(c); reason != "" {
		fmt.Fprintf(w, "**%s**\n\n", mdEscape(reason))
	}
	fmt.Fprintln(w, "| Area | Cases | Agree | Disagree | a right | b right | Neither | Only in a | Only in b |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	names, by := c.ByArea()
	row := func(name string, n DiffCounts) {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", name, n.Cases, n.Agree, n.Disagree, n.ARight, n.BRight, n.Neither, n.OnlyInA, n.OnlyInB)
	}
	for _, a := range names {
		row(a, CountDiff(by[a]))
	}
	row("**all**", CountDiff(c.Cases))
	fmt.Fprintln(w)
	for _, d := range c.Cases {
		if d.Verdict != Disagree {
			continue
		}
		var b strings.Builder
		writeDisagreement(&b, d)
		fmt.Fprintf(w, "<details><summary><code>%s</code> — %s</summary>\n\n```\n%s```\n\n</details>\n\n", d.Case.ID, d.title(), strings.ReplaceAll(b.String(), "```", "`\u200b``"))
	}
	return nil
}
