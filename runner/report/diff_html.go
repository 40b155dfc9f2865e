package report

import (
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/runner"
	"html/template"
	"io"
	"strings"
	"sync"
)

// The HTML diff is one self-contained file (inline CSS and a few lines of JS, nothing fetched): a
// matrix of areas × cases coloured by verdict; each cell links to its case's panel (both answers,
// their diff), which CSS :target opens even with scripts off.

type htmlCell struct {
	ID, Anchor, Class, Title string
}

type htmlArea struct {
	Name   string
	Counts DiffCounts
	Cells  []htmlCell
}

type htmlSide struct {
	Name, Verdict, Message, Answer, Stderr string
}

type htmlLine struct{ Class, Text string }

type htmlCase struct {
	htmlCell
	Where, About, Note, Input, Expect string
	Sides                             []htmlSide
	Diff                              []htmlLine
}

type htmlPage struct {
	A, B    string
	Summary string
	Failed  bool
	Areas   []htmlArea
	Total   DiffCounts
	Cases   []htmlCase
}

func cellClass(d DiffCase) string {
	switch d.Verdict {
	case Agree:
		return "agree"
	case OnlyInA:
		return "only-a"
	case OnlyInB:
		return "only-b"
	}
	if d.Right == "neither" {
		return "neither"
	}
	return d.Right + "-right"
}

func htmlSideOf(name string, r *runner.Result) htmlSide {
	if r == nil {
		return htmlSide{Name: name, Verdict: "not in this run"}
	}
	s := htmlSide{Name: name, Verdict: string(baseVerdict(r.Verdict)), Message: r.Message, Stderr: r.Stderr}
	if answered(r) {
		s.Answer = table.JSON(r.Answer, "")
	}
	return s
}

func diffLines(diff string) []htmlLine {
	var out []htmlLine
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		class := ""
		switch t := strings.TrimLeft(l, " \t"); {
		case strings.HasPrefix(t, "-"):
			class = "del"
		case strings.HasPrefix(t, "+"):
			class = "ins"
		}
		out = append(out, htmlLine{Class: class, Text: l})
	}
	return out
}

// WriteDiffHTML writes the comparison as one self-contained HTML page.
func WriteDiffHTML(w io.Writer, c *Comparison) error {
	page := htmlPage{A: c.A.String(), B: c.B.String(), Summary: strings.SplitN(summaryLine(c), "\t", 2)[1], Failed: DiffStatus(c) != format.OK, Total: CountDiff(c.Cases)}
	names, by := c.ByArea()
	for _, a := range names {
		area := htmlArea{Name: a, Counts: CountDiff(by[a])}
		for _, d := range by[a] {
			cell := htmlCell{ID: d.Case.ID, Anchor: "case-" + strings.ReplaceAll(d.Case.ID, "/", "-"), Class: cellClass(d), Title: d.title()}
			area.Cells = append(area.Cells, cell)
			hc := htmlCase{htmlCell: cell, Where: d.Case.Where(), About: d.Case.About, Note: d.Note,
				Input: table.JSON(d.Case.Input, ""), Expect: table.JSON(d.Case.Expect, ""),
				Sides: []htmlSide{htmlSideOf("a", d.A), htmlSideOf("b", d.B)}}
			if d.Diff != "" {
				hc.Diff = diffLines(d.Diff)
			}
			page.Cases = append(page.Cases, hc)
		}
		page.Areas = append(page.Areas, area)
	}
	return diffPage().Execute(w, page)
}

// diffPage is parsed on first use, not at every start.
var diffPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("diff").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lembas-check diff: {{.A}} vs {{.B}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1f2328}
h1{font-size:1.4em}h3{font-size:1.05em;margin:.2em 0}h4{margin:.8em 0 .2em;font-size:.9em}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border-radius:4px;padding:6px 8px;overflow:auto;white-space:pre-wrap;margin:0}
table.sum{border-collapse:collapse;margin:1em 0}
table.sum th,table.sum td{border:1px solid #d0d7de;padding:2px 8px;text-align:right}
table.sum th:first-child,table.sum td:first-child{text-align:left}
.status{font-weight:600}.status.fail{color:#cf222e}.status.ok{color:#1a7f37}
.legend span{display:inline-flex;align-items:center;gap:4px;margin-right:14px}
.matrix{display:grid;grid-template-columns:max-content 1fr;gap:6px 14px;align-items:center;margin:1em 0}
.matrix small{color:#656d76}
.cells{display:flex;flex-wrap:wrap;gap:3px}
.cell{display:inline-block;width:14px;height:14px;border-radius:3px;border:1px solid rgba(31,35,40,.2)}
.cell:hover{transform:scale(1.3)}
.cell.sel{outline:2px solid #1f2328;outline-offset:1px}
.agree{background:#2da44e}.a-right{background:#0969da}.b-right{background:#bf8700}.neither{background:#cf222e}
.only-a{background:#8c959f}.only-b{background:#d0d7de}
.case{display:none;border:1px solid #d0d7de;border-radius:6px;padding:10px 14px;margin:1em 0}
.case:target{display:block}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.del{color:#cf222e}.ins{color:#1a7f37}
.hint{color:#656d76}
</style>
</head>
<body>
<h1>lembas-check diff</h1>
<p><b>a</b>: {{.A}}<br><b>b</b>: {{.B}}</p>
<p class="status {{if .Failed}}fail{{else}}ok{{end}}">{{.Summary}}</p>
<table class="sum">
<tr><th>Area</th><th>Cases</th><th>Agree</th><th>Disagree</th><th>a right</th><th>b right</th><th>Neither</th><th>Only in a</th><th>Only in b</th></tr>
{{range .Areas}}<tr><td>{{.Name}}</td><td>{{.Counts.Cases}}</td><td>{{.Counts.Agree}}</td><td>{{.Counts.Disagree}}</td><td>{{.Counts.ARight}}</td><td>{{.Counts.BRight}}</td><td>{{.Counts.Neither}}</td><td>{{.Counts.OnlyInA}}</td><td>{{.Counts.OnlyInB}}</td></tr>
{{end}}<tr><th>all</th><th>{{.Total.Cases}}</th><th>{{.Total.Agree}}</th><th>{{.Total.Disagree}}</th><th>{{.Total.ARight}}</th><th>{{.Total.BRight}}</th><th>{{.Total.Neither}}</th><th>{{.Total.OnlyInA}}</th><th>{{.Total.OnlyInB}}</th></tr>
</table>
<p class="legend"><span><i class="cell agree"></i>agree</span><span><i class="cell a-right"></i>disagree, a is right</span><span><i class="cell b-right"></i>disagree, b is right</span><span><i class="cell neither"></i>disagree, neither is right</span><span><i class="cell only-a"></i>only in a</span><span><i class="cell only-b"></i>only in b</span></p>
<div class="matrix">
{{range .Areas}}<div><b>{{.Name}}</b> <small>{{.Counts.Cases}}</small></div>
<div class="cells">{{range .Cells}}<a class="cell {{.Class}}" href="#{{.Anchor}}" title="{{.ID}}: {{.Title}}" aria-label="{{.ID}}: {{.Title}}"></a>{{end}}</div>
{{end}}</div>
<p class="hint">Click a cell to open its case.</p>
{{range .Cases}}<section class="case" id="{{.Anchor}}">
<h3><code>{{.ID}}</code> — {{.Title}}</h3>
<div>{{.Where}}{{if .About}}<br>{{.About}}{{end}}{{if .Note}}<br><b>note:</b> {{.Note}}{{end}}</div>
<h4>case</h4><pre>{{.Input}}</pre>
<h4>expect</h4><pre>{{.Expect}}</pre>
<div class="sides">{{range $s := .Sides}}<div><h4>{{$s.Name}}: {{$s.Verdict}}{{if $s.Message}}: {{$s.Message}}{{end}}</h4>{{if $s.Answer}}<pre>{{$s.Answer}}</pre>{{end}}{{if $s.Stderr}}<h4>stderr (tail)</h4><pre>{{$s.Stderr}}</pre>{{end}}</div>{{end}}</div>
{{if .Diff}}<h4>diff (-a +b)</h4><pre>{{range .Diff}}<span class="{{.Class}}">{{.Text}}</span>
{{end}}</pre>{{end}}
</section>
{{end}}
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
