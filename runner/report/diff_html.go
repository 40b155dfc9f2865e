package report

import (
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/format"
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
	Where, About, Note, Input, Expect string
	Sides                             []htmlSide
	Rows                              []htmlRow
}

type htmlListItem struct {
	Anchor, ID, About, Where string
	// Cells are the list's columns between the id and the about; the first's class marks it.
	Cells      []string
	FirstClass string
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

// cellKind is the filter a case falls under, and mark the letter its cell shows: for a
// disagreement, whom the spec backs; for a case not compared, the side that gave no answer (×
// both); for a case on one side, that side; = for the same wrong answer.
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
			return "notcompared", "a"
		}
		return "notcompared", "b"
	case OnlyInA:
		return "only", "a"
	case OnlyInB:
		return "only", "b"
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
			item := htmlListItem{Anchor: anchor(d.Case.ID), ID: d.Case.ID, About: d.Case.Title(), Where: d.Case.Where(), Cells: l.Cells[i]}
			switch l.Verdict {
			case Disagree:
				item.FirstClass = "backs-" + d.Right
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
		op := map[textdiff.Op]string{textdiff.Same: "same", textdiff.Del: "del", textdiff.Ins: "ins", textdiff.Changed: "changed"}[r.Op]
		out = append(out, htmlRow{Op: op, A: r.A, B: r.B})
	}
	return out
}

func anchor(id string) string { return "case-" + strings.ReplaceAll(id, "/", "-") }

// WriteDiffHTML writes the comparison as one self-contained HTML page.
func WriteDiffHTML(w io.Writer, c *Comparison) error {
	st := DiffStatus(c)
	total := CountDiff(c.Cases)
	page := htmlPage{A: c.A.String(), B: c.B.String(), AName: c.name("a"), BName: c.name("b"),
		Status: map[format.Status]string{format.OK: "ok", format.Failed: "fail", format.Unfinished: "error"}[st], Word: st.Word(),
		Counts: countsLine(c), Total: total, Lists: htmlLists(c), CountsHeader: countsHeader,
		Filters: []htmlFilter{{"agree", "agree", total.By[Agree]}, {"bothwrong", "both wrong", total.By[BothWrong]}, {"disagree", "disagree", total.By[Disagree]},
			{"notcompared", "not compared", total.By[NotCompared]}, {"only", "only in one", total.By[OnlyInA] + total.By[OnlyInB]}, {"skipped", "skipped by both", total.By[SkippedByBoth]}}}
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
	cell := htmlCell{ID: d.Case.ID, Anchor: anchor(d.Case.ID), Kind: kind, Mark: mark, Title: d.Case.ID + ": " + c.title(d)}
	if title := d.Case.Title(); title != "" {
		cell.Title += " — " + oneLine(title, 100)
	}
	hc := htmlCase{htmlCell: cell, Where: d.Case.Where(), About: d.Case.Title(), Note: d.Note,
		Input: shownText(d.Case.Input), Expect: shownText(d.Case.Expect),
		Sides: []htmlSide{htmlSideOf(c, "a", d.A), htmlSideOf(c, "b", d.B)}}
	hc.Title = c.title(d)
	if lines := d.AnswerDiff(); lines != nil && d.Verdict == Disagree {
		hc.Rows = htmlRows(lines)
	}
	return hc
}

// diffPage is parsed on first use, not at every start.
var diffPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("diff").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Word}} {{.Counts}} · lembas-check diff: {{.AName}} vs {{.BName}}</title>
<style>
:root{--agree:#1a7f37;--disagree:#cf222e;--bothwrong:#82071e;--notcompared:#9a6700;--only:#8c959f;--line:#d0d7de;--muted:#59636e}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;max-width:76em;padding:0 1em;color:#1f2328}
h1{font-size:1.3em;margin:0 0 .3em}h2{font-size:1.1em;margin:1.6em 0 .5em}h3{font-size:1.05em;margin:.2em 0}h4{margin:.8em 0 .2em;font-size:.9em}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border-radius:4px;padding:6px 8px;overflow:auto;white-space:pre-wrap;margin:0}
.verdict{font-size:1.15em;font-weight:600;padding:.5em .8em;border-radius:6px;margin:.6em 0}
.verdict.fail{background:#ffebe9;color:var(--disagree)}.verdict.ok{background:#dafbe1;color:var(--agree)}.verdict.error{background:#fff8c5;color:#7d4e00}
.verdict small{display:block;font-weight:400;color:#1f2328;font-size:.8em}
.sides{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:.4em 0}
.sides dt{font-weight:600}.sides dd{margin:0}
.filters{display:flex;flex-wrap:wrap;gap:8px;margin:1em 0}
.filters input{position:absolute;opacity:0}
.filters label{display:inline-flex;align-items:center;gap:6px;border:1px solid var(--line);border-radius:20px;padding:3px 12px;cursor:pointer;user-select:none}
.filters label b{font-variant-numeric:tabular-nums}
.filters input:checked+label{border-color:#1f2328;box-shadow:0 0 0 1px #1f2328;background:#f6f8fa}
.filters input:focus-visible+label{outline:2px solid #0969da}
.swatch{display:inline-block;width:12px;height:12px;border-radius:3px}
table{border-collapse:collapse}
th,td{border:1px solid var(--line);padding:3px 8px;vertical-align:top}
table.counts td,table.counts th{text-align:right}table.counts td:first-child,table.counts th:first-child{text-align:left}
table.list{width:100%}table.list th{text-align:left;background:#f6f8fa}
table.list td:first-child{white-space:nowrap}table.list th.side{width:12em}
.clamp{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.backs-a,.backs-b{font-weight:600}.backs-neither,.fault{color:var(--disagree);font-weight:600}
.matrix{display:grid;grid-template-columns:max-content 1fr;gap:8px 14px;align-items:start;margin:1em 0}
.matrix small{color:var(--muted)}
.cells{display:flex;flex-wrap:wrap;gap:3px}
.cell{display:inline-flex;align-items:center;justify-content:center;width:18px;height:18px;border-radius:3px;box-sizing:border-box;font:bold 11px/1 ui-monospace,monospace;color:#fff;text-decoration:none}
.cell:hover{transform:scale(1.25)}
.cell.sel{outline:2px solid #1f2328;outline-offset:1px}
.agree{background:var(--agree)}.disagree{background:var(--disagree)}.only{background:var(--only)}
.bothwrong{background:var(--bothwrong)}.notcompared{background:var(--notcompared)}
.skipped{background:#fff;border:1px dashed var(--only);color:var(--muted)}
body:has(#f-agree:checked) .cell:not(.agree),body:has(#f-disagree:checked) .cell:not(.disagree),
body:has(#f-only:checked) .cell:not(.only),body:has(#f-skipped:checked) .cell:not(.skipped),
body:has(#f-bothwrong:checked) .cell:not(.bothwrong),body:has(#f-notcompared:checked) .cell:not(.notcompared){opacity:.12}
.legend{color:var(--muted);margin:.3em 0}
.case{display:none;border:1px solid var(--line);border-radius:6px;padding:10px 14px;margin:1em 0}
.case:target{display:block}
.two{display:grid;grid-template-columns:1fr 1fr;gap:12px}
table.sbs{width:100%;table-layout:fixed;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
table.sbs td{white-space:pre-wrap;word-break:break-word;border:none;border-left:1px solid var(--line);padding:0 6px}
table.sbs th{text-align:left;font:600 13px system-ui,sans-serif}
tr.del td.a,tr.changed td.a{background:#ffebe9}tr.ins td.b,tr.changed td.b{background:#dafbe1}
.hint,.why{color:var(--muted)}
</style>
</head>
<body>
<h1>lembas-check diff</h1>
<dl class="sides"><dt>a</dt><dd>{{.A}}</dd><dt>b</dt><dd>{{.B}}</dd></dl>
<p class="verdict {{.Status}}" id="verdict">{{.Word}}: {{.Counts}}<small>{{.Lead}}</small></p>

<div class="filters" id="filters" role="radiogroup" aria-label="show">
<input type="radio" name="f" id="f-all" checked><label for="f-all">all <b>{{.Total.Cases}}</b></label>
{{range .Filters}}<input type="radio" name="f" id="f-{{.Kind}}"><label for="f-{{.Kind}}"><i class="swatch {{.Kind}}"></i>{{.Label}} <b>{{.N}}</b></label>
{{end}}</div>

{{range .Lists}}<section id="{{.ID}}" class="findings">
<h2>{{.Heading}}</h2>
<table class="list">
<tr><th>Case</th>{{range .Columns}}<th class="side">{{.}}</th>{{end}}<th>About</th></tr>
{{range .Items}}{{$item := .}}<tr><td><a href="#{{.Anchor}}"><code>{{.ID}}</code></a></td>{{range $i, $c := .Cells}}<td{{if eq $i 0}} class="{{$item.FirstClass}}"{{end}}>{{$c}}</td>{{end}}<td title="{{.About}}">{{if .About}}<span class="clamp">{{.About}}</span>{{else}}<span class="hint">{{.Where}}</span>{{end}}</td></tr>
{{end}}</table>
</section>
{{else}}<section id="findings"><p class="hint">No failing case: every case both sides answered has the same answer, which the spec backs.</p></section>
{{end}}
<section id="matrix">
<h2>Every case</h2>
<p class="legend">A cell per case, by area; a disagreement's letter is the side the spec backs (– neither), a case not compared the side that gave no answer (× both), a one-sided case's the side that checked it; = is the same wrong answer on both sides. Click a cell to open its case.</p>
<div class="matrix">
{{range .Areas}}<div><b>{{.Name}}</b> <small>{{.Counts.Cases}}</small></div>
<div class="cells">{{range .Cells}}<a class="cell {{.Kind}}" href="#{{.Anchor}}" title="{{.Title}}" aria-label="{{.Title}}">{{.Mark}}</a>{{end}}</div>
{{end}}</div>
</section>

<section id="areas">
<h2>Per area</h2>
<table class="counts">
<tr>{{range .CountsHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .AreaCountsRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .Only}}<h3 style="margin-top:1em">Checked by one side only, or neither</h3>
<ul id="only">{{range .Only}}<li><b>{{.Area}}</b>: {{.N}} {{.Verdict}} — <span class="why">{{.Why}}</span></li>{{end}}</ul>{{end}}
</section>

<section id="cases">
{{range .Cases}}<section class="case" id="{{.Anchor}}">
<h3><code>{{.ID}}</code> — {{.Title}}</h3>
<div>{{.Where}}{{if .About}}<br>{{.About}}{{end}}{{if .Note}}<br><b>note:</b> {{.Note}}{{end}}</div>
<div class="two"><div><h4>case</h4><pre>{{.Input}}</pre></div><div><h4>expect</h4><pre>{{.Expect}}</pre></div></div>
{{$rows := .Rows}}{{if $rows}}<h4>the answers, a beside b</h4>
<table class="sbs"><tr>{{range .Sides}}<th>{{.Who}}: {{.Name}} — {{.Verdict}}{{if .Message}}: {{.Message}}{{end}}</th>{{end}}</tr>
{{range $rows}}<tr class="{{.Op}}"><td class="a">{{.A}}</td><td class="b">{{.B}}</td></tr>
{{end}}</table>{{end}}
<div class="two">{{range .Sides}}<div>{{if not $rows}}<h4>{{.Who}}: {{.Name}} — {{.Verdict}}{{if .Message}}: {{.Message}}{{end}}</h4>{{if .Answer}}<pre>{{.Answer}}</pre>{{end}}{{end}}{{if .Stderr}}<h4>{{.Who}}: stderr (tail)</h4><pre>{{.Stderr}}</pre>{{end}}</div>{{end}}</div>
</section>
{{end}}</section>
<script>
// Marks the cell of the case that is open (the case itself opens through CSS :target).
(function () {
  function mark() {
    document.querySelectorAll(".cell.sel").forEach(function (c) { c.classList.remove("sel"); });
    if (!location.hash) return;
    var c = document.querySelector('.cells a[href="' + location.hash + '"]');
    if (c) c.classList.add("sel");
  }
  window.addEventListener("hashchange", mark);
  mark();
})();
</script>
</body>
</html>
`))
})
