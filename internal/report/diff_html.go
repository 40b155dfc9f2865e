package report

import (
	_ "embed"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/textdiff"
	"github.com/LLeMbas/lembas-check/runner"
)

// The HTML diff is one self-contained file (inline CSS and a few lines of JS, nothing fetched)
// that answers "where do they fail, and who is right" first: the verdict, a filter per kind of
// outcome with its count, the lists of the cases both got wrong, that disagree (with whom the spec
// backs) and that were not compared (a side gave no answer); then the matrix of
// areas × cases, each cell opening its case's panel (CSS :target, so scripts may be off), and per
// area why cases are on one side only. Answers are shown as text, the two side by side.

type htmlCell struct {
	ID, Anchor, Kind, Mark, Title string
}

type htmlArea struct {
	Name   string
	Counts DiffCounts
	Cells  []htmlCell
}

type htmlSide struct {
	Who, Name, Verdict, Message, Answer, Stderr string
}

type htmlRow struct {
	Op   string // same, del, ins, changed
	A, B string
}

type htmlCase struct {
	htmlCell
	// Legend says what the whitespace marks in the panel's texts mean, when it has any.
	Where, About, Note, Input, Expect, Legend string
	Sides                                     []htmlSide
	Rows                                      []htmlRow
}

type htmlListItem struct {
	Anchor, ID, About, Where string
	// Cells are the list's columns between the id and the about; the first's class marks it.
	Cells      []htmlListCell
	FirstClass string
}

// htmlListCell is a list's cell: what a side did and, for a disagreement's sides, the first line
// where its answer differs from the other's.
type htmlListCell struct {
	Text, Line string
}

// htmlList is one findingList on the page.
type htmlList struct {
	ID, Heading string
	Columns     []string
	Items       []htmlListItem
}

// htmlFilter is one filter of the cells, with its count.
type htmlFilter struct {
	Kind, Label string
	N           int
}

type htmlOnly struct {
	Area, Verdict, Why string
	N                  int
}

type htmlPage struct {
	A, B           string // the sides in full
	AName, BName   string // as the list names them
	Status, Word   string
	Counts, Lead   string
	Total          DiffCounts
	Filters        []htmlFilter
	Lists          []htmlList
	Areas          []htmlArea
	Only           []htmlOnly
	Cases          []htmlCase
	CountsHeader   []string
	AreaCountsRows [][]any
}

// cellKind is the filter a case falls under, and mark what its cell shows: for a disagreement,
// the letter of whom the spec backs (– neither); for a case not compared, × and the side that
// gave no answer (× alone: both); for a case on one side, a half disc, its left half a's (◐)
// or its right half b's (◑); = for the same wrong answer.
func cellKind(d DiffCase) (kind, mark string) {
	switch d.Verdict {
	case Agree:
		return "agree", ""
	case BothWrong:
		return "bothwrong", "="
	case NotCompared:
		switch {
		case faulted(d.A) && faulted(d.B):
			return "notcompared", "×"
		case faulted(d.A):
			return "notcompared", "×a"
		}
		return "notcompared", "×b"
	case OnlyInA: // not a letter: a letter alone is the side the spec backs (issue 27)
		return "only", "◐"
	case OnlyInB:
		return "only", "◑"
	case SkippedByBoth:
		return "skipped", ""
	}
	if d.Right == "neither" {
		return "disagree", "–"
	}
	return "disagree", d.Right
}

// listID is the page's id of a list of failing cases.
var listID = map[DiffVerdict]string{BothWrong: "bothwrong", Disagree: "disagreements", NotCompared: "notcompared"}

// htmlLists are the page's lists of failing cases, from the lists every format shows.
func htmlLists(c *Comparison) []htmlList {
	var out []htmlList
	for _, l := range c.findings() {
		hl := htmlList{ID: listID[l.Verdict], Heading: l.Heading, Columns: l.Columns}
		for i, d := range l.Cases {
			item := htmlListItem{Anchor: anchor(d.Case.ID), ID: d.Case.ID, About: d.Case.Title(), Where: d.Case.Where()}
			for _, c := range l.Cells[i] {
				item.Cells = append(item.Cells, htmlListCell{Text: c})
			}
			switch l.Verdict {
			case Disagree:
				item.FirstClass = "backs-" + d.Right
				// The rows say what differs, not only who is right (issue 27).
				if a, b, ok := firstDifference(d.AnswerDiff()); ok && len(item.Cells) == 3 {
					item.Cells[1].Line, item.Cells[2].Line = a, b
				}
			default:
				item.FirstClass = "fault"
			}
			hl.Items = append(hl.Items, item)
		}
		out = append(out, hl)
	}
	return out
}

func htmlSideOf(c *Comparison, who string, r *runner.Result) htmlSide {
	s := htmlSide{Who: who, Name: c.side(who).Short()}
	if r == nil {
		s.Verdict = "not in this run"
		return s
	}
	s.Verdict, s.Message, s.Stderr = string(baseVerdict(r.Verdict)), r.Message, r.Stderr
	if answered(r) {
		s.Answer = shownText(r.Answer)
	}
	return s
}

func htmlRows(lines []textdiff.Line) []htmlRow {
	var out []htmlRow
	for _, r := range textdiff.SideBySide(lines) {
		op := map[textdiff.Op]string{textdiff.Same: "same", textdiff.Del: "del", textdiff.Ins: "ins",
			textdiff.Changed: "changed"}[r.Op]
		out = append(out, htmlRow{Op: op, A: r.A, B: r.B})
	}
	return out
}

// firstDifference is the first row where a's and b's answers differ, each side's line cut for a
// cell ("(no line)" for the side that has none there).
func firstDifference(lines []textdiff.Line) (a, b string, ok bool) {
	for _, r := range textdiff.SideBySide(lines) {
		if r.Op == textdiff.Same {
			continue
		}
		// Without the indent the two share (a string's block under its key), cut for a cell.
		lead := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
		cut := lead(r.A)
		if !r.HasA || r.HasB && lead(r.B) < cut {
			cut = lead(r.B)
		}
		a, b = "(no line)", "(no line)"
		if r.HasA {
			a = table.Cut(r.A[cut:], 80)
		}
		if r.HasB {
			b = table.Cut(r.B[cut:], 80)
		}
		return a, b, true
	}
	return "", "", false
}

func anchor(id string) string { return "case-" + strings.ReplaceAll(id, "/", "-") }

// WriteDiffHTML writes the comparison as one self-contained HTML page.
func WriteDiffHTML(w io.Writer, c *Comparison) error {
	st := DiffStatus(c)
	total := CountDiff(c.Cases)
	page := htmlPage{A: c.A.String(), B: c.B.String(), AName: c.name("a"), BName: c.name("b"),
		Status: map[format.Status]string{format.OK: "ok", format.Failed: "fail",
			format.Unfinished: "error"}[st], Word: st.Word(),
		Counts: countsLine(c), Total: total, Lists: htmlLists(c), CountsHeader: countsHeader,
		Filters: []htmlFilter{{"agree", "agree", total.By[Agree]}, {"bothwrong", "both wrong", total.By[BothWrong]},
			{"disagree", "disagree", total.By[Disagree]},
			{"notcompared", "not compared", total.By[NotCompared]}, {"only", "only in one",
				total.By[OnlyInA] + total.By[OnlyInB]}, {"skipped", "skipped by both", total.By[SkippedByBoth]}}}
	var heads []string
	for _, l := range page.Lists {
		heads = append(heads, l.Heading)
	}
	switch {
	case st == format.Unfinished:
		page.Lead = diffWhy(c)
	case len(heads) > 0:
		page.Lead = strings.Join(heads, "; ")
	default:
		page.Lead = "no disagreement: every case both checked has the same answer, which the spec backs"
	}
	names, by := c.ByArea()
	for _, a := range names {
		area := htmlArea{Name: a, Counts: CountDiff(by[a])}
		page.AreaCountsRows = append(page.AreaCountsRows, append([]any{a}, countsRow(area.Counts)...))
		for _, d := range by[a] {
			hc := htmlCaseOf(c, d)
			area.Cells = append(area.Cells, hc.htmlCell)
			page.Cases = append(page.Cases, hc)
		}
		page.Areas = append(page.Areas, area)
	}
	page.AreaCountsRows = append(page.AreaCountsRows, append([]any{"all"}, countsRow(total)...))
	for _, g := range c.OnlyReasons() {
		page.Only = append(page.Only, htmlOnly{Area: g.Area, Verdict: string(g.Verdict), Why: g.Why, N: len(g.IDs)})
	}
	return diffPage().Execute(w, page)
}

// htmlCaseOf is a case's cell in the matrix and its panel.
func htmlCaseOf(c *Comparison, d DiffCase) htmlCase {
	kind, mark := cellKind(d)
	cell := htmlCell{ID: d.Case.ID, Anchor: anchor(d.Case.ID), Kind: kind, Mark: mark,
		Title: d.Case.ID + ": " + c.title(d)}
	if title := d.Case.Title(); title != "" {
		cell.Title += " — " + oneLine(title, 100)
	}
	hc := htmlCase{htmlCell: cell, Where: d.Case.Where(), About: d.Case.Title(), Note: d.Note,
		Input: shownText(d.Case.Input), Expect: shownText(d.Case.Expect),
		Sides: []htmlSide{htmlSideOf(c, "a", d.A), htmlSideOf(c, "b", d.B)}}
	hc.Title = c.title(d)
	if marksIn(d.Case.Input, d.Case.Expect, answerOf(d.A), answerOf(d.B)) {
		hc.Legend = textdiff.Legend
	}
	if lines := d.AnswerDiff(); lines != nil && d.Verdict == Disagree {
		hc.Rows = htmlRows(lines)
	}
	return hc
}

// diffPage is parsed on first use, not at every start.
//
//go:embed diff.html.tmpl
var diffPageText string

var diffPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("diff").Funcs(template.FuncMap{"marked": marked}).Parse(diffPageText))
})

// markSpans are textdiff.Visible's marks as the page shows them: muted, so they read as marks,
// not text; a CR as a boxed "CR", since common fonts (Debian's DejaVu) have no ␍ glyph.
var markSpans = strings.NewReplacer("␍", `<span class="ws cr" title="carriage return">CR</span>`,
	"→", `<span class="ws" title="tab">→</span>`, "·", `<span class="ws" title="space at the line's end">·</span>`,
	table.NoFinalNewline, `<span class="ws" title="no newline at the text's end">`+table.NoFinalNewline+`</span>`)

// marked is a text view escaped for HTML with its whitespace marks as markSpans.
func marked(s string) template.HTML {
	return template.HTML(markSpans.Replace(template.HTMLEscapeString(s))) //nolint:gosec // escaped first
}
