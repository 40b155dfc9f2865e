package main

import (
	"context"
	"flag"
	"io"
	"os"
	"runtime/debug"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/runner"
)

// addFakeFlags adds the flags that say what the fake provider serves, shared by fake and record;
// strict is --strict's default (docs/fakeprovider.md says why record and live check requests and
// fake does not).
func addFakeFlags(fs *flag.FlagSet, strict bool) *fakeprovider.Settings {
	s := &fakeprovider.Settings{}
	addStrictFlag(fs, &s.Strict, strict)
	fs.StringVar(&s.Script, "script", "",
		"answer from the script `FILE` (YAML or JSON, docs/fakeprovider.md); without it: call the offered read tool "+
			"on README.md, then answer done")
	fs.StringVar(&s.Upstream, "upstream", "",
		"be a recording proxy in front of this OpenAI-compatible base `URL` instead of answering")
	fs.StringVar(&s.Listen, "listen", "",
		"listen on `ADDR` (default 127.0.0.1:0; a port alone stays on loopback, name a host such as 0.0.0.0:8080 to "+
			"be reached from elsewhere)")
	fs.StringVar(&s.Usage, "usage", "openai", "usage and body `DIALECT` (llama.cpp's with timings): "+usage.Names())
	fs.IntVar(&s.CacheSlots, "cache-slots", 1, "prompt cache slots of the simulator (as llama-server -np `N`)")
	fs.Var((*repeatFlag)(&s.Models), "model",
		"serve only this model `ID` (repeatable; default: the script's models, else any model id)")
	s.AddFlags(fs)
	return s
}

// addStrictFlag adds --strict, which fake, record and live share.
func addStrictFlag(fs *flag.FlagSet, p *bool, def bool) {
	fs.BoolVar(p, "strict", def,
		"answer requests the OpenAI API would refuse with its 400 errors (unknown parameters, values out of range, "+
			"roles, tool messages, tool_choice); --strict=false checks only what the fake reads")
}

// tool names lembas-check and its version in a recording's header and a live report.
var tool = "lembas-check " + runner.ToolVersion

// fakeGCPercent is fake's GOGC: at 100 its heap grew to twice the tokenizer's tables between
// collections, and the peak RSS after 6,000 streams to 40.6 MB; at 50, 37.4 MB. GOGC still wins.
const fakeGCPercent = 50

func cmdFake(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(fakeGCPercent)
	}
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
	ok, err := ff.Serve(ctx, tool, *record, stdout, stderr)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	if !ok {
		return 2
	}
	return 0
}
