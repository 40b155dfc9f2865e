package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/LLeMbas/lembas-check/internal/format"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/LLeMbas/lembas-check/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/progress"
	"github.com/LLeMbas/lembas-check/replay"
)

// serverFlags are how bench and replay reach a server.
type serverFlags struct {
	url       string
	apiKeyEnv string
	timeout   time.Duration
	maxTokens int
}

func addServerFlags(fs *flag.FlagSet) *serverFlags {
	s := &serverFlags{}
	fs.StringVar(&s.url, "server", "", "the OpenAI-compatible server's base `URL` (http://127.0.0.1:8080)")
	fs.StringVar(&s.apiKeyEnv, "api-key-env", "", "send `NAME`'s value, an environment variable, as a bearer token")
	fs.DurationVar(&s.timeout, "timeout", 10*time.Minute, "give up on one request after `DURATION` (a long prompt on a local model takes minutes)")
	fs.IntVar(&s.maxTokens, "max-tokens", replay.DefaultMaxTokens, "let the server generate at most `N` tokens per request, so runs are comparable (0: as recorded)")
	return s
}

// adjust is what every replayed request gets besides its recorded bytes: the answer's length,
// and a stream's usage asked for.
func (s *serverFlags) adjust() replay.Adjust {
	return replay.Adjust{MaxTokens: s.maxTokens, AskUsage: true}
}

func (s *serverFlags) sender() (replay.Sender, error) {
	snd := replay.Sender{URL: s.url, Client: &http.Client{Timeout: s.timeout}, Header: http.Header{}}
	if s.maxTokens < 0 {
		return snd, fmt.Errorf("--max-tokens %d: want 0 (as recorded) or more", s.maxTokens)
	}
	if s.apiKeyEnv != "" {
		key := os.Getenv(s.apiKeyEnv)
		if key == "" {
			return snd, fmt.Errorf("--api-key-env %s: the variable is empty or not set", s.apiKeyEnv)
		}
		snd.Header.Set("Authorization", "Bearer "+key)
	}
	return snd, nil
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

// replayFormats are the formats a replay's report is written in.
var replayFormats = format.Formats[[]replay.Sent]{
	{Name: "table", Write: func(w io.Writer, sent []replay.Sent, _ bool) error { replay.WriteTable(w, sent); return nil }},
	{Name: "json", About: "JSON lines, one per request", Write: func(w io.Writer, sent []replay.Sent, _ bool) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, s := range sent {
			if err := enc.Encode(replay.LineOf(s)); err != nil {
				return err
			}
		}
		return nil
	}},
}

func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stderr)
	sf := addServerFlags(fs)
	mode := fs.String("mode", replay.Frozen, "`MODE`: frozen (each request as recorded), live (the server's own answers fed back) or timed (as recorded, with the recorded gaps)")
	speed := fs.Float64("speed", 1, "timed mode: replay `X` times as fast as recorded")
	form := fs.String("format", "table", "report `FORMAT`: "+replayFormats.Help())
	record := fs.String("record", "", "record what was sent and answered to `FILE` (a recording)")
	cold := fs.Bool("cold", false, "empty the server's prompt cache first where it offers it (llama-server's slots, vLLM's /reset_prefix_cache, SGLang's /flush_cache)")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "replay takes one recording or request log (got %d arguments)", len(pos))
	}
	if sf.url == "" {
		return errorf(stderr, "replay needs --server URL")
	}
	write, err := replayFormats.Lookup(*form)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	snd, err := sf.sender()
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
		if rec, err = replay.Create(*record, replay.Header{Tool: "lembas-check replay", Source: "proxy", Upstream: sf.url, Script: pos[0]}); err != nil {
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
	failed := 0
	p := &replay.Player{Sender: snd, Mode: *mode, Speed: *speed, Prompt: audit.IsPrompt, Adjust: sf.adjust(), OnSent: func(s replay.Sent) {
		if s.Error != "" {
			failed++
		}
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
	status := format.OK
	switch {
	case playErr != nil || len(sent) == 0:
		status = format.Unfinished
	case failed > 0:
		status = format.Failed
	}
	line := fmt.Sprintf("%s\t%s\t%s mode: %d requests sent, %d failed", status.Word(), pos[0], *mode, len(sent), failed)
	if coldSaid != "" {
		line += "; cold cache: " + coldSaid
	}
	if len(sent) == 0 && playErr == nil {
		line += "; no request: did the agent reach the fake?"
	}
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
