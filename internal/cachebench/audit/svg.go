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
	ModelChanged:       "#e7ba52", // not grey: the conversation-start mark is (issue 27)
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
		return fmt.Sprintf("FAIL — %s the spec does not allow, %s tokens lost", plural(t.Failing, "break"),
			table.Count(t.LostTokens))
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
	for _, m := range []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000,
		100000} {
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
	c := newChart(r)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" `+
		`font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12" fill="#1f2328">`+"\n",
		c.width, c.height, c.width, c.height)
	fmt.Fprintf(&b, `<title>%s</title>`+"\n", esc(chartName(r.File, 60)+": "+chartVerdict(r)))
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	c.title(&b)
	c.prompts(&b)
	c.losses(&b)
	c.breakMarks(&b)
	c.axis(&b)
	c.legendSVG(&b)
	c.breakList(&b)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// chart is the chart's layout, worked out before anything is drawn: the panels' geometry, the
// breaks with their numbers, the legend's places, and where the list under the axis starts.
type chart struct {
	r                            *Report
	n                            int
	left, right, top, panel, gap float64
	plot, width, bw, pad         float64
	y0, y1, axisY                float64
	lower                        bool // a lower panel: there is a break
	breaks                       []chartBreak
	listed                       []int // the breaks the list names, by index into breaks
	present                      map[Cause]bool
	convs                        int
	legend                       []legendEntry
	noBreakY, listY, height      float64
}

// legendEntry is one entry of the legend: its label, colour, mark and place.
type legendEntry struct {
	label, color, shape string
	x, y                float64
}

func newChart(r *Report) *chart {
	c := &chart{r: r, n: len(r.Requests), left: 72, right: 24, top: 118, panel: 150, gap: 40, plot: 900,
		present: map[Cause]bool{}}
	if c.n > 150 {
		c.plot = 1200
	}
	c.width = c.left + c.plot + c.right
	c.bw = c.plot / float64(max(1, c.n))
	// A gap between bars when they are wide enough to keep one.
	if c.bw >= 4 {
		c.pad = math.Min(2, c.bw*0.2)
	}
	for i, q := range r.Requests {
		if q.Break {
			c.breaks = append(c.breaks, chartBreak{i: i, q: q, row: -1})
			c.present[q.Cause] = true
		}
		if q.Cause == NewConversation {
			c.convs++
		}
	}
	c.numberBreaks()
	c.y0, c.y1 = c.top, c.top+c.panel+c.gap
	c.lower = len(c.breaks) > 0
	c.axisY = c.y0 + c.panel
	if c.lower {
		c.axisY = c.y1 + c.panel
	}
	c.layoutLegend()
	lines := len(c.listed)
	if len(c.breaks) > len(c.listed) {
		lines++
	}
	c.height = c.listY + 16*float64(lines) + 40
	return c
}

func (c *chart) xOf(i int) float64 { return c.left + float64(i)*c.bw }
func (c *chart) mid(i int) float64 { return c.xOf(i) + c.bw/2 }

// numberBreaks picks the breaks the list under the chart names — the failing first, then the
// costliest, up to maxListed — numbers them in the order of the session, and places each number
// above the plot in up to three rows, where they do not overlap.
func (c *chart) numberBreaks() {
	breaks := c.breaks
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
	c.listed = listed
	const rows = 3
	var lastEnd [rows]float64
	for k := range lastEnd {
		lastEnd[k] = -1e9
	}
	for k := range breaks {
		if breaks[k].num == 0 {
			continue
		}
		x := c.mid(breaks[k].i)
		half := 4 + 3.5*float64(len(fmt.Sprint(breaks[k].num)))
		for row := range rows {
			if x-half > lastEnd[row]+2 {
				breaks[k].row, lastEnd[row] = row, x+half
				break
			}
		}
	}
}

// layoutLegend lists what the colours and marks are, the causes present only, wrapped to the
// width, and puts the list of breaks under it.
func (c *chart) layoutLegend() {
	legend := []legendEntry{{label: "reused", color: colorReused}, {label: "new", color: colorRead}}
	for _, cause := range Causes {
		if c.present[cause] {
			legend = append(legend, legendEntry{label: string(cause), color: causeColorOf(cause)})
		}
	}
	if len(c.breaks) > 0 {
		legend = append(legend, legendEntry{label: "break (numbered below)", color: "#1f2328", shape: "break"})
	}
	legend = append(legend, legendEntry{label: "conversation starts", color: colorConv, shape: "conv"})
	lx, ly := c.left, c.axisY+44
	c.noBreakY = ly
	if !c.lower && c.n > 0 {
		ly += 26 // the "no break" line stands where the lower panel would
	}
	for i := range legend {
		w := 30 + 6.5*float64(len([]rune(legend[i].label)))
		if lx+w > c.width-c.right && lx > c.left {
			lx, ly = c.left, ly+18
		}
		legend[i].x, legend[i].y = lx, ly
		lx += w
	}
	c.legend = legend
	c.listY = ly + 24
}

// title writes the verdict, coloured by it, then the totals and what the upper panel shows.
func (c *chart) title(b *strings.Builder) {
	r, left := c.r, c.left
	verdictColor := map[format.Status]string{format.OK: "#1a7f37", format.Failed: "#cf222e",
		format.Unfinished: "#9a6700"}[Status(r)]
	fmt.Fprintf(b, `<text id="verdict" x="%.0f" y="24" font-size="16" font-weight="bold"><tspan>%s</tspan> `+
		`<tspan fill="%s">%s</tspan></text>`+"\n",
		left, esc(chartName(r.File, 48)+":"), verdictColor, esc(chartVerdict(r)))
	t := r.Totals
	conv := "conversations"
	if t.Conversations == 1 {
		conv = "conversation"
	}
	sub := fmt.Sprintf("%s requests in %d %s · %s prompt tokens · %s reusable", table.Count(t.Requests),
		t.Conversations, conv, table.Count(t.PromptTokens), pct(t.ReusableShare))
	if t.LostTokens > 0 {
		sub += fmt.Sprintf(" (%s without the breaks)", pct(t.PossibleShare))
	}
	fmt.Fprintf(b, `<text id="subtitle" x="%.0f" y="44">%s</text>`+"\n", left, esc(sub))
	fmt.Fprintf(b, `<text id="caption" x="%.0f" y="66" fill="#59636e">each request's prompt: reused from the `+
		`request it continues, lost to a break, new</text>`+"\n", left)
}

// prompts draws the upper panel: each prompt as reused, lost and new tokens.
func (c *chart) prompts(b *strings.Builder) {
	left, plot, panel, y0 := c.left, c.plot, c.panel, c.y0
	for i, f := range []float64{0, 0.5, 1} {
		y := y0 + panel*(1-f)
		fmt.Fprintf(b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#d0d7de"/><text x="%.0f" y="%.1f" `+
			`text-anchor="end" fill="#59636e">%d %%</text>`+"\n", left, left+plot, y, y, left-6, y+4, []int{0, 50,
			100}[i])
	}
	b.WriteString(`<g id="prompts" shape-rendering="crispEdges">` + "\n")
	for i, q := range c.r.Requests {
		if q.PromptTokens <= 0 {
			continue
		}
		x, wd := c.xOf(i)+c.pad/2, c.bw-c.pad
		reused := panel * float64(q.ReusableTokens) / float64(q.PromptTokens)
		lost := panel * math.Min(1, float64(q.LostTokens)/float64(q.PromptTokens))
		if reused+lost > panel {
			lost = panel - reused
		}
		tip := fmt.Sprintf("request %d: %s prompt tokens, %s reused (%s), %s lost; %s", q.Seq,
			table.Count(q.PromptTokens), table.Count(q.ReusableTokens),
			pct(float64(q.ReusableTokens)/float64(q.PromptTokens)), table.Count(q.LostTokens), q.Cause)
		fmt.Fprintf(b, `<g><title>%s</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/>`,
			esc(tip), x, y0, wd, panel-reused-lost, colorRead)
		if lost > 0 {
			fmt.Fprintf(b, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/>`,
				x, y0+panel-reused-lost, wd, lost, causeColorOf(q.Cause))
		}
		fmt.Fprintf(b, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/></g>`+"\n",
			x, y0+panel-reused, wd, reused, colorReused)
	}
	b.WriteString("</g>\n")
}

// losses draws the lower panel, the tokens each break lost, or a clear "no break".
func (c *chart) losses(b *strings.Builder) {
	left, plot, panel, y1 := c.left, c.plot, c.panel, c.y1
	if !c.lower {
		if c.n > 0 {
			fmt.Fprintf(b, `<text id="no-break" x="%.0f" y="%.0f" font-size="14" font-weight="bold" fill="#1a7f37">`+
				`No break: every request continues the one before it, or starts a conversation (%d).</text>`+"\n",
				left, c.noBreakY, c.convs)
		}
		return
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" fill="#59636e">tokens lost to each break, by cause</text>`+"\n", left, y1-8)
	maxLost := 0
	for _, q := range c.r.Requests {
		maxLost = max(maxLost, q.LostTokens)
	}
	scale := 0.0
	if maxLost > 0 {
		scale = panel / float64(maxLost)
	}
	fmt.Fprintf(b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#d0d7de"/><text x="%.0f" y="%.1f" `+
		`text-anchor="end" fill="#59636e">0</text>`+"\n", left, left+plot, y1+panel, y1+panel, left-6, y1+panel+4)
	fmt.Fprintf(b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#d0d7de"/><text x="%.0f" y="%.1f" `+
		`text-anchor="end" fill="#59636e">%s</text>`+"\n", left, left+plot, y1, y1, left-6, y1+4, table.Count(maxLost))
	for _, k := range c.breaks {
		q := k.q
		h := float64(q.LostTokens) * scale
		wd := math.Max(c.bw-c.pad, 1.5)
		fmt.Fprintf(b, `<g><title>%s</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/></g>`+"\n",
			esc(fmt.Sprintf("request %d: %s tokens lost, %s at %s", q.Seq, table.Count(q.LostTokens), q.Cause, q.Path)),
			c.mid(k.i)-wd/2, y1+panel-h, wd, h, causeColorOf(q.Cause))
	}
}

// breakVerdict is what a break means for the audit, in words.
func breakVerdict(q Request) string {
	if q.Fails {
		return "fails the audit"
	}
	return "allowed"
}

// breakMarks draws the breaks over the bars: a line across the panels in the cause's colour, a
// mark and its number above.
func (c *chart) breakMarks(b *strings.Builder) {
	y0 := c.y0
	b.WriteString(`<g id="breaks">` + "\n")
	for _, k := range c.breaks {
		q, x := k.q, c.mid(k.i)
		col := causeColorOf(q.Cause)
		tip := fmt.Sprintf("break at request %d: %s, %s tokens lost (%s)", q.Seq, q.Cause, table.Count(q.LostTokens),
			breakVerdict(q))
		fmt.Fprintf(b, `<g class="break" data-request="%d"><title>%s</title>`, q.Seq, esc(tip))
		fmt.Fprintf(b, `<line x1="%.2f" x2="%.2f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5" `+
			`stroke-opacity="0.85"/>`, x, x, y0-4, c.axisY, col)
		fmt.Fprintf(b, `<path d="M%.2f %.1f l-5 -8 h10 z" fill="%s"/>`, x, y0-4, col)
		if k.num > 0 && k.row >= 0 {
			fmt.Fprintf(b, `<text class="break-number" x="%.2f" y="%.1f" text-anchor="middle" font-size="11" `+
				`font-weight="bold" fill="%s">%d</text>`, x, y0-15-13*float64(k.row), col, k.num)
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</g>\n")
}

// axis draws round request numbers, and the conversation starts under it, apart from the breaks.
func (c *chart) axis(b *strings.Builder) {
	r, n, axisY := c.r, c.n, c.axisY
	var first, last int
	if n > 0 {
		first, last = r.Requests[0].Seq, r.Requests[n-1].Seq
	}
	for _, k := range ticks(first, last, c.plot) {
		// At the first request numbered k or more (seq runs past other exchanges).
		x := c.mid(sort.Search(n, func(i int) bool { return r.Requests[i].Seq >= k }))
		fmt.Fprintf(b, `<line x1="%.2f" x2="%.2f" y1="%.1f" y2="%.1f" stroke="#59636e"/><text class="tick" `+
			`x="%.2f" y="%.1f" text-anchor="middle" fill="#59636e">%d</text>`+"\n", x, x, axisY, axisY+4, x, axisY+16,
			k)
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.1f" text-anchor="end" fill="#59636e">request</text>`+"\n", c.left-6, axisY+16)
	b.WriteString(`<g id="conversations">` + "\n")
	for i, q := range r.Requests {
		if q.Cause != NewConversation {
			continue
		}
		fmt.Fprintf(b, `<g class="conversation"><title>%s</title><path d="M%.2f %.1f l-4 7 h8 z" fill="%s"/></g>`+"\n",
			esc(fmt.Sprintf("request %d starts conversation %d (not a break)", q.Seq, q.Conversation)),
			c.mid(i), axisY+20, colorConv)
	}
	b.WriteString("</g>\n")
}

func (c *chart) legendSVG(b *strings.Builder) {
	b.WriteString(`<g id="legend">` + "\n")
	for _, l := range c.legend {
		switch l.shape {
		case "break":
			fmt.Fprintf(b, `<path d="M%.0f %.0f l-5 -8 h10 z" fill="%s"/>`, l.x+5, l.y+1, l.color)
		case "conv":
			fmt.Fprintf(b, `<path d="M%.0f %.0f l-4 7 h8 z" fill="%s"/>`, l.x+5, l.y-7, l.color)
		default:
			fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="%s"/>`, l.x, l.y-9, l.color)
		}
		fmt.Fprintf(b, `<text x="%.0f" y="%.0f">%s</text>`+"\n", l.x+14, l.y, esc(l.label))
	}
	b.WriteString("</g>\n")
}

// breakList names the breaks: number, request, cause, tokens lost, whether it fails.
func (c *chart) breakList(b *strings.Builder) {
	if len(c.listed) == 0 {
		return
	}
	b.WriteString(`<g id="break-list">` + "\n")
	for k, bi := range c.listed {
		q := c.breaks[bi].q
		y := c.listY + 16*float64(k)
		fmt.Fprintf(b, `<text class="break-label" x="%.0f" y="%.1f"><tspan font-weight="bold" fill="%s">%d</tspan>  `+
			`request %d: %s, %s tokens lost — %s%s</text>`+"\n", c.left, y, causeColorOf(q.Cause), k+1, q.Seq,
			esc(string(q.Cause)), table.Count(q.LostTokens), breakVerdict(q), esc(pathNote(q.Path)))
	}
	if more := len(c.breaks) - len(c.listed); more > 0 {
		fmt.Fprintf(b, `<text x="%.0f" y="%.1f" fill="#59636e">and %d more break(s), marked above: the table lists `+
			`every one</text>`+"\n", c.left, c.listY+16*float64(len(c.listed)), more)
	}
	b.WriteString("</g>\n")
}

// pathNote is a break's path for the list, cut to stay on the line.
func pathNote(path string) string {
	if path == "" {
		return ""
	}
	return " (at " + table.Cut(path, 60) + ")"
}
