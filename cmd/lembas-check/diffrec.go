package main

import (
	"context"
	"fmt"
	"io"

	"github.com/LLeMbas/lembas-check/internal/cachebench/recdiff"
	"github.com/LLeMbas/lembas-check/internal/format"
)

func cmdDiffRecordings(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff-recordings", stderr)
	o := format.Output{}
	fs.StringVar(&o.Format, "format", "table", "report `FORMAT`: "+recdiff.Formats.Help())
	fs.StringVar(&o.Out, "out", "", format.OutUsage)
	fs.BoolVar(&o.Verbose, "v", false, "list the pairs that differ only cosmetically, too")
	st := recdiff.Settings{}
	fs.StringVar(&st.Tokenizer, "tokenizer", "", tokenizerUsage)
	pf := addPriceFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 2 {
		return errorf(stderr, "usage: lembas-check diff-recordings A B: two recordings or request logs (got %d)",
			len(pos))
	}
	if _, err := recdiff.Formats.Lookup(o.Format); err != nil {
		return errorf(stderr, "%v", err)
	}
	st.Prices = *pf
	rep, err := st.Run(ctx, pos[0], pos[1])
	if err == nil {
		summary := func(w io.Writer, r *recdiff.Report) error {
			_, err := fmt.Fprintln(w, recdiff.Summary(r))
			return err
		}
		err = format.Write(recdiff.Formats, o, rep, stdout, summary)
	}
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	return recdiff.Status(rep).Code()
}
