package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/LLeMbas/lembas-check/internal/format"
	"io"
	"time"

	"github.com/LLeMbas/lembas-check/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/progress"
	"github.com/LLeMbas/lembas-check/replay"
)

// addServerFlags adds how bench and replay reach a server.
func addServerFlags(fs *flag.FlagSet) *replay.ServerSettings {
	s := &replay.ServerSettings{}
	fs.StringVar(&s.URL, "server", "", "the OpenAI-compatible server's base `URL` (http://127.0.0.1:8080)")
	fs.StringVar(&s.APIKeyEnv, "api-key-env", "", "send `NAME`'s value, an environment variable, as a bearer token")
	fs.DurationVar(&s.Timeout, "timeout", 10*time.Minute, "give up on one request after `DURATION` (a long prompt on a local model takes minutes)")
	fs.IntVar(&s.MaxTokens, "max-tokens", replay.DefaultMaxTokens, "let the server generate at most `N` tokens per request, so runs are comparable (0: as recorded)")
	return s
}

// countPrompts counts a recording's prompt requests quickly, for a progress bar's total (0 when
// it cannot be read: the replay then says why).
func countPrompts(path string) int {
	r, f, err := replay.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n, _ := audit.CountPrompts(r)
	return n
}

func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stderr)
	sf := addServerFlags(fs)
	mode := fs.String("mode", replay.Frozen, "`MODE`: frozen (each request as recorded), live (the server's own answers fed back) or timed (as recorded, with the recorded gaps)")
	speed := fs.Float64("speed", 1, "timed mode: replay `X` times as fast as recorded")
	form := fs.String("format", "table", "report `FORMAT`: "+replay.Formats.Help())
	record := fs.String("record", "", "record what was sent and answered to `FILE` (a recording)")
	cold := fs.Bool("cold", false, "empty the server's prompt cache first where it offers it (llama-server's slots, vLLM's /reset_prefix_cache, SGLang's /flush_cache)")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "replay takes one recording or request log (got %d arguments)", len(pos))
	}
	if sf.URL == "" {
		return errorf(stderr, "replay needs --server URL")
	}
	write, err := replay.Formats.Lookup(*form)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	snd, err := sf.Sender()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	rd, f, err := replay.OpenFile(pos[0])
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	defer f.Close()
	var rec *replay.Writer
	if *record != "" {
		if rec, err = replay.Create(*record, replay.Header{Tool: "lembas-check replay", Source: "proxy", Upstream: sf.URL, Script: pos[0]}); err != nil {
			return errorf(stderr, "%v", format.FileErr("--record", *record, err))
		}
		defer rec.Close()
	}
	coldSaid := ""
	if *cold {
		coldSaid, _ = snd.EmptyCache(ctx)
		fmt.Fprintf(stderr, "lembas-check: cold cache: %s\n", coldSaid)
	}
	bar := progress.New(stderr, "lembas-check replay "+pos[0])
	bar.Phase(*mode, int64(countPrompts(pos[0])), "requests")
	bar.Start()
	var sent []replay.Sent
	p := &replay.Player{Sender: snd, Mode: *mode, Speed: *speed, Prompt: audit.IsPrompt, Adjust: sf.Adjust(), OnSent: func(s replay.Sent) {
		sent = append(sent, s)
		bar.Set(int64(len(sent)), fmt.Sprintf("request %d: %s", s.Seq, replay.CachedNote(replay.LineOf(s).Usage)))
		if rec != nil {
			if err := rec.Write(s.Exchange(time.Now().UTC()), s.Body); err != nil {
				fmt.Fprintf(stderr, "lembas-check: --record: %v\n", err)
			}
		}
	}}
	playErr := p.Play(ctx, rd)
	bar.Stop()
	if err := write.Write(stdout, sent, false); err != nil {
		return errorf(stderr, "%v", err)
	}
	status, line := replay.Outcome(pos[0], *mode, sent, playErr, coldSaid)
	fmt.Fprintln(stdout, line)
	if playErr != nil {
		var le *replay.LineError
		if errors.As(playErr, &le) {
			fmt.Fprintf(stderr, "lembas-check: %v\n", playErr)
		} else {
			fmt.Fprintf(stderr, "lembas-check: replay %s: %v\n", pos[0], playErr)
		}
	}
	return status.Code()
}
