package recdiff

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// The page is one self-contained file (inline CSS, no script, nothing fetched), in the diff page's
// style: the verdict first, then what changed (each distinct change once, with its pairs and
// cost), then every pair as a bar of b's prompt (shared with a, lost, b's own) that opens on its
// differences with their two sides. Pairs that break the prefix are open.

//go:embed page.html.tmpl
var pageText string

var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageText))
})

// kindColour is a difference's colour, as the audit's chart colours a break's cause.
var kindColour = map[string]string{KindAPI: "#7f7f7f", KindModel: "#7f7f7f", KindSystem: "#d62728",
	KindTools: "#ff7f0e", KindMessages: "#9467bd", KindBreakpoints: "#bcbd22", KindParameter: "#e377c2",
	KindHeader: "#e377c2"}

type htmlChange struct {
	Kind, Path, Detail, Lost, Cost string
	N                              int
	Prefix                         bool
}

type htmlDiff struct {
	Kind, Path, Detail, Tokens, Old, New string
	First                                bool
}

type htmlPair struct {
	N, ASeq, ALine, BSeq, BLine, LostTokens int
	Verdict, Shared, Prompt, Lost           string
	SharedW, LostW                          string
	LostColour, Cosmetic                    string
	Open                                    bool
	Differences                             []htmlDiff
}

type htmlUnpaired struct {
	Side, Why, Tokens string
	Seq, Line         int
}

type htmlPage struct {
	A, B                 Side
	AKeeps, BKeeps       string
	Status, Word, Counts string
	Lead, Pairing        string
	Tokenizer, Currency  string
	Priced               bool
	Changes              []htmlChange
	Pairs                []htmlPair
	Unpaired             []htmlUnpaired
}

// WriteHTML writes the comparison as a page.
func WriteHTML(w io.Writer, r *Report) error {
	st := Status(r)
	p := htmlPage{A: r.A, B: r.B, AKeeps: table.Percent(r.A.Audit.ReusableShare),
		BKeeps: table.Percent(r.B.Audit.ReusableShare), Status: map[format.Status]string{format.OK: "ok",
			format.Failed: "fail", format.Unfinished: "error"}[st], Word: st.Word(),
		Counts: pairs(r.Totals.Pairs) + ": " + counts(r.Totals), Pairing: r.Pairing,
		Tokenizer: r.Tokenizer, Currency: r.Currency, Priced: r.Totals.LostCost != nil}
	p.Lead = lead(r)
	for _, c := range r.Changes {
		p.Changes = append(p.Changes, htmlChange{Kind: c.Kind, Path: c.Path, Detail: c.Detail, N: len(c.Pairs),
			Lost: table.Count(c.LostTokens), Cost: costCell(r, c.LostCost), Prefix: c.Prefix})
	}
	for _, u := range r.Unpaired {
		p.Unpaired = append(p.Unpaired, htmlUnpaired{Side: u.Side, Why: u.Why, Tokens: table.Count(u.PromptTokens),
			Seq: u.Seq, Line: u.Line})
	}
	for _, q := range r.Pairs {
		p.Pairs = append(p.Pairs, pagePair(q))
	}
	return page().Execute(w, p)
}

// lead is the verdict's second line: the tokens shared, and the first change that breaks the
// prefix.
func lead(r *Report) string {
	t := r.Totals
	s := fmt.Sprintf("%s of %s prompt tokens shared (%s)", table.Count(t.SharedTokens), table.Count(t.PromptTokens),
		table.Percent(t.SharedShare))
	if t.LostCost != nil {
		s += ", " + money(r, *t.LostCost) + " lost"
	}
	for _, c := range r.Changes {
		if c.Prefix {
			return s + "; first: " + c.Kind + " at " + c.Path + ": " + c.Detail
		}
	}
	if t.Breaks == 0 {
		s += "; no difference changes a cached prefix"
	}
	return s
}

func pagePair(q Pair) htmlPair {
	const width = 240.0
	hp := htmlPair{N: q.N, ASeq: q.A.Seq, ALine: q.A.Line, BSeq: q.B.Seq, BLine: q.B.Line, LostTokens: q.LostTokens,
		Verdict: q.Verdict, Shared: table.Count(q.SharedTokens), Prompt: table.Count(q.PromptTokens),
		Lost: table.Count(q.LostTokens), Cosmetic: cosmeticText(q.Cosmetic), Open: q.Verdict == Breaks,
		LostColour: "#d62728"}
	if n := q.PromptTokens; n > 0 {
		shared := width * float64(min(q.SharedTokens, n)) / float64(n)
		hp.SharedW = fmt.Sprintf("%.1f", shared)
		hp.LostW = fmt.Sprintf("%.1f", min(width-shared, width*float64(q.LostTokens)/float64(n)))
	} else {
		hp.SharedW, hp.LostW = "0", "0"
	}
	for _, d := range q.Differences {
		hd := htmlDiff{Kind: d.Kind, Path: d.Path, Detail: d.Detail, Tokens: tokensText(d) + restText(d),
			First: d.First}
		if d.Change != nil {
			hd.Old, hd.New = d.Change.Old, d.Change.New
		}
		if d.First {
			hp.LostColour = kindColour[d.Kind]
		}
		hp.Differences = append(hp.Differences, hd)
	}
	hp.Cosmetic = strings.TrimSpace(hp.Cosmetic)
	return hp
}
