package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/selection"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/term"
	"github.com/LLeMbas/lembas-check/internal/textdiff"
	"github.com/LLeMbas/lembas-check/runner"
)

// DiffVerdict is what became of one case between two implementations.
type DiffVerdict string

// The verdicts of a diff. Only a case both sides answered is compared (agree, both wrong,
// disagree); the others say why it was not, and none of them counts as agreeing.
const (
	// Agree: both answered, the same answer, and the spec's expectation backs it.
	Agree DiffVerdict = "agree"
	// BothWrong: both answered the same, and the spec's expectation does not back it: two
	// implementations sharing a bug is a failure, not an agreement.
	BothWrong DiffVerdict = "both wrong"
	// Disagree: different answers; the spec's expectation says who is right.
	Disagree DiffVerdict = "disagree"
	// NotCompared: a side gave no answer (an error, a crash, a timeout, a protocol fault, or a
	// case that could not be read, which neither was asked): its own verdict (DiffCase.Why says
	// whose and what), a failure.
	NotCompared DiffVerdict = "not compared"
	// OnlyInA: only a has something to say: b's run lacks the case, or b skipped it.
	OnlyInA DiffVerdict = "only in a"
	OnlyInB DiffVerdict = "only in b"
	// SkippedByBoth: neither side checked the case (both skipped it, or one skipped it and the
	// other's run lacks it): nothing was compared, so it does not count as agreeing.
	SkippedByBoth DiffVerdict = "skipped by both"
)

// diffVerdicts are the verdicts in the order reports list and count them, the gravest first.
var diffVerdicts = []DiffVerdict{BothWrong, Disagree, NotCompared, Agree, OnlyInA, OnlyInB, SkippedByBoth}

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
	// Why says, for a case not compared, whose fault: "a crashed", "both errored".
	Why string
	// Note says what else is odd: the two reports expecting different answers.
	Note string
}

// Comparison is two reports lined up by case id.
type Comparison struct {
	A, B  Side
	Cases []DiffCase
	// Streamed says the failing cases were shown as b's run went (DiffRun): the table on the
	// same stdout leaves them out.
	Streamed bool `json:"-"`
}

// Compare lines up two reports by case id, a's order first, then the cases only b has.
func Compare(a, b *runner.Report) *Comparison {
	c := &Comparison{A: Side{Label: a.Target.Name(), Target: a.Target}, B: Side{Label: b.Target.Name(),
		Target: b.Target}}
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

// gaveNothing says whether a side has nothing to compare and no fault to own: its run lacks the
// case, it skipped it, or its run was interrupted before the case ended.
func gaveNothing(r *runner.Result) bool {
	return r == nil || baseVerdict(r.Verdict) == runner.Skip || r.Verdict == runner.Interrupted
}

// faulted says whether a side was asked the case and gave no answer: an error, a crash, a
// timeout, a protocol fault (or such a fault listed as expected).
func faulted(r *runner.Result) bool { return !gaveNothing(r) && !answered(r) }

// compareOne judges one case. Only answers are compared: a side that was asked and gave none
// makes the case "not compared", whatever the other did; a skip on one side makes it "only in"
// the other (an area it does not implement is not a disagreement).
func compareOne(a, b *runner.Result) DiffCase {
	d := DiffCase{A: a, B: b}
	if a != nil {
		d.Case = a.Case
	} else {
		d.Case = b.Case
	}
	if a != nil && b != nil && hasExpect(b.Case) && conformance.Diff(a.Case.Expect, b.Case.Expect) != "" {
		d.Note = "the two reports expect different answers for this case (different suites?); a's expectation decides"
	}
	switch {
	case faulted(a) || faulted(b):
		d.Verdict, d.Why = NotCompared, faultWhy(a, b)
	case gaveNothing(a) && gaveNothing(b):
		d.Verdict = SkippedByBoth
	case gaveNothing(b):
		d.Verdict = OnlyInA
	case gaveNothing(a):
		d.Verdict = OnlyInB
	default:
		d.Diff = textdiff.Plain(conformance.Diff(a.Answer, b.Answer))
		switch {
		case d.Diff != "":
			d.Verdict, d.Right = Disagree, whomBacks(d.Case, a, b)
		case backed(d.Case, a):
			d.Verdict = Agree
		default:
			d.Verdict = BothWrong
		}
	}
	return d
}

// whomBacks says whose answer the spec backs in a disagreement: "a", "b" or "neither".
func whomBacks(c conformance.Case, a, b *runner.Result) string {
	switch {
	case backed(c, a):
		return "a"
	case backed(c, b):
		return "b"
	}
	return "neither"
}

// hasExpect says whether a case carries its expected answer (a Gherkin scenario is judged by its
// Thens instead, and a saved report writes its missing expectation as null).
func hasExpect(c conformance.Case) bool {
	e := bytes.TrimSpace(c.Expect)
	return len(e) > 0 && string(e) != "null"
}

// backed says whether the spec backs a side's answer: the case's expectation (a's, when the two
// reports differ) holds it, or, for a case judged by its checks, the side's own run passed it.
func backed(c conformance.Case, r *runner.Result) bool {
	switch {
	case !answered(r):
		return false
	case hasExpect(c):
		return conformance.Diff(c.Expect, r.Answer) == ""
	}
	return baseVerdict(r.Verdict) == runner.Pass
}

// faultWhy says whose fault left a case not compared: "a crashed", "b errored", "both timed
// out", "a crashed, b errored".
func faultWhy(a, b *runner.Result) string {
	fa, fb := "", ""
	if faulted(a) {
		fa = faultWord(a)
	}
	if faulted(b) {
		fb = faultWord(b)
	}
	switch {
	case fa != "" && fa == fb:
		return "both " + fa
	case fa != "" && fb != "":
		return "a " + fa + ", b " + fb
	case fa != "":
		return "a " + fa
	}
	return "b " + fb
}

// faultWord is a side's fault as a verb: "errored", "crashed", "timed out".
func faultWord(r *runner.Result) string {
	switch r.Verdict {
	case runner.Error:
		return "errored"
	case runner.Crashed:
		return "crashed"
	case runner.Timeout:
		return "timed out"
	case runner.ProtocolError:
		return "broke the protocol"
	case runner.Malformed:
		return "had a malformed case"
	}
	return "gave no answer"
}

// baseVerdict forgets an expectations file: an xfail that crashed is a crash, a skip the file
// did not list a skip.
func baseVerdict(v runner.Verdict) runner.Verdict {
	switch v {
	case runner.XFail:
		return runner.Fail
	case runner.XPass:
		return runner.Pass
	case runner.UnlistedSkip:
		return runner.Skip
	}
	return v
}

// DiffCounts tallies a diff's cases: By counts each verdict, and the spec backs a, b or neither
// in ARight, BRight and Neither of the disagreements.
type DiffCounts struct {
	Cases                   int
	By                      map[DiffVerdict]int
	ARight, BRight, Neither int
}

// CountDiff tallies cases.
func CountDiff(cases []DiffCase) DiffCounts {
	n := DiffCounts{By: map[DiffVerdict]int{}}
	for _, d := range cases {
		n.Cases++
		n.By[d.Verdict]++
		if d.Verdict != Disagree {
			continue
		}
		switch d.Right {
		case "a":
			n.ARight++
		case "b":
			n.BRight++
		default:
			n.Neither++
		}
	}
	return n
}

// Compared counts the cases both sides answered: those that agree, are both wrong, or disagree.
func (n DiffCounts) Compared() int { return n.By[Agree] + n.By[BothWrong] + n.By[Disagree] }

// Failures counts the cases that fail a diff: both wrong, disagreeing, or not compared for a
// side's fault.
func (n DiffCounts) Failures() int { return n.By[BothWrong] + n.By[Disagree] + n.By[NotCompared] }

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
	// A copy: Apply hands back its input when it keeps every result, and the report selected
	// from must not change with the one selected.
	out.Results = slices.Clone(kept)
	return &out, nil
}

// DiffFormats are the formats a diff is written in, the table first.
var DiffFormats = format.Formats[*Comparison]{
	{Name: "table", Write: WriteDiffTable},
	{Name: "json", About: "JSON lines", Write: func(w io.Writer, c *Comparison, _ bool) error {
		return WriteDiffJSON(w,
			c)
	}},
	{Name: "markdown", About: "for $GITHUB_STEP_SUMMARY", Write: func(w io.Writer, c *Comparison, _ bool) error {
		return cappedMarkdown(w, func(w io.Writer) error { return WriteDiffMarkdown(w, c) })
	}},
	{Name: "html", About: "one self-contained page", Write: func(w io.Writer, c *Comparison,
		_ bool) error {
		return WriteDiffHTML(w, c)
	}},
}

// WriteDiff writes a comparison in one of DiffFormats. verbose lists the cases only one side has
// too (the table format).
func WriteDiff(w io.Writer, c *Comparison, name string, verbose bool) error {
	return DiffFormats.Write(w, name, c, verbose)
}

// DiffStatus is how a diff ended: unfinished when a side's run was interrupted or no case was
// compared at all (none was answered on both sides: every case was not compared, one-sided or
// skipped), failed when a case is both wrong, disagrees or was not compared for a side's fault,
// else ok. Every format's word, icon and the exit status come from it.
func DiffStatus(c *Comparison) format.Status {
	n := CountDiff(c.Cases)
	switch {
	case c.interrupted() > 0 || n.Compared() == 0:
		return format.Unfinished
	case n.Failures() > 0:
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
	case n.Compared() == 0 && n.By[NotCompared] > 0:
		return fmt.Sprintf("no case was compared: none was answered on both sides, and a side gave no answer to %d",
			n.By[NotCompared])
	case n.Compared() == 0:
		return "no case was compared: none was answered on both sides"
	}
	return ""
}

// countsLine is the counts as every format's first line says them after the status word: the
// verdicts that hold, gravest first, then how many cases were compared: "4 both wrong, 263 agree;
// 267 of 267 cases compared".
func countsLine(c *Comparison) string {
	n := CountDiff(c.Cases)
	var parts []string
	for _, v := range diffVerdicts {
		if k := n.By[v]; k > 0 {
			s := fmt.Sprintf("%d %s", k, v)
			if v == Disagree {
				s += fmt.Sprintf(" (a right %d, b right %d, neither %d)", n.ARight, n.BRight, n.Neither)
			}
			parts = append(parts, s)
		}
	}
	return fmt.Sprintf("%s; %d of %d cases compared", strings.Join(parts, ", "), n.Compared(), n.Cases)
}

// DiffHeadline is a diff's first line in every format: the status word, the counts, and why when
// the diff is unfinished: "FAIL 4 both wrong, 263 agree; 267 of 267 cases compared".
func DiffHeadline(c *Comparison) string {
	return strings.ReplaceAll(summaryLine(c), "\t", " ")
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

// title is a diff case's one-line verdict: "agree", "both wrong", "disagree: the spec backs
// scripted (b)", "not compared: a crashed", "only in lembas-check reference 0.1.0 (a)".
func (c *Comparison) title(d DiffCase) string {
	switch d.Verdict {
	case Disagree:
		return "disagree: the spec backs " + c.Backs(d)
	case NotCompared:
		return "not compared: " + d.Why
	case OnlyInA:
		return "only in " + c.name("a")
	case OnlyInB:
		return "only in " + c.name("b")
	}
	return string(d.Verdict)
}

// says is what one side did with a case in a few words: "the expected answer", "another
// answer", "crashed: exited (exit status 1)", "not in its run".
func says(r *runner.Result, c conformance.Case) string {
	switch {
	case r == nil:
		return "not in its run"
	case backed(c, r):
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

// findingList is one kind of failing case as every format lists it, the gravest kind first: a
// heading, the names of the columns between the case's id and what it is about, and per case
// those cells.
type findingList struct {
	Verdict DiffVerdict
	Heading string
	Columns []string
	Cases   []DiffCase
	Cells   [][]string
}

// findings are the lists of the cases that fail the diff: both wrong, disagreeing, not
// compared; a kind with no case has no list.
func (c *Comparison) findings() []findingList {
	var out []findingList
	for _, v := range []DiffVerdict{BothWrong, Disagree, NotCompared} {
		ds := c.Failing(v)
		if len(ds) == 0 {
			continue
		}
		l := findingList{Verdict: v, Cases: ds}
		switch v {
		case BothWrong:
			l.Heading = fmt.Sprintf("%d both wrong: the same answer on both sides, which the spec does not back",
				len(ds))
			l.Columns = []string{"Both answered"}
		case Disagree:
			l.Heading = disagreeHeading(c, ds)
			l.Columns = []string{"Spec backs", c.name("a"), c.name("b")}
		case NotCompared:
			l.Heading = fmt.Sprintf("%d not compared: a side gave no answer", len(ds))
			l.Columns = []string{"Why", c.name("a"), c.name("b")}
		}
		for _, d := range ds {
			switch v {
			case BothWrong:
				l.Cells = append(l.Cells, []string{says(d.A, d.Case)})
			case Disagree:
				l.Cells = append(l.Cells, []string{c.Backs(d), says(d.A, d.Case), says(d.B, d.Case)})
			case NotCompared:
				l.Cells = append(l.Cells, []string{d.Why, says(d.A, d.Case), says(d.B, d.Case)})
			}
		}
		out = append(out, l)
	}
	return out
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

// Failing are the cases of one verdict, in the comparison's order.
func (c *Comparison) Failing(v DiffVerdict) []DiffCase {
	var out []DiffCase
	for _, d := range c.Cases {
		if d.Verdict == v {
			out = append(out, d)
		}
	}
	return out
}

// failures are the cases that fail the diff, in the comparison's order.
func (c *Comparison) failures() []DiffCase {
	var out []DiffCase
	for _, d := range c.Cases {
		if d.fails() {
			out = append(out, d)
		}
	}
	return out
}

// fails says whether the case fails the diff: both wrong, a disagreement, not compared.
func (d DiffCase) fails() bool {
	return d.Verdict == BothWrong || d.Verdict == Disagree || d.Verdict == NotCompared
}

// textLines is an answer as text (table.Text), line by line.
func textLines(raw []byte) []string {
	return strings.Split(shownText(raw), "\n")
}

// shownText is a value as text (table.Text) with the whitespace a reader cannot see marked
// (textdiff.Visible): every answer view and diff of a diff's reports shows it so.
func shownText(raw []byte) string {
	s, _ := textdiff.VisibleText(table.Text(raw))
	return s
}

// marksIn says whether any of the values' text views carry textdiff.Visible's marks.
func marksIn(raws ...[]byte) bool {
	for _, raw := range raws {
		if _, marked := textdiff.VisibleText(table.Text(raw)); raw != nil && marked {
			return true
		}
	}
	return false
}

// AnswerDiff is the line diff of the answers as text: a's and b's (-a +b) when they disagree,
// the expectation's and theirs (-expect +both) when both are wrong; nil otherwise.
func (d DiffCase) AnswerDiff() []textdiff.Line {
	switch {
	case !answered(d.A) || !answered(d.B):
		return nil
	case d.Verdict == BothWrong && hasExpect(d.Case):
		return textdiff.Lines(textLines(d.Case.Expect), textLines(d.A.Answer))
	case d.Verdict == Disagree:
		return textdiff.Lines(textLines(d.A.Answer), textLines(d.B.Answer))
	}
	return nil
}

// countsHeader and countsRow are the per-area counts as every format shows them.
var countsHeader = []string{"Area", "Cases", "Agree", "Both wrong", "Disagree", "a right", "b right", "Neither",
	"Not compared", "Only in a", "Only in b", "Skipped by both"}

func countsRow(n DiffCounts) []any {
	return []any{n.Cases, n.By[Agree], n.By[BothWrong], n.By[Disagree], n.ARight, n.BRight, n.Neither,
		n.By[NotCompared], n.By[OnlyInA], n.By[OnlyInB], n.By[SkippedByBoth]}
}

// WriteDiffTable writes what a person reads: the verdict and counts in a line, both sides, a
// summary per area, the lists of the cases that fail (both wrong, disagreeing, not compared), why
// cases are on one side only, then each failing case with the answers as text and their diff, then
// the first line again (the one a terminal shows last).
func WriteDiffTable(w io.Writer, c *Comparison, verbose bool) error {
	fmt.Fprintln(w, term.Line(w, summaryLine(c)))
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
	for _, l := range c.findings() {
		fmt.Fprintf(w, "\n%s\n", l.Heading)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "  CASE\t%s\tABOUT\n", strings.ToUpper(strings.Join(l.Columns, "\t")))
		for i, d := range l.Cases {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", d.Case.ID, strings.Join(l.Cells[i], "\t"), oneLine(d.Case.Title(), 60))
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
	for _, d := range c.failures() {
		if c.Streamed {
			break // shown as b's run went (DiffRun)
		}
		fmt.Fprintln(w)
		writeFailing(w, c, d)
	}
	fmt.Fprintln(w, term.Line(w, summaryLine(c)))
	return nil
}

// disagreeHeading counts the disagreements by whom the spec backs.
func disagreeHeading(c *Comparison, ds []DiffCase) string {
	n := CountDiff(ds)
	return fmt.Sprintf("%d disagreement(s): the spec backs %s in %d, %s in %d, neither in %d", n.By[Disagree],
		c.name("a"), n.ARight, c.name("b"), n.BRight, n.Neither)
}

// summaryLine is the table's first and last line, the status word and the reason set off by
// tabs (for term.Line to paint the word).
func summaryLine(c *Comparison) string {
	s := DiffStatus(c).Word() + "\t" + countsLine(c)
	if reason := diffWhy(c); reason != "" {
		s += "\t" + reason
	}
	return s
}

// failHeading is a failing case's heading: "--- BOTH WRONG: jobs/1a2b3c4d — the spec backs
// neither answer".
func failHeading(c *Comparison, d DiffCase) string {
	switch d.Verdict {
	case BothWrong:
		return "--- BOTH WRONG: " + d.Case.ID + " — the same answer on both sides, which the spec does not back"
	case NotCompared:
		return "--- NOT COMPARED: " + d.Case.ID + " — " + d.Why
	}
	return "--- DISAGREE: " + d.Case.ID + " — the spec backs " + c.Backs(d)
}

// writeFailing writes one failing case as `go test` writes a failure: the case, what it is
// about, the case and its expectation, each side's outcome, and the line diff of the answers.
func writeFailing(w io.Writer, c *Comparison, d DiffCase) {
	word, rest, _ := strings.Cut(failHeading(c, d), ": ")
	fmt.Fprintf(w, "%s %s\n", term.Word(w, word+":"), rest)
	fmt.Fprintf(w, "    %s\n", d.Case.Where())
	if title := d.Case.Title(); title != "" {
		fmt.Fprintf(w, "    %s\n", title)
	}
	if d.Note != "" {
		fmt.Fprintf(w, "    note: %s\n", d.Note)
	}
	fmt.Fprintf(w, "    case:\n%s", table.Indent(shownText(d.Case.Input), "        "))
	fmt.Fprintf(w, "    expect:\n%s", table.Indent(shownText(d.Case.Expect), "        "))
	for _, who := range []string{"a", "b"} {
		r := d.A
		if who == "b" {
			r = d.B
		}
		fmt.Fprintf(w, "    %s: %s\n", c.name(who), sideText(r))
		switch {
		case answered(r) && who == "b" && d.Verdict == BothWrong:
			fmt.Fprintln(w, "        (the same answer as a)")
		case answered(r):
			fmt.Fprint(w, table.Indent(shownText(r.Answer), "        "))
		}
		if r != nil {
			runner.WriteStderr(w, "        ", r.Stderr)
		}
	}
	if lines := d.AnswerDiff(); lines != nil {
		fmt.Fprintf(w, "    diff (%s):\n", diffOf(d))
		for _, l := range lines {
			fmt.Fprintf(w, "        %s\n", term.Diff(w, string(l.Op)+" "+l.Text))
		}
	}
	if marksIn(d.Case.Input, d.Case.Expect, answerOf(d.A), answerOf(d.B)) {
		fmt.Fprintf(w, "    %s\n", textdiff.Legend)
	}
}

// answerOf is a side's answer (nil for a side without one).
func answerOf(r *runner.Result) []byte {
	if r == nil {
		return nil
	}
	return r.Answer
}

// diffOf says what AnswerDiff compares: "-a +b", or "-expect +both" for a case both got wrong.
func diffOf(d DiffCase) string {
	if d.Verdict == BothWrong {
		return "-expect +both"
	}
	return "-a +b"
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

// JSON lines: a header naming both sides and saying the verdict, one line per case, a footer
// with the counts.

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
	Why     string          `json:"why,omitempty"`
	Note    string          `json:"note,omitempty"`
	Case    json.RawMessage `json:"case,omitempty"`
	Expect  json.RawMessage `json:"expect,omitempty"`
	A       *DiffJSONSide   `json:"a"`
	B       *DiffJSONSide   `json:"b"`
	Diff    string          `json:"diff,omitempty"`
}

// DiffJSONFooter is the last line, its fields named as a run's footer names them: the counts by
// verdict (every verdict, zeros too), the status word, failed (the status is not ok) and whether a
// side's run was interrupted; and whom the spec backs in the disagreements.
type DiffJSONFooter struct {
	Type        string         `json:"type"` // "footer"
	Counts      map[string]int `json:"counts"`
	Cases       int            `json:"cases"`
	Compared    int            `json:"compared"`
	Failed      bool           `json:"failed"`
	Status      string         `json:"status"`
	Interrupted bool           `json:"interrupted"`
	ARight      int            `json:"a_right"`
	BRight      int            `json:"b_right"`
	Neither     int            `json:"neither_right"`
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
	st := DiffStatus(c)
	if err := enc.Encode(map[string]any{"type": "header", "tool": "lembas-check", "version": runner.ToolVersion,
		"spec": spec.Version(), "a": c.A, "b": c.B,
		"status": st.Word(), "summary": DiffHeadline(c)}); err != nil {
		return err
	}
	for _, d := range c.Cases {
		if err := enc.Encode(DiffJSONCase{Type: "case", ID: d.Case.ID, Area: d.Case.Area, File: d.Case.File,
			Index:   d.Case.Index,
			Verdict: d.Verdict, Right: d.Right, Why: d.Why, Note: d.Note, Case: d.Case.Input, Expect: d.Case.Expect,
			A: jsonSide(d.A), B: jsonSide(d.B), Diff: d.Diff}); err != nil {
			return err
		}
	}
	n := CountDiff(c.Cases)
	counts := map[string]int{}
	for _, v := range diffVerdicts {
		counts[string(v)] = n.By[v]
	}
	return enc.Encode(DiffJSONFooter{Type: "footer", Counts: counts, Cases: n.Cases, Compared: n.Compared(),
		Failed: st != format.OK,
		Status: st.Word(), Interrupted: c.interrupted() > 0, ARight: n.ARight, BRight: n.BRight, Neither: n.Neither})
}

// WriteDiffMarkdown writes a summary that fits $GITHUB_STEP_SUMMARY, saying what the table says:
// the verdict and counts in its heading, both sides, the per-area counts, the lists of failing
// cases, why cases are on one side only, then each failing case folded in a <details>.
func WriteDiffMarkdown(w io.Writer, c *Comparison) error {
	fmt.Fprintf(w, "## %s lembas-check diff: %s\n\n- **a**: %s\n- **b**: %s\n\n", DiffStatus(c).Icon(),
		format.MarkdownCell(countsLine(c)), format.MarkdownCell(c.A.String()), format.MarkdownCell(c.B.String()))
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
	for _, l := range c.findings() {
		fmt.Fprintf(w, "### %s\n\n", format.MarkdownCell(l.Heading))
		cols := append(append([]string{"Case"}, l.Columns...), "About")
		for i := range cols {
			cols[i] = format.MarkdownCell(cols[i])
		}
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
		for i, d := range l.Cases {
			cells := []string{"`" + d.Case.ID + "`"}
			for _, s := range append(append([]string{}, l.Cells[i]...), oneLine(d.Case.Title(), 100)) {
				cells = append(cells, format.MarkdownCell(s))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
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
	for _, d := range c.failures() {
		var b strings.Builder
		writeFailing(&b, c, d)
		fmt.Fprintf(w, "<details><summary><code>%s</code> — %s</summary>\n\n%s\n\n</details>\n\n", d.Case.ID,
			format.MarkdownCell(c.title(d)), format.MarkdownFence("", b.String()))
	}
	return nil
}
