package table

import (
	"bytes"
	"fmt"
	"strings"
)

// plain draws the table as tablewriter draws it, without tablewriter, when the table is of the
// shape every `run` report has: a header, one row or more and a footer of as many cells, each cell one line
// of printable ASCII, and the table within its width as it comes. ok is false for any other
// table, which render draws. tablewriter made a map of 10,240 entries (427 kB of fresh pages)
// for each table it drew, a tenth of `run --area jobs`; FuzzPlainIsTablewriter holds the two to
// the same bytes.
func (t *Table) plain(out *bytes.Buffer, pad string) bool {
	n := len(t.header)
	if n == 0 || n > maxColumns || len(t.rows) == 0 {
		return false
	}
	rows := make([][]string, 0, len(t.rows)+2)
	for _, r := range append(append([][]any{t.header}, t.rows...), t.footer) {
		if r == nil && len(rows) == len(t.rows)+1 {
			break // no footer
		}
		if len(r) != n {
			return false
		}
		cells := make([]string, n)
		for i, c := range r {
			s := fmt.Sprint(c)
			if !plainCell(s) {
				return false
			}
			cells[i] = s
		}
		rows = append(rows, cells)
	}
	widths := make([]int, n)
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	line := func(l, m, r string) {
		out.WriteString(l)
		for i, w := range widths {
			if i > 0 {
				out.WriteString(m)
			}
			out.WriteString(strings.Repeat("─", w+2*len(pad)))
		}
		out.WriteString(r + "\n")
	}
	row := func(cells []string, header bool) {
		out.WriteString("│")
		for i, c := range cells {
			gap := widths[i] - len(c)
			left := 0
			switch {
			case header:
				left = gap / 2
			case i >= t.left:
				left = gap
			}
			out.WriteString(pad + strings.Repeat(" ", left) + c + strings.Repeat(" ", gap-left) + pad + "│")
		}
		out.WriteString("\n")
	}
	line("┌", "┬", "┐")
	row(rows[0], true)
	line("├", "┼", "┤")
	for _, r := range rows[1 : len(t.rows)+1] {
		row(r, false)
	}
	if len(rows) > len(t.rows)+1 {
		line("├", "┼", "┤")
		row(rows[len(rows)-1], false)
	}
	line("└", "┴", "┘")
	return true
}

// plainCell says s is a cell plain draws: one line of printable ASCII, not empty, and no space at
// either end (tablewriter trims those).
func plainCell(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
