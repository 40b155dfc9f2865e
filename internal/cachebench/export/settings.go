package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Settings are `export`'s settings as a person gives them (its flags; docs/recording.md).
type Settings struct {
	// Out is the trace's file ("": stdout).
	Out   string
	Block int
	// Tokenizer is a llama.cpp server's URL ("": tiktoken, offline).
	Tokenizer string
}

// Run exports the recording (or request log) file to s.Out, or stdout, and says on log what it
// exported. Its error, said as export says it, is a trace not made or not whole.
func (s Settings) Run(ctx context.Context, file string, stdout, log io.Writer) error {
	if s.Block < 1 {
		return fmt.Errorf("--block %d: want a positive number of tokens", s.Block)
	}
	tk, err := tokens.New(s.Tokenizer)
	if err != nil {
		return err
	}
	rd, f, err := replay.OpenFile(file)
	if err != nil {
		return err
	}
	defer f.Close()
	w := stdout
	var fh *os.File
	if s.Out != "" {
		if fh, err = os.Create(s.Out); err != nil {
			return format.FileErr("--out", s.Out, err)
		}
		w = fh
	}
	bw := bufio.NewWriter(w)
	st, expErr := Write(ctx, rd, bw, Options{Tokenizer: tk, Block: s.Block})
	if err := bw.Flush(); err != nil && expErr == nil {
		expErr = err
	}
	if fh != nil {
		if err := fh.Close(); err != nil && expErr == nil {
			expErr = format.FileErr("--out", s.Out, err)
		}
	}
	fmt.Fprintf(log, "lembas-check: exported %d requests, %d input tokens, %d distinct %d-token blocks\n", st.Requests,
		st.Input, st.Blocks, s.Block)
	if expErr != nil {
		var le *replay.LineError
		if errors.As(expErr, &le) {
			return expErr
		}
		return fmt.Errorf("export %s: %v", file, expErr)
	}
	if st.Requests == 0 {
		return fmt.Errorf("export %s: no request: did the agent reach the fake?", file)
	}
	return nil
}
