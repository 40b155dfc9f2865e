// Package textdiff holds the line diffs reports show a person: how two decoded values differ
// (Values, what conformance.Diff reports), a go-cmp report read line by line (its mark in the first
// column, the non-breaking spaces it writes after the mark made plain: reports stored before
// Values hold them), and a line diff of two texts, unified or side by side.
package textdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Op is what a diff line does: the same on both sides, removed, or added.
type Op byte

// The ops, as a unified diff marks them.
const (
	Same Op = ' '
	Del  Op = '-'
	Ins  Op = '+'
)

// Line is one line of a diff: its op and its text, mark included.
type Line struct {
	Op   Op
	Text string
}

// nbsp is what go-cmp writes, at random per process, after its mark instead of a space, so that
// nobody parses its output: pasted into a test, markdown or a JUnit body it is not the space it
// looks like.
const nbsp = "\u00a0"

// Cmp reads a go-cmp report (cmp.Diff's text). The op comes from the first column alone: an
// unchanged line whose text starts with "-" stays unchanged. go-cmp's non-breaking spaces in the
// indent become spaces; inside a value go-cmp quotes them (\u00a0), so none is lost.
func Cmp(report string) []Line {
	report = strings.TrimRight(report, "\n")
	if report == "" {
		return nil
	}
	var out []Line
	for _, l := range strings.Split(report, "\n") {
		op := Same
		if l != "" && (l[0] == '-' || l[0] == '+') {
			op = Op(l[0])
		}
		out = append(out, Line{Op: op, Text: plainIndent(l)})
	}
	return out
}

// plainIndent replaces the non-breaking spaces of a line's indent (before its first other
// character) with spaces.
func plainIndent(l string) string {
	i := 0
	for i < len(l) {
		switch {
		case l[i] == ' ' || l[i] == '\t' || i == 0 && (l[0] == '-' || l[0] == '+'):
			i++
		case strings.HasPrefix(l[i:], nbsp):
			l = l[:i] + " " + l[i+len(nbsp):]
			i++
		default:
			return l
		}
	}
	return l
}

// Plain is a go-cmp report with its indent's non-breaking spaces made spaces: the text to store
// and show.
func Plain(report string) string {
	if !strings.Contains(report, nbsp) {
		return report
	}
	lines := Cmp(report)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	if !strings.HasSuffix(report, "\n") {
		return strings.TrimSuffix(b.String(), "\n")
	}
	return b.String()
}

// maxCells bounds the work of a line diff (a × b lines); past it the two texts are shown as
// removed whole and added whole, which is still true.
const maxCells = 4 << 20

// Lines is the line diff that turns a into b: the longest common subsequence kept, the rest
// removed (from a) and added (from b), each run of removals before its additions. Text is the
// line without a mark.
func Lines(a, b []string) []Line {
	// Trim the common head and tail: most answers differ in a few lines.
	head, tail := Ends(a, b)
	var out []Line
	for _, s := range a[:head] {
		out = append(out, Line{Same, s})
	}
	out = append(out, middle(a[head:len(a)-tail], b[head:len(b)-tail])...)
	for _, s := range a[len(a)-tail:] {
		out = append(out, Line{Same, s})
	}
	return out
}

// Ends is how long a head and a tail a and b have in common, the tail taken from what follows
// the head (so head+tail is at most the shorter length): what two texts, or their lines, differ
// by is a[head:len(a)-tail] against b[head:len(b)-tail].
func Ends[S ~[]E, E comparable](a, b S) (head, tail int) {
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	return head, tail
}

func middle(a, b []string) []Line {
	n, m := len(a), len(b)
	var out []Line
	if n == 0 || m == 0 || n*m > maxCells {
		for _, s := range a {
			out = append(out, Line{Del, s})
		}
		for _, s := range b {
			out = append(out, Line{Ins, s})
		}
		return out
	}
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, Line{Same, a[i]})
			i, j = i+1, j+1
		case j == m || i < n && lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, Line{Del, a[i]})
			i++
		default:
			out = append(out, Line{Ins, b[j]})
			j++
		}
	}
	return out
}

// Unified is a line diff as text, each line marked "-", "+" or " " in its first column.
func Unified(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteByte(byte(l.Op))
		b.WriteString(" " + l.Text + "\n")
	}
	return b.String()
}

// Row is one row of a side-by-side diff: a line of a, a line of b, or both. A removal and the
// addition that takes its place share a row.
type Row struct {
	A, B       string
	HasA, HasB bool
	// Op is Same when the row's lines are equal, else Del, Ins, or (both sides present and
	// different) Del|Ins's marker '~'.
	Op Op
}

// Changed marks a row whose two lines differ.
const Changed Op = '~'

// SideBySide pairs a line diff's removals with the additions that follow them, row by row.
func SideBySide(lines []Line) []Row {
	var rows []Row
	for i := 0; i < len(lines); {
		if lines[i].Op == Same {
			rows = append(rows, Row{A: lines[i].Text, B: lines[i].Text, HasA: true, HasB: true, Op: Same})
			i++
			continue
		}
		var dels, ins []string
		for i < len(lines) && lines[i].Op == Del {
			dels = append(dels, lines[i].Text)
			i++
		}
		for i < len(lines) && lines[i].Op == Ins {
			ins = append(ins, lines[i].Text)
			i++
		}
		for k := range max(len(dels), len(ins)) {
			r := Row{}
			if k < len(dels) {
				r.A, r.HasA = dels[k], true
			}
			if k < len(ins) {
				r.B, r.HasB = ins[k], true
			}
			switch {
			case r.HasA && r.HasB:
				r.Op = Changed
			case r.HasA:
				r.Op = Del
			default:
				r.Op = Ins
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// Legend says what Visible's marks stand for, written once under a view that used one.
const Legend = "(␍ a carriage return, → a tab, · a space at a line's end, " + noFinalNewline +
	" the text's end without a newline)"

// noFinalNewline is table.NoFinalNewline, the mark table.Text ends a block without its final
// newline with (a copy: textdiff imports nothing of table's).
const noFinalNewline = "∎"

// Visible is a line of a text view with the whitespace a reader cannot see marked: a carriage
// return as ␍, a tab as →, each space at the line's end as · (issue 27: a text of " \r\n\t \r\n "
// showed as three blank lines, and a case about CRLF showed no CR); a line table.Text ended with
// its no-final-newline mark counts as marked. marked says whether it marked anything, for the
// Legend.
func Visible(line string) (shown string, marked bool) {
	body, last := strings.CutSuffix(line, noFinalNewline) // the spaces before the text's end trail
	body, cr := strings.CutSuffix(body, "\r")             // a CRLF's CR ends the line: the spaces before it trail
	end := len(strings.TrimRight(body, " "))
	s := strings.NewReplacer("\r", "␍", "\t", "→").Replace(body[:end]) + strings.Repeat("·", len(body)-end)
	if cr {
		s += "␍"
	}
	if last {
		s += noFinalNewline
	}
	return s, last || s != line
}

// VisibleText is Visible of each line of s, and whether any was marked.
func VisibleText(s string) (string, bool) {
	lines := strings.Split(s, "\n")
	any := false
	for i, l := range lines {
		var m bool
		lines[i], m = Visible(l)
		any = any || m
	}
	return strings.Join(lines, "\n"), any
}

// VisibleLines is Visible of each diff line's text (its mark kept), and whether any was marked.
func VisibleLines(lines []Line) ([]Line, bool) {
	out := make([]Line, len(lines))
	any := false
	for i, l := range lines {
		var m bool
		out[i] = l
		out[i].Text, m = Visible(l.Text)
		any = any || m
	}
	return out, any
}

// context is how many unchanged lines Values shows around each change.
const context = 3

// Values is a report of how two values differ, in the (-want +got) form reports read: each
// rendered as indented JSON (keys sorted), then diffed line by line, each change shown with
// context lines around it and a run of other unchanged lines said as its count (two strings of
// several lines are diffed by their lines, unquoted). It is "" when
// the values are deeply equal. Values JSON cannot render, or renders alike though they differ
// (an int and a float64), are shown by their Go syntax.
func Values(want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	a, b := render(want), render(got)
	if a == b {
		a, b = fmt.Sprintf("%T(%#v)", want, want), fmt.Sprintf("%T(%#v)", got, got)
	}
	// Two texts of several lines are diffed by their own lines, as a person reads them.
	if ws, ok := want.(string); ok {
		if gs, ok := got.(string); ok && strings.ContainsAny(ws+gs, "\n") {
			a, b = ws, gs
		}
	}
	return Unified(folded(Lines(strings.Split(a, "\n"), strings.Split(b, "\n"))))
}

// folded is a line diff with each change's context lines around it and every other run of
// unchanged lines said as its count.
func folded(lines []Line) []Line {
	var out []Line
	for i := 0; i < len(lines); {
		if lines[i].Op != Same {
			out = append(out, lines[i])
			i++
			continue
		}
		j := i
		for j < len(lines) && lines[j].Op == Same {
			j++
		}
		keepHead, keepTail := context, context
		if i == 0 {
			keepHead = 0
		}
		if j == len(lines) {
			keepTail = 0
		}
		if j-i <= keepHead+keepTail+1 {
			keepHead, keepTail = j-i, 0
		}
		out = append(out, lines[i:i+keepHead]...)
		if skipped := j - i - keepHead - keepTail; skipped > 0 {
			out = append(out, Line{Same, "… " + strconv.Itoa(skipped) + " identical lines"})
		}
		out = append(out, lines[j-keepTail:j]...)
		i = j
	}
	return out
}

// render is v as indented JSON with its HTML characters as they are, or its Go syntax.
func render(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
