package table

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// FuzzDrawIsTablewriter: a table of cells of one line or several, none narrowed, is drawn byte
// for byte as tablewriter draws it, with a footer or without, padded or not.
func FuzzDrawIsTablewriter(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(4), uint8(1), true, "", false)
	f.Add(uint64(2), uint8(7), uint8(12), uint8(1), true, " ", true)
	f.Add(uint64(3), uint8(1), uint8(0), uint8(0), false, " ", true)
	f.Fuzz(func(t *testing.T, seed uint64, cols, nrows, left uint8, footer bool, pad string, lines bool) {
		if pad != "" {
			pad = " "
		}
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		cell := func() any {
			const chars = "abcXYZ019.,:%-_()"
			if r.IntN(6) == 0 {
				return r.IntN(100000) // a number, as the reports append them
			}
			var ls []string
			for range 1 + r.IntN(2) {
				var words []string
				for range 1 + r.IntN(3) {
					var b strings.Builder
					for range 1 + r.IntN(6) {
						b.WriteByte(chars[r.IntN(len(chars))])
					}
					words = append(words, b.String())
				}
				ls = append(ls, strings.Join(words, " "))
				if !lines {
					break
				}
			}
			return strings.Join(ls, "\n")
		}
		mk := func() []any {
			row := make([]any, 1+int(cols)%8)
			for i := range row {
				row[i] = cell()
			}
			return row
		}
		tb := &Table{left: int(left) % 4}
		tb.header = mk()
		for range 1 + int(nrows)%16 {
			tb.rows = append(tb.rows, mk())
		}
		if footer {
			tb.footer = mk()
		}
		var got, want bytes.Buffer
		tb.draw(&got, nil, pad)
		if err := tb.tablewriterDraws(&want, pad); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("draw drew\n%s\ntablewriter\n%s", got.String(), want.String())
		}
	})
}

// The run report's table is drawn as tablewriter drew it.
func TestDrawDrawsTheRunTable(t *testing.T) {
	tb := &Table{left: 1}
	tb.Header("Area", "Cases", "Pass", "Fail", "XFail", "Skip", "Time")
	tb.Append("chunk_tokens", 17, 17, 0, 0, 0, "0.4ms")
	tb.Append("jobs", 10, 10, 0, 0, 0, "0.1ms")
	tb.Footer("all", 27, 27, 0, 0, 0, "31.4ms")
	var got, want bytes.Buffer
	tb.draw(&got, nil, " ")
	if err := tb.tablewriterDraws(&want, " "); err != nil || got.String() != want.String() {
		t.Errorf("draw drew\n%s\ntablewriter (%v)\n%s", got.String(), err, want.String())
	}
}

// tablewriterDraws is the table as tablewriter draws it, which draw replaced: the tests hold the
// two to the same bytes where both draw alike (no column narrowed: tablewriter's widths count
// the padding, and it wraps to even out a cell's lines).
func (t *Table) tablewriterDraws(w io.Writer, pad string) error {
	var widths map[int]int
	align := make([]tw.Align, maxColumns)
	for i := range align {
		align[i] = tw.AlignRight
		if i < t.left {
			align[i] = tw.AlignLeft
		}
	}
	wrap := tw.CellFormatting{AutoWrap: tw.WrapNormal}
	padding := tw.CellPadding{Global: tw.Padding{Left: pad, Right: pad, Overwrite: true}}
	limits := tw.CellWidth{PerColumn: widths}
	cell := tw.CellConfig{Alignment: tw.CellAlignment{PerColumn: align}, Formatting: wrap, Padding: padding,
		ColMaxWidths: limits}
	head := tw.CellConfig{Formatting: wrap, Padding: padding, ColMaxWidths: limits}
	tb := tablewriter.NewTable(w, tablewriter.WithConfig(tablewriter.Config{Header: head, Row: cell, Footer: cell}),
		tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithFooterAutoFormat(tw.Off))
	if t.header != nil {
		tb.Header(t.header...)
	}
	for _, r := range t.rows {
		if err := tb.Append(r...); err != nil {
			return err
		}
	}
	if t.footer != nil {
		tb.Footer(t.footer...)
	}
	return tb.Render()
}
