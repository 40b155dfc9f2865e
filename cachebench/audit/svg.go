package audit

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// colors of the causes that lose tokens, and of what is reused.
var causeColor = map[Cause]string{
	SystemChanged:      "#d62728",
	ToolsChanged:       "#ff7f0e",
	MessageRewritten:   "#9467bd",
	Compaction:         "#1f77b4",
	ModelChanged:       "#7f7f7f",
	IdlePastTTL:        "#8c564b",
	KeyChanged:         "#e377c2",
	BreakpointsMoved:   "#bcbd22",
	TooManyBreakpoints: "#7f7f7f",
	UnderMinimum:       "#17becf",
	AcrossSessions:     "#aec7e8",
}

const (
	colorReused = "#2ca02c"
	colorRead   = "#d9d9d9"
	colorConv   = "#57606a"
)

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func causeColorOf(c Cause) string {
	if col, ok := causeColor[c]; ok {
		return col
	}
	return "#000"
}

// chartName is the file's base name, cut in the middle with an ellipsis past max characters.
func chartName(path string, max int) string {
	name := filepath.Base(path)
	if path == "" {
		name = "recording"
	}
	r := []rune(name)
	if len(r) <= max {
		return name
	}
	keep := max - 1
	return string(r[:keep-keep/2]) + "…" + string(r[len(r)-keep/2:])
}

// chartVerdict is the chart's headline: the audit's status word and, in words, what broke and
// what it cost — so a failing and a passing session do not look alike.
func chartVerdict(r *Report) string {
	t := r.Totals
	switch Status(r) {
	case format.Unfinished:
		if why := NoRequest(r); why != "" {
			return "ERROR — " + why
		}
		return "ERROR — not audited whole: the recording is damaged"
	case format.Failed:
		return fmt.Sprintf("FAIL — %s the spec does not allow, %s tokens lost", plural(t.Failing, "break"), table.Count(t.LostTokens))
	}
	if t.Breaks == 0 {
		return "ok — no break: every request continues the one before it"
	}
	return fmt.Sprintf("ok — %s allowed, %s tokens lost", plural(t.Breaks, "break"), table.Count(t.LostTokens))
}

// plural is "1 break", "3 breaks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%s %ss", table.Count(n), noun)
}

// ticks are the request numbers (seq, as the table and the break list name requests) the axis
// names: the first, then round numbers 1, 2 or 5 × 10ⁿ apart, as many as fit one every 70 px.
func ticks(first, last int, plot float64) []int {
	if last < first {
		return nil
	}
	most := max(2, int(plot/70))
	span := last - first + 1
	step := 1
	for _, m := range []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000, 100000} {
		step = m
		if span/m < most {
			break
		}
	}
	out := []int{first}
	for k := (first/step + 1) * step; k <= last; k += step {
		if k-first >= step/2 {
			out = append(out, k)
		}
	}
	return out
}

// chartBreak is a break as the chart marks it: where, its label, and the row its number sits in
// above the plot (-1: no room; the list below still names it).
type chartBreak struct {
	i   int
	q   Request
	num int
	row int
}

// maxListed bounds the breaks the list under the chart names; the table and markdown list all.
const maxListed = 12

// WriteSVG draws the report as a chart that answers "where did it break and what did it cost":
// the verdict and the tokens lost in the title; above, each request's prompt — reused (green),
// lost to a break (the cause's colour), new (grey); below, the tokens each break lost; every
// break marked across both panels and numbered above them, drawn over the bars so that it shows
// and has its tooltip even where a bar is narrower than a pixel, and named in a list under the
// axis (request, cause, tokens lost); conversation starts marked apart, under the axis; a legend
// of the causes present only. Hand-written SVG.
func WriteSVG(w io.Writer, r *Report) error {
	n := len(r.Requests)
	const left, right, top, panel, gap = 72.0, 24.0, 118.0, 150.0, 40.0
	plot := 900.0
	if n > 150 {
		plot = 1200
	}
	width := left + plot + right
	bw := plot / float64(max(1, n))
	// A gap between bars when they are wide enough to keep one.
	pad := 0.0
	if bw >= 4 {
		pad = math.Min(2, bw*0.2)
	}
	xOf := func(i int) float64 { return left + float64(i)*bw }
	mid := func(i int) float64 { return xOf(i) + bw/2 }

	var breaks []chartBreak
	present := map[Cause]bool{}
	convs := 0
	for i, q := range r.Requests {
		if q.Break {
			breaks = append(breaks, chartBreak{i: i, q: q, row: -1})
			present[q.Cause] = true
		}
		if q.Cause == NewConversation {
			convs++
		}
	}
	// The list under the chart: the failing breaks first, then the costliest, up to maxListed;
	// numbered in the order of the session.
	listed := make([]int, len(breaks))
	for k := range listed {
		listed[k] = k
	}
	sort.SliceStable(listed, func(a, b int) bool {
		qa, qb := breaks[listed[a]].q, breaks[listed[b]].q
		if qa.Fails != qb.Fails {
			return qa.Fails
		}
		return qa.LostTokens > qb.LostTokens
	})
	if len(listed) > maxListed {
		listed = listed[:maxListed]
	}
	sort.Ints(listed)
	for k, b := range listed {
		breaks[b].num = k + 1
	}
	// Numbers above the plot, in up to three rows, where they do not overlap.
	const rows = 3
	var lastEnd [rows]float64
	for k := range lastEnd {
		lastEnd[k] = -1e9
	}
	for k := range breaks {
		if breaks[k].num == 0 {
			continue
		}
		x := mid(breaks[k].i)
		half := 4 + 3.5*float64(len(fmt.Sprint(breaks[k].num)))
		for row := range rows {
			if x-half > lastEnd[row]+2 {
				breaks[k].row, lastEnd[row] = row, x+half
				break
			}
		}
	}

	y0 := top
	y1 := top + panel + gap
	lower := len(breaks) > 0
	axisY := y0 + panel
	if lower {
		axisY = y1 + panel
	}
	// The legend: what the colours and marks are, the causes present only, wrapped to the width.
	type entry struct {
		label, color, shape string
		x, y                float64
	}
	legend := []entry{{label: "reused", color: colorReused}, {label: "new", color: colorRead}}
	for _, c := range Causes {
		if present[c] {
			legend = append(legend, entry{label: string(c), color: causeColorOf(c)})
		}
	}
	if len(breaks) > 0 {
		legend = append(legend, entry{label: "break (numbered below)", color: "#1f2328", shape: "break"})
	}
	legend = append(legend, entry{label: "conversation starts", color: colorConv, shape: "conv"})
	lx, ly := left, axisY+44
	noBreakY := ly
	if !lower && n > 0 {
		ly += 26 // the "no break" line stands where the lower panel would
	}
	for i := range legend {
		w := 30 + 6.5*float64(len([]rune(legend[i].label)))
		if lx+w > width-right && lx > left {
			lx, ly = left, ly+18
		}
		legend[i].x, legend[i].y = lx, ly
		lx += w
	}
	listY := ly + 24
	lines := len(listed)
	if len(breaks) > len(listed) {
		lines++
	}
	height := listY + 16*float64(lines) + 40

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12" fill="#1f2328">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<title>%s</title>`+"\n", esc(chartName(r.File, 60)+": "+chartVerdict(r)))
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")

	// Title: the verdict, coloured by it, then the totals.
	verdictColor := map[format.Status]string{format.OK: "#1a7f37", format.Failed: "#cf222e", format.Unfinished: "#9a6700"}[Status(r)]
	fmt.Fprintf(&b, `<text id="verdict" x="%.0f" y="24" font-size="16" font-weight="bold"><tspan>%s</tspan> <tspan fill="%s">%s</tspan></text>`+"\n",
		left, esc(chartName(r.File, 48)+":"), verdictColor, esc(chartVerdict(r)))
	t := r.Totals
	conv := "conversations"
	if t.Conversations == 1 {
		conv = "conversation"
	}
	sub := fmt.Sprintf("%s requests in %d %s · %s prompt tokens · %s reusable", table.Count(t.Requests), t.Conversations, conv, table.Count(t.PromptTokens), pct(t.ReusableShare))
	if t.LostTokens > 0 {
		sub += fmt.Sprintf(" (%s without the breaks)", pct(t.PossibleShare))
	}
	fmt.Fprintf(&b, `<text id="subtitle" x="%.0f" y="44">%s</text>`+"\n", left, esc(sub))
	fmt.Fprintf(&b, `<text id="caption" x="%.0f" y="66" fill="#59636e">each request's prompt: reused from the request it continues, lost to a break, new</text>`+"\n", left)

	// Upper panel: each prompt as reused, lost and new tokens.
	for i, f := range []float64{0, 0.5, 1} {
		y := y0 + panel*(1-f)
		fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#d0d7de"/><text x="%.0f" y="%.1f" text-anchor="end" fill="#59636e">%d %%</text>`+"\n", left, left+plot, y, y, left-6, y+4, []int{0, 50, 100}[i])
	}
	b.WriteString(`<g id="prompts" shape-rendering="crispEdges">` + "\n")
	for i, q := range r.Requests {
		if q.PromptTokens <= 0 {
			continue
		}
		x, wd := xOf(i)+pad/2, bw-pad
		reused := panel * float64(q.ReusableTokens) / float64(q.PromptTokens)
		lost := panel * math.Min(1, float64(q.LostTokens)/float64(q.PromptTokens))
		if reused+lost > panel {
			lost = panel - reused
		}
		tip := fmt.Sprintf("request %d: %s prompt tokens, %s reused (%s), %s lost; %s", q.Seq, table.Count(q.PromptTokens), table.Count(q.ReusableTokens),
			pct(float64(q.ReusableTokens)/float64(q.PromptTokens)), table.Count(q.LostTokens), q.Cause)
		fmt.Fprintf(&b, `<g><title>%s</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/>`, esc(tip), x, y0, wd, panel-reused-lost, colorRead)
		if lost > 0 {
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/>`, x, y0+panel-reused-lost, wd, lost, causeColorOf(q.Cause))
		}
		fmt.Fprintf(&b, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/></g>`+"\n", x, y0+panel-reused, wd, reused, colorReused)
	}
	b.WriteString("</g>\n")

	// Lower panel: the tokens each break lost, or a clear "no break".
	if lower {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="#59636e">tokens lost to each break, by cause</text>`+"\n", left, y1-8)
		maxLost := 0
		for _, q := range r.Requests {
			maxLost = max(maxLost, q.LostTokens)
		}
		scale := 0.0
		if maxLost > 0 {
			scale = panel / float64(maxLost)
		}
		fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#d0d7de"/><text x="%.0f" y="%.1f" text-anchor="end" fill="#59636e">0</text>`+"\n", left, left+plot, y1+panel, y1+panel, left-6, y1+panel+4)
		fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#d0d7de"/><text x="%.0f" y="%.1f" text-anchor="end" fill="#59636e">%s</text>`+"\n", left, left+plot, y1, y1, left-6, y1+4, table.Count(maxLost))
		for _, k := range breaks {
			q := k.q
			h := float64(q.LostTokens) * scale
			wd := math.Max(bw-pad, 1.5)
			fmt.Fprintf(&b, `<g><title>%s</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/></g>`+"\n",
				esc(fmt.Sprintf("request %d: %s tokens lost, %s at %s", q.Seq, table.Count(q.LostTokens), q.Cause, q.Path)), mid(k.i)-wd/2, y1+panel-h, wd, h, causeColorOf(q.Cause))
		}
	} else if n > 0 {
		fmt.Fprintf(&b, `<text id="no-break" x="%.0f" y="%.0f" font-size="14" font-weight="bold" fill="#1a7f37">No break: every request continues the one before it, or starts a conversation (%d).</text>`+"\n", left, noBreakY, convs)
	}

	// The breaks, over the bars: a line across the panels in the cause's colour, a mark and its
	// number above.
	b.WriteString(`<g id="breaks">` + "\n")
	for _, k := range breaks {
		q, x := k.q, mid(k.i)
		col := causeColorOf(q.Cause)
		verdict := "allowed"
		if q.Fails {
			verdict = "fails the audit"
		}
		tip := fmt.Sprintf("break at request %d: %s, %s tokens lost (%s)", q.Seq, q.Cause, table.Count(q.LostTokens), verdict)
		fmt.Fprintf(&b, `<g class="break" data-request="%d"><title>%s</title>`, q.Seq, esc(tip))
		fmt.Fprintf(&b, `<line x1="%.2f" x2="%.2f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5" stroke-opacity="0.85"/>`, x, x, y0-4, axisY, col)
		fmt.Fprintf(&b, `<path d="M%.2f %.1f l-5 -8 h10 z" fill="%s"/>`, x, y0-4, col)
		if k.num > 0 && k.row >= 0 {
			fmt.Fprintf(&b, `<text class="break-number" x="%.2f" y="%.1f" text-anchor="middle" font-size="11" font-weight="bold" fill="%s">%d</text>`, x, y0-15-13*float64(k.row), col, k.num)
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</g>\n")

	// Axis: round request numbers; conversation starts marked under it, apart from the breaks.
	var first, last int
	if n > 0 {
		first, last = r.Requests[0].Seq, r.Requests[n-1].Seq
	}
	for _, k := range ticks(first, last, plot) {
		// At the first request numbered k or more (seq runs past other exchanges).
		x := mid(sort.Search(n, func(i int) bool { return r.Requests[i].Seq >= k }))
		fmt.Fprintf(&b, `<line x1="%.2f" x2="%.2f" y1="%.1f" y2="%.1f" stroke="#59636e"/><text class="tick" x="%.2f" y="%.1f" text-anchor="middle" fill="#59636e">%d</text>`+"\n", x, x, axisY, axisY+4, x, axisY+16, k)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end" fill="#59636e">request</text>`+"\n", left-6, axisY+16)
	b.WriteString(`<g id="conversations">` + "\n")
	for i, q := range r.Requests {
		if q.Cause != NewConversation {
			continue
		}
		x := mid(i)
		fmt.Fprintf(&b, `<g class="conversation"><title>%s</title><path d="M%.2f %.1f l-4 7 h8 z" fill="%s"/></g>`+"\n",
			esc(fmt.Sprintf("request %d starts conversation %d (not a break)", q.Seq, q.Conversation)), x, axisY+20, colorConv)
	}
	b.WriteString("</g>\n")

	b.WriteString(`<g id="legend">` + "\n")
	for _, l := range legend {
		switch l.shape {
		case "break":
			fmt.Fprintf(&b, `<path d="M%.0f %.0f l-5 -8 h10 z" fill="%s"/>`, l.x+5, l.y+1, l.color)
		case "conv":
			fmt.Fprintf(&b, `<path d="M%.0f %.0f l-4 7 h8 z" fill="%s"/>`, l.x+5, l.y-7, l.color)
		default:
			fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="%s"/>`, l.x, l.y-9, l.color)
		}
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">%s</text>`+"\n", l.x+14, l.y, esc(l.label))
	}
	b.WriteString("</g>\n")

	// The breaks named: number, request, cause, tokens lost, whether it fails.
	if len(listed) > 0 {
		b.WriteString(`<g id="break-list">` + "\n")
		for k, bi := range listed {
			q := breaks[bi].q
			verdict := "allowed"
			if q.Fails {
				verdict = "fails the audit"
			}
			y := listY + 16*float64(k)
			fmt.Fprintf(&b, `<text class="break-label" x="%.0f" y="%.1f"><tspan font-weight="bold" fill="%s">%d</tspan>  request %d: %s, %s tokens lost — %s%s</text>`+"\n",
				left, y, causeColorOf(q.Cause), k+1, q.Seq, esc(string(q.Cause)), table.Count(q.LostTokens), verdict, esc(pathNote(q.Path)))
		}
		if more := len(breaks) - len(listed); more > 0 {
			fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" fill="#59636e">and %d more break(s), marked above: the table lists every one</text>`+"\n", left, listY+16*float64(len(listed)), more)
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// pathNote is a break's path for the list, cut to stay on the line.
func pathNote(path string) string {
	if path == "" {
		return ""
	}
	return " (at " + table.Cut(path, 60) + ")"
}
