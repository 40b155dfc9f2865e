package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/LLeMbas/lembas-check/internal/format"
	"io"
	"os"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/replay"
	"github.com/LLeMbas/lembas-check/runner"
	srvusage "github.com/LLeMbas/lembas-check/usage"
)

// fakeFlags are the flags that say what the fake provider serves, shared by fake and record.
type fakeFlags struct {
	script     string
	upstream   string
	listen     string
	usage      string
	cacheSlots int
	models     repeatFlag
	maxBody    int64
	strict     bool
}

// addFakeFlags adds the fake's flags; strict is --strict's default (docs/fakeprovider.md says
// why record and live check requests and fake does not).
func addFakeFlags(fs *flag.FlagSet, strict bool) *fakeFlags {
	f := &fakeFlags{}
	addStrictFlag(fs, &f.strict, strict)
	fs.StringVar(&f.script, "script", "", "answer from the script `FILE` (YAML or JSON, docs/fakeprovider.md); without it: call the offered read tool on README.md, then answer done")
	fs.StringVar(&f.upstream, "upstream", "", "be a recording proxy in front of this OpenAI-compatible base `URL` instead of answering")
	fs.StringVar(&f.listen, "listen", "", "listen on `ADDR` (default 127.0.0.1:0; a port alone stays on loopback, name a host such as 0.0.0.0:8080 to be reached from elsewhere)")
	fs.StringVar(&f.usage, "usage", "openai", "usage and body `DIALECT`: openai, llama.cpp (with timings; also spelled llamacpp), anthropic or deepseek")
	fs.IntVar(&f.cacheSlots, "cache-slots", 1, "prompt cache slots of the simulator (as llama-server -np `N`)")
	fs.Var(&f.models, "model", "serve this model `ID` (repeatable; default: the script's models, else fake-model)")
	fs.Int64Var(&f.maxBody, "max-body", fakeprovider.DefaultMaxBody, "largest request body taken, in `BYTES` (413 above)")
	return f
}

// addStrictFlag adds --strict, which fake, record and live share.
func addStrictFlag(fs *flag.FlagSet, p *bool, def bool) {
	fs.BoolVar(p, "strict", def, "answer requests the OpenAI API would refuse with its 400 errors (unknown parameters, values out of range, roles, tool messages, tool_choice); --strict=false checks only what the fake reads")
}

// config turns the flags into a server configuration, loading the script.
func (f *fakeFlags) config() (fakeprovider.Config, error) {
	var cfg fakeprovider.Config
	if f.script != "" && f.upstream != "" {
		return cfg, errors.New("--script and --upstream: give one (a script answers; an upstream is proxied)")
	}
	if f.script != "" {
		s, err := script.Load(f.script)
		if err != nil {
			return cfg, format.FileErr("--script", f.script, err)
		}
		cfg.Script = s
	}
	d, err := srvusage.ParseDialect(f.usage)
	if err != nil {
		return cfg, fmt.Errorf("--usage: %v", err)
	}
	if f.cacheSlots < 1 {
		return cfg, fmt.Errorf("--cache-slots %d: want 1 or more", f.cacheSlots)
	}
	cfg.Upstream, cfg.Listen, cfg.Dialect, cfg.CacheSlots = f.upstream, f.listen, d, f.cacheSlots
	cfg.Models, cfg.MaxBody, cfg.Strict = f.models, f.maxBody, f.strict
	return cfg, nil
}

// header is the recording's header line for this configuration.
func (f *fakeFlags) header() replay.Header {
	h := replay.Header{Tool: "lembas-check " + runner.ToolVersion, Source: "fake"}
	if f.upstream != "" {
		h.Source, h.Upstream = "proxy", f.upstream
	} else if f.script != "" {
		h.Script = f.script
	}
	return h
}

func cmdFake(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("fake", stderr)
	ff := addFakeFlags(fs, false)
	record := fs.String("record", "", "append every exchange to the recording `FILE` (docs/recording.md)")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "fake takes no arguments (got %q)", pos)
	}
	cfg, err := ff.config()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	cfg.Log = stderr
	var rec *replay.Writer
	if *record != "" {
		if rec, err = replay.Create(*record, ff.header()); err != nil {
			return errorf(stderr, "--record: %v", err)
		}
		cfg.Record = rec
	}
	srv, err := fakeprovider.Start(cfg)
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return errorf(stderr, "%v", err)
	}
	fmt.Fprintln(stdout, srv.URL)
	what := "the default policy (read README.md, then answer done)"
	switch {
	case cfg.Upstream != "":
		what = "a recording proxy to " + cfg.Upstream
	case cfg.Script != nil:
		what = "script " + ff.script
	}
	fmt.Fprintf(stderr, "lembas-check fake: %s on %s (OpenAI base URL %s); stop with Ctrl-C\n", what, srv.URL, srv.BaseURL())
	<-ctx.Done()
	code, _ := stopServer(srv, rec, *record, stderr)
	return code
}

// stopServer shuts the server down, closes the recording and prints a one-line summary of it.
// stopServer stops the server and closes its recording, saying what it holds. The status is 2 when
// the recording could not be finished; exchanges is how many it holds.
func stopServer(srv *fakeprovider.Server, rec *replay.Writer, path string, stderr io.Writer) (code, exchanges int) {
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	code = 0
	if err := srv.Shutdown(sctx); err != nil {
		fmt.Fprintf(stderr, "lembas-check: stopping the server: %v\n", err)
		code = 2
	}
	if rec == nil {
		return code, srv.Requests()
	}
	if err := rec.Close(); err != nil {
		fmt.Fprintf(stderr, "lembas-check: closing %s: %v\n", path, err)
		code = 2
	}
	sum, err := summarize(path)
	if err != nil {
		fmt.Fprintf(stderr, "lembas-check: reading %s back: %v\n", path, err)
		return 2, 0
	}
	fmt.Fprintf(stderr, "lembas-check: recorded %d exchanges (%d requests served, %d with errors) in %s, %d bytes\n",
		sum.exchanges, srv.Requests(), sum.errors, path, sum.bytes)
	for _, e := range sum.firstErrors {
		fmt.Fprintf(stderr, "lembas-check:   %s\n", e)
	}
	return code, sum.exchanges
}

type recSummary struct {
	exchanges, errors int
	bytes             int64
	firstErrors       []string
}

// summarize reads a recording back: it proves the file whole, and counts what is in it.
func summarize(path string) (recSummary, error) {
	var s recSummary
	st, err := os.Stat(path)
	if err != nil {
		return s, err
	}
	s.bytes = st.Size()
	r, f, err := replay.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return s, err
		}
		s.exchanges++
		if e.Exchange.Error != "" {
			s.errors++
			if len(s.firstErrors) < 3 {
				s.firstErrors = append(s.firstErrors, fmt.Sprintf("exchange %d (%s %s): %s", e.Exchange.Seq, e.Exchange.Method, e.Exchange.Path, e.Exchange.Error))
			}
		}
	}
}
