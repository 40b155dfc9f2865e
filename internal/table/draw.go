package table

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/term"
)

// draw draws the table in box-drawing lines: the header centred, the first `left` columns
// left-aligned and the rest right-aligned, pad spaces each side of a cell. A cell is its lines
// (a newline starts one), each trimmed of spaces; where widths bounds a column (fit's), a line
// wider than it is wrapped at spaces (a word wider than the column stands alone). A row is as
// tall as its tallest cell. It replaced tablewriter, whose width tables and errors package
// cost every lembas-check process 0.5 ms of init; FuzzDrawIsTablewriter holds the two to the
// same bytes for the tables both draw alike.
func (t *Table) draw(out *bytes.Buffer, widths []int, pad string) {
	n := 0
	for _, r := range append(append([][]any{t.header}, t.rows...), t.footer) {
		n = max(n, len(r))
	}
	if n == 0 {
		return
	}
	var rows [][][]string // row, cell, line
	for _, r := range append(append([][]any{t.header}, t.rows...), t.footer) {
		if r == nil {
			rows = append(rows, nil)
			continue
		}
		cells := make([][]string, n)
		for i := range cells {
			s := ""
			if i < len(r) {
				s = fmt.Sprint(r[i])
			}
			bound := 0
			if i < len(widths) {
				bound = widths[i]
			}
			cells[i] = cellLines(s, bound)
		}
		rows = append(rows, cells)
	}
	col := make([]int, n)
	for _, r := range rows {
		for i, c := range r {
			for _, l := range c {
				col[i] = max(col[i], term.DisplayWidth(l))
			}
		}
	}
	line := func(l, m, r string) {
		out.WriteString(l)
		for i, w := range col {
			if i > 0 {
				out.WriteString(m)
			}
			out.WriteString(strings.Repeat("─", w+2*len(pad)))
		}
		out.WriteString(r + "\n")
	}
	line("┌", "┬", "┐")
	sep := false // a line between the header and the body, and between the body and the footer
	for ri, r := range rows {
		if r == nil {
			continue
		}
		footer := ri == len(rows)-1 && ri > 0
		if sep || footer && ri > 1 && rows[ri-1] != nil {
			line("├", "┼", "┤")
		}
		sep = ri == 0
		t.drawRow(out, r, col, pad, ri == 0)
	}
	line("└", "┴", "┘")
}

// drawRow draws one row of cells, each its lines, as tall as its tallest cell.
func (t *Table) drawRow(out *bytes.Buffer, cells [][]string, col []int, pad string, header bool) {
	height := 1
	for _, c := range cells {
		height = max(height, len(c))
	}
	for k := range height {
		out.WriteString("│")
		for i, c := range cells {
			l := ""
			if k < len(c) {
				l = c[k]
			}
			gap := col[i] - term.DisplayWidth(l)
			left := 0
			switch {
			case header:
				left = gap / 2
			case i >= t.left:
				left = gap
			}
			out.WriteString(pad + strings.Repeat(" ", left) + l + strings.Repeat(" ", gap-left) + pad + "│")
		}
		out.WriteString("\n")
	}
}

// cellLines is a cell's text as its lines, each trimmed of spaces, a line wider than bound (0:
// none) wrapped at spaces.
func cellLines(s string, bound int) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if bound > 0 && term.DisplayWidth(l) > bound {
			out = append(out, strings.Split(term.Words(l, bound, ""), "\n")...)
			continue
		}
		out = append(out, l)
	}
	return out
}
