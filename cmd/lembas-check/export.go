package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/LLeMbas/lembas-check/internal/format"
	"io"
	"os"

	"github.com/LLeMbas/lembas-check/cachebench/export"
	"github.com/LLeMbas/lembas-check/replay"
)

func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export", stderr)
	out := fs.String("out", "", "write the trace to `FILE` (default stdout)")
	block := fs.Int("block", export.DefaultBlock, "`N` tokens per hashed prefix block")
	tok := tokenizerFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "export takes one recording or request log (got %d arguments)", len(pos))
	}
	if *block < 1 {
		return errorf(stderr, "--block %d: want a positive number of tokens", *block)
	}
	tk, rd, f, err := openCounted(*tok, pos[0])
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	defer f.Close()
	w := stdout
	var fh *os.File
	if *out != "" {
		if fh, err = os.Create(*out); err != nil {
			return errorf(stderr, "%v", format.FileErr("--out", *out, err))
		}
		w = fh
	}
	bw := bufio.NewWriter(w)
	st, expErr := export.Write(ctx, rd, bw, export.Options{Tokenizer: tk, Block: *block})
	if err := bw.Flush(); err != nil && expErr == nil {
		expErr = err
	}
	if fh != nil {
		if err := fh.Close(); err != nil && expErr == nil {
			expErr = format.FileErr("--out", *out, err)
		}
	}
	fmt.Fprintf(stderr, "lembas-check: exported %d requests, %d input tokens, %d distinct %d-token blocks\n", st.Requests, st.Input, st.Blocks, *block)
	if expErr != nil {
		var le *replay.LineError
		if errors.As(expErr, &le) {
			fmt.Fprintf(stderr, "lembas-check: %v\n", expErr)
		} else {
			fmt.Fprintf(stderr, "lembas-check: export %s: %v\n", pos[0], expErr)
		}
		return 2
	}
	if st.Requests == 0 {
		return errorf(stderr, "export %s: no request: did the agent reach the fake?", pos[0])
	}
	return 0
}
