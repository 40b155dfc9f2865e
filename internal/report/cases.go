package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/selection"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// CaseFormats are the formats a list of cases (`lembas-check list`) is written in.
var CaseFormats = format.Formats[[]conformance.Case]{
	{Name: "table", Write: WriteCaseTable},
	{Name: "json", About: "one JSON object per case: id, area, index, file, about, case, expect",
		Write: func(w io.Writer, cases []conformance.Case, _ bool) error {
			enc := jsonx.NewEncoder(w)
			for _, c := range cases {
				if err := enc.Encode(c); err != nil {
					return err
				}
			}
			return nil
		}},
}

// WriteCaseTable lists cases with their ids, one a line, then how many.
func WriteCaseTable(w io.Writer, cases []conformance.Case, _ bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tINDEX\tFILE\tABOUT")
	for _, c := range cases {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", c.ID, c.Index, c.File, oneLine(c.Title(), 70))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d cases\n", len(cases))
	return err
}

// oneLine is a text on one line (its runs of white space one space) cut for a cell (table.Cut).
func oneLine(s string, max int) string {
	return table.Cut(strings.Join(strings.Fields(s), " "), max)
}

// WriteCase writes one case as `lembas-check show` does: its id, where it is, what it is about,
// the case and its expectation.
func WriteCase(w io.Writer, c conformance.Case) error {
	fmt.Fprintf(w, "%s\n%s\n", c.ID, c.Where())
	if c.About != "" {
		fmt.Fprintf(w, "about: %s\n", c.About)
	}
	_, err := fmt.Fprintf(w, "case:\n%s\nexpect:\n%s\n", table.JSON(c.Input, ""), table.JSON(c.Expect, ""))
	return err
}

// ShowCase writes the case whose id is id, or starts with it (`show`).
func ShowCase(w io.Writer, cases []conformance.Case, id string) error {
	c, err := selection.Find(cases, id)
	if err != nil {
		return err
	}
	return WriteCase(w, c)
}
