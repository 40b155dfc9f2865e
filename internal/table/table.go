// Package table makes the tables lembas-check shows people: tablewriter with headers as written
// (no auto-capitalising), the first columns (labels) left-aligned and the rest (numbers)
// right-aligned, and counts written with their thousands separated.
package table

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// maxColumns bounds the per-column alignment list; no report has more columns.
const maxColumns = 32

// New makes a table writing to w whose first `left` columns are left-aligned.
func New(w io.Writer, left int) *tablewriter.Table {
	align := make([]tw.Align, maxColumns)
	for i := range align {
		align[i] = tw.AlignRight
		if i < left {
			align[i] = tw.AlignLeft
		}
	}
	cell := tw.CellConfig{Alignment: tw.CellAlignment{PerColumn: align}}
	return tablewriter.NewTable(w, tablewriter.WithConfig(tablewriter.Config{Row: cell, Footer: cell}),
		tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithFooterAutoFormat(tw.Off))
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
