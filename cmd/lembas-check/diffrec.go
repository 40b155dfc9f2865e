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
	form := fs.String("format", "table", "report `FORMAT`: "+recdiff.Formats.Help())
	out := fs.String("out", "", "write the report to `FILE` (the table's last line still goes to stdout)")
	verbose := fs.Bool("v", false, "list the pairs that differ only cosmetically, too")
	var st recdiff.Settings
	fs.StringVar(&st.Tokenizer, "tokenizer", "", tokenizerUsage)
	fs.StringVar(&st.Prices, "prices", "", "put money on the lost tokens with the price table in `FILE` "+
		"(default: the built-in one)")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if _, err := recdiff.Formats.Lookup(*form); err != nil || len(pos) != 2 {
		return errorf(stderr, "usage: lembas-check diff-recordings A B (two recordings or request logs; %v)", err)
	}
	rep, err := st.Run(ctx, pos[0], pos[1])
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	o := format.Output{Format: *form, Out: *out, Verbose: *verbose}
	summary := func(w io.Writer, r *recdiff.Report) error { _, err := fmt.Fprintln(w, recdiff.Summary(r)); return err }
	if err := format.Write(recdiff.Formats, o, rep, stdout, summary); err != nil {
		return errorf(stderr, "%v", err)
	}
	return recdiff.Status(rep).Code()
}
