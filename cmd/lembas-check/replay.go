package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// addServerFlags adds how bench and replay reach a server.
func addServerFlags(fs *flag.FlagSet) *replay.ServerSettings {
	s := &replay.ServerSettings{}
	fs.StringVar(&s.URL, "server", "", "the OpenAI-compatible server's base `URL` (http://127.0.0.1:8080)")
	fs.StringVar(&s.APIKeyEnv, "api-key-env", "", "send `NAME`'s value, an environment variable, as a bearer token")
	fs.DurationVar(&s.Timeout, "timeout", 10*time.Minute,
		"give up on one request after `DURATION` (a long prompt on a local model takes minutes)")
	fs.IntVar(&s.MaxTokens, "max-tokens", replay.DefaultMaxTokens,
		"let the server generate at most `N` tokens per request, so runs are comparable (0: as recorded)")
	return s
}

func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stderr)
	sf := addServerFlags(fs)
	st := replay.Settings{}
	fs.StringVar(&st.Mode, "mode", replay.Frozen,
		"`MODE`: frozen (each request as recorded), live (the server's own answers fed back) or timed (as recorded, "+
			"with the recorded gaps)")
	fs.Float64Var(&st.Speed, "speed", 1, "timed mode: replay `X` times as fast as recorded")
	form := fs.String("format", "table", "report `FORMAT`: "+replay.Formats.Help())
	fs.StringVar(&st.Record, "record", "", "record what was sent and answered to `FILE` (a recording)")
	fs.BoolVar(&st.Cold, "cold", false,
		"empty the server's prompt cache first where it offers it (llama-server's slots, vLLM's /reset_prefix_cache, "+
			"SGLang's /flush_cache)")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "replay takes one recording or request log (got %d arguments)", len(pos))
	}
	write, err := replay.Formats.Lookup(*form)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	st.Server = *sf
	sent, cold, played, err := st.Run(ctx, pos[0], stderr)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	if err := write.Write(stdout, sent, false); err != nil {
		return errorf(stderr, "%v", err)
	}
	status, line := replay.Outcome(pos[0], st.Mode, sent, played, cold)
	if err := replay.WriteEnd(stdout, stderr, write.Name, replay.Footer(status, sent, line, ctx.Err() != nil),
		line); err != nil {
		return errorf(stderr, "%v", err)
	}
	if played != nil {
		fmt.Fprintf(stderr, "lembas-check: %v\n", played)
	}
	return status.Code()
}
