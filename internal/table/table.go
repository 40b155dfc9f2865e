// Package table makes the tables lembas-check shows people: box-drawn, with headers as written
// (no auto-capitalising), the first columns (labels) left-aligned and the rest (numbers)
// right-aligned, and counts written with their thousands separated.
package table

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/term"
)

// maxColumns bounds the per-column alignment list; no report has more columns.
const maxColumns = 32

// Table is a table for people: set its header, append rows, set a footer, then Render. It is laid
// out within a width (New: w's), a long header or cell wrapped within its column; a table still
// too wide is drawn again without the space inside its cells, so that no line is wider than the
// terminal (issue 27: diff's was 117 columns on a 100-column terminal).
type Table struct {
	w              io.Writer
	left, width    int
	header, footer []any
	rows           [][]any
}

// New makes a table writing to w whose first `left` columns (labels) are left-aligned and the
// rest (numbers) right-aligned, laid out within Width(w).
func New(w io.Writer, left int) *Table { return NewWidth(w, left, Width(w)) }

// NewWidth is New laid out within width columns (0: no bound).
func NewWidth(w io.Writer, left, width int) *Table { return &Table{w: w, left: left, width: width} }

// Width is the columns a report written to w is laid out in: term.Width (the terminal's, else
// COLUMNS, else 100), of the terminal under a painting writer (term.Writer) too.
func Width(w io.Writer) int {
	if t, ok := w.(term.Writer); ok {
		w = t.Writer
	}
	return term.Width(w, os.Getenv)
}

// Header sets the header.
func (t *Table) Header(cells ...any) { t.header = cells }

// Footer sets the footer.
func (t *Table) Footer(cells ...any) { t.footer = cells }

// Append adds a row.
func (t *Table) Append(cells ...any) error {
	t.rows = append(t.rows, cells)
	return nil
}

// Render writes the table: as it comes when it fits the width; else with its widest columns
// narrowed, their cells wrapped at spaces, until it fits; else the same without the space inside
// each cell; else (too many columns for the width: bench -v's) one block per row (Blocks).
func (t *Table) Render() error {
	var out bytes.Buffer
	for _, pad := range []string{" ", ""} {
		out.Reset()
		t.draw(&out, t.fit(len(pad)), pad)
		if t.width <= 0 || widest(out.String()) <= t.width {
			_, err := t.w.Write(out.Bytes())
			return err
		}
	}
	return t.Blocks()
}

// Blocks writes the table one block per row: the row's label columns (the first `left`, or the
// first) as its heading, then each other cell as "header: value", as many to a line as the width
// takes. The footer is a block of its own.
func (t *Table) Blocks() error {
	var b strings.Builder
	label := max(t.left, 1)
	for _, row := range append(append([][]any{}, t.rows...), t.footer) {
		if row == nil {
			continue
		}
		var head []string
		for i := 0; i < label && i < len(row); i++ {
			head = append(head, strings.TrimSpace(t.name(i)+" "+fmt.Sprint(row[i])))
		}
		b.WriteString(strings.Join(head, ", ") + "\n")
		line := " "
		for i := label; i < len(row); i++ {
			field := strings.ReplaceAll(t.name(i)+": "+fmt.Sprint(row[i]), "\n", " ")
			if line != " " && term.DisplayWidth(line)+3+term.DisplayWidth(field) > t.width {
				b.WriteString(line + "\n")
				line = " "
			}
			if line != " " {
				line += " ·"
			}
			line += " " + field
		}
		if line != " " {
			b.WriteString(line + "\n")
		}
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

// name is column i's header on one line ("" without a header).
func (t *Table) name(i int) string {
	if i >= len(t.header) {
		return ""
	}
	return strings.Join(strings.Fields(fmt.Sprint(t.header[i])), " ")
}

// fit is each column's widest cell when the table is too wide with pad spaces each side of a
// cell: the widest column narrowed, one column at a time, never below its longest word; nil when
// the table fits as it is.
func (t *Table) fit(pad int) []int {
	var widths, words []int
	for _, row := range append(append([][]any{t.header}, t.rows...), t.footer) {
		for i, c := range row {
			for len(widths) <= i {
				widths, words = append(widths, 0), append(words, 0)
			}
			for _, l := range strings.Split(fmt.Sprint(c), "\n") {
				widths[i] = max(widths[i], term.DisplayWidth(l))
				for _, w := range strings.Fields(l) {
					words[i] = max(words[i], term.DisplayWidth(w))
				}
			}
		}
	}
	total := 1
	for _, w := range widths {
		total += w + 2*pad + 1
	}
	if t.width <= 0 || total <= t.width {
		return nil
	}
	for total > t.width {
		wide := -1
		for i, w := range widths {
			if w > words[i] && (wide < 0 || w > widths[wide]) {
				wide = i
			}
		}
		if wide < 0 {
			break // every column is down to its longest word
		}
		widths[wide]--
		total--
	}
	return widths
}

// widest is the display width of the widest line of s.
func widest(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, term.DisplayWidth(l))
	}
	return n
}

// Count writes a count with its thousands separated: 16,912; -1,000.
func Count[T int | int64](n T) string {
	s := fmt.Sprint(int64(n))
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Percent writes a share as a person reads it, to a tenth of a percent: "97.9 %"; a share that is
// not nothing but rounds to it "<0.1 %", and one short of all that rounds to all ">99.9 %", so a
// loss of 18,320 tokens never reads "0.0 %".
func Percent(f float64) string {
	switch {
	case f > 0 && f < 0.0005:
		return "<0.1 %"
	case f < 1 && f >= 0.9995:
		return ">99.9 %"
	}
	return fmt.Sprintf("%.1f %%", 100*f)
}

// Decimal writes a number with prec decimals and its thousands separated: 212,885.4.
func Decimal(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return s
	}
	out := Count(n)
	if whole == "-0" {
		out = "-0"
	}
	if frac != "" {
		out += "." + frac
	}
	return out
}
