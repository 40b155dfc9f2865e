package main

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live"
)

// killGrace is how long a command that was asked to stop has before it is killed (a variable
// for the tests).
var killGrace = 5 * time.Second

func cmdRecord(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("record", stderr)
	ff := addFakeFlags(fs, true)
	out := fs.String("out", "", "write the recording to `FILE` (required)")
	var envs repeatFlag
	fs.Var(&envs, "env",
		"set `NAME=VALUE` for the command, {url} in VALUE standing for the server's root URL (repeatable)")
	timeout := fs.Duration("timeout", 0, "stop the command after this `DURATION` (0: no limit)")
	agent := fs.String("agent", "",
		"run the agent of this profile (`NAME` or a profile FILE, docs/live.md) on the words after --, in a "+
			"temporary HOME")
	dir := fs.String("dir", "", "with --agent: run it in `DIR` (default: a fresh directory holding a small project)")
	// Everything after -- is the command, its flags untouched.
	var argv []string
	for i, a := range args {
		if a == "--" {
			args, argv = args[:i], args[i+1:]
			break
		}
	}
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "record: put the command after --, as in: record --out rec.jsonl -- %s", strings.Join(pos,
			" "))
	}
	if len(argv) == 0 && *agent == "" {
		return errorf(stderr, "record: no command; give one after --, as in: record --out rec.jsonl -- pi -p \"…\"")
	}
	if len(argv) == 0 {
		return errorf(stderr,
			"record: --agent %s: give the prompt after --, as in: record --agent %s --out rec.jsonl -- \"Read "+
				"README.md\"", *agent, *agent)
	}
	if *out == "" {
		return errorf(stderr, "record: --out FILE is required")
	}
	if *dir != "" && *agent == "" {
		return errorf(stderr, "record: --dir goes with --agent")
	}
	rs := live.RecordSettings{Fake: *ff, Out: *out, Envs: envs, Timeout: *timeout, Agent: *agent, Dir: *dir,
		Grace: killGrace, Tool: tool}
	return live.Record(ctx, rs, argv, stdout, stderr).Code()
}
