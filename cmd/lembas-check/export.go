package main

import (
	"context"
	"io"

	"github.com/LLeMbas/lembas-check/internal/cachebench/export"
)

func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export", stderr)
	var st export.Settings
	fs.StringVar(&st.Out, "out", "", "write the trace to `FILE` (default stdout)")
	fs.IntVar(&st.Block, "block", export.DefaultBlock, "`N` tokens per hashed prefix block")
	fs.StringVar(&st.Tokenizer, "tokenizer", "", tokenizerUsage)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "export takes one recording or request log (got %d arguments)", len(pos))
	}
	if err := st.Run(ctx, pos[0], stdout, stderr); err != nil {
		return errorf(stderr, "%v", err)
	}
	return 0
}
