package audit

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

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
)

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// WriteSVG draws the report: above, each request's prompt as the share a prefix cache could reuse
// (green) and the rest; below, the tokens each request lost, coloured by cause. Hand-written SVG,
// one rect per bar, each with a tooltip.
func WriteSVG(w io.Writer, r *Report) error {
	n := len(r.Requests)
	const left, right, top, panel, gap, bottom = 64.0, 16.0, 48.0, 150.0, 44.0, 56.0
	plot := 900.0
	if n > 150 {
		plot = 1200
	}
	width := left + plot + right
	height := top + panel + gap + panel + bottom
	bw := plot / float64(max(1, n))
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	title := fmt.Sprintf("%s — %d requests, %s prompt tokens, %s reusable", r.File, r.Totals.Requests, table.Count(r.Totals.PromptTokens), pct(r.Totals.ReusableShare))
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", left, esc(title))
	fmt.Fprintf(&b, `<text x="%.0f" y="38">cached share of each request's prompt (a prefix cache holding the request it continues)</text>`+"\n", left)
	// Upper panel: shares.
	y0 := top
	for i, f := range []float64{0, 0.5, 1} {
		y := y0 + panel*(1-f)
		fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#ccc"/><text x="%.0f" y="%.1f" text-anchor="end">%d %%</text>`+"\n", left, left+plot, y, y, left-6, y+4, []int{0, 50, 100}[i])
	}
	for i, q := range r.Requests {
		x := left + float64(i)*bw
		share := 0.0
		if q.PromptTokens > 0 {
			share = float64(q.ReusableTokens) / float64(q.PromptTokens)
		}
		h := panel * share
		tip := fmt.Sprintf("request %d: %s prompt tokens, %s reusable (%s), %s lost; %s", q.Seq, table.Count(q.PromptTokens), table.Count(q.ReusableTokens), pct(share), table.Count(q.LostTokens), q.Cause)
		fmt.Fprintf(&b, `<g><title>%s</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/></g>`+"\n",
			esc(tip), x, y0, bw, panel-h, colorRead, x, y0+panel-h, bw, h, colorReused)
	}
	// Lower panel: lost tokens by cause.
	y1 := top + panel + gap
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">tokens lost to each break, by cause</text>`+"\n", left, y1-8)
	maxLost := 0
	for _, q := range r.Requests {
		maxLost = max(maxLost, q.LostTokens)
	}
	scale := 0.0
	if maxLost > 0 {
		scale = panel / float64(maxLost)
	}
	fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#ccc"/><text x="%.0f" y="%.1f" text-anchor="end">0</text>`+"\n", left, left+plot, y1+panel, y1+panel, left-6, y1+panel+4)
	fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#ccc"/><text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left, left+plot, y1, y1, left-6, y1+4, table.Count(maxLost))
	for i, q := range r.Requests {
		if q.LostTokens == 0 {
			continue
		}
		x := left + float64(i)*bw
		h := float64(q.LostTokens) * scale
		col := causeColor[q.Cause]
		if col == "" {
			col = "#000"
		}
		tip := fmt.Sprintf("request %d: %s tokens lost, %s at %s", q.Seq, table.Count(q.LostTokens), q.Cause, q.Path)
		fmt.Fprintf(&b, `<g><title>%s</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/></g>`+"\n", esc(tip), x, y1+panel-h, max(bw, 1.5), h, col)
	}
	// Axis: request numbers at the ends; legend.
	ya := y1 + panel + 16
	if n > 0 {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">request %d</text><text x="%.0f" y="%.0f" text-anchor="end">request %d</text>`+"\n", left, ya, r.Requests[0].Seq, left+plot, ya, r.Requests[n-1].Seq)
	}
	lx := left
	legend := []struct{ label, color string }{{"reusable", colorReused}, {"read again or new", colorRead}}
	for _, c := range Causes {
		if col, ok := causeColor[c]; ok {
			legend = append(legend, struct{ label, color string }{string(c), col})
		}
	}
	for _, l := range legend {
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="%s"/><text x="%.0f" y="%.0f">%s</text>`+"\n", lx, ya+14, l.color, lx+14, ya+23, esc(l.label))
		lx += 24 + 7*float64(len(l.label))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
