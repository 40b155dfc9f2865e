package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/lazyre"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/term"
)

// The side-by-side summary's layout, for a terminal of 120 columns with a baseline and two
// variants: a column per run, each variant's figure followed by its ratio to the baseline's
// ("×1.01"); large numbers with their thousands separated; a cell too long for its column, or
// an empty cell's reason ("— none compared"), a numbered note under the table, the same note
// for every run that says the same.

// sheet is the summary as cells.
type sheet struct {
	head  []string
	rows  [][]string
	notes []string
}

// maxCell is the widest a cell of a run stands in its column; a longer one becomes a note.
const maxCell = 20

// plainNumber is a cell that is a bare number, as the lines write their figures.
var plainNumber = lazyre.New(`^-?[0-9]+(\.[0-9]+)?$`)

// grouped is a bare number with its thousands separated, as written (its decimals kept).
func grouped(s string) string {
	if !plainNumber().MatchString(s) {
		return s
	}
	prec := 0
	if _, frac, ok := strings.Cut(s, "."); ok {
		prec = len(frac)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return table.Decimal(v, prec)
}

// ratioNote is a variant's ratio to the baseline as its cell shows it: "×1.01", "" when it
// means nothing.
func ratioNote(base, v float64) string {
	if base == 0 {
		return ""
	}
	return fmt.Sprintf("×%.2f", v/base)
}

func makeSheet(r *Result, lines []line) sheet {
	s := sheet{head: []string{""}}
	for _, run := range r.Runs {
		s.head = append(s.head, run.Name)
	}
	noteOf := map[string]int{}
	for _, l := range lines {
		row := []string{l.label}
		for i, run := range r.Runs {
			cell := grouped(l.cell(run))
			if i > 0 && l.value != nil {
				a, aok := l.value(r.Runs[0])
				b, bok := l.value(run)
				if rn := ratioNote(a, b); aok && bok && rn != "" {
					cell += " " + rn
				}
			}
			if len([]rune(cell)) > maxCell || strings.HasPrefix(cell, "— ") { // an empty cell's reason
				n, ok := noteOf[cell]
				if !ok {
					s.notes = append(s.notes, cell)
					n = len(s.notes)
					noteOf[cell] = n
				}
				cell = fmt.Sprintf("[%d]", n)
			}
			row = append(row, cell)
		}
		s.rows = append(s.rows, row)
	}
	return s
}

// writeSheet writes the summary as a table, its notes under it.
func writeSheet(w io.Writer, s sheet) error {
	t := table.New(w, 1)
	head := make([]any, len(s.head))
	for i, h := range s.head {
		head[i] = h
	}
	t.Header(head...)
	for _, row := range s.rows {
		cells := make([]any, len(row))
		for i, c := range row {
			cells[i] = c
		}
		if err := t.Append(cells...); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if len(s.head) > 2 {
		fmt.Fprintln(w, "A variant's figure is followed by its ratio to the baseline's (×).")
	}
	for i, n := range s.notes {
		fmt.Fprintln(w, term.Words(fmt.Sprintf("[%d] %s", i+1, n), table.Width(w), "    "))
	}
	return nil
}
