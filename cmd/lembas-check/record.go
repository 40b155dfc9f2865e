package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/LLeMbas/lembas-check/internal/format"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/proc"
	"github.com/LLeMbas/lembas-check/live"
	"github.com/LLeMbas/lembas-check/replay"
)

// killGrace is how long a command that was asked to stop has before it is killed (a variable
// for the tests).
var killGrace = 5 * time.Second

func cmdRecord(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stderr = serialized(stderr)
	fs := newFlags("record", stderr)
	ff := addFakeFlags(fs, true)
	out := fs.String("out", "", "write the recording to `FILE` (required)")
	var envs repeatFlag
	fs.Var(&envs, "env", "set `NAME=VALUE` for the command, {url} in VALUE standing for the server's root URL (repeatable)")
	timeout := fs.Duration("timeout", 0, "stop the command after this `DURATION` (0: no limit)")
	agent := fs.String("agent", "", "run the agent of this profile (`NAME` or a profile FILE, docs/live.md) on the words after --, in a temporary HOME")
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
		return errorf(stderr, "record: put the command after --, as in: record --out rec.jsonl -- %s", strings.Join(pos, " "))
	}
	if len(argv) == 0 && *agent == "" {
		return errorf(stderr, "record: no command; give one after --, as in: record --out rec.jsonl -- pi -p \"…\"")
	}
	if len(argv) == 0 {
		return errorf(stderr, "record: --agent %s: give the prompt after --, as in: record --agent %s --out rec.jsonl -- \"Read README.md\"", *agent, *agent)
	}
	if *out == "" {
		return errorf(stderr, "record: --out FILE is required")
	}
	if *dir != "" && *agent == "" {
		return errorf(stderr, "record: --dir goes with --agent")
	}
	if err := fakeprovider.CheckEnv(envs); err != nil {
		return errorf(stderr, "%v", err)
	}
	cfg, err := ff.Config()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	var ag *live.OneShot
	if *agent != "" {
		if ag, err = live.NewOneShot(*agent, *dir, strings.Join(argv, " ")); err != nil {
			return errorf(stderr, "record: %v", err)
		}
		defer ag.Cleanup()
		if cfg.Script == nil && cfg.Upstream == "" {
			cfg.Script = ag.Script()
		}
		if len(cfg.Models) == 0 {
			cfg.Models = []string{live.ModelOf(ag.Profile)}
		}
		argv = ag.Argv
	}
	// What the fake logs is a request its policy could not drive (or a recording it lost): said
	// as it happens, and counted (Server.Logged), so that record --agent never ends ok on an
	// agent not driven.
	cfg.Log = stderr
	h := ff.Header(tool)
	h.Command = argv
	rec, err := replay.Create(*out, h)
	if err != nil {
		return errorf(stderr, "%v", format.FileErr("--out", *out, err))
	}
	cfg.Record = rec
	srv, err := fakeprovider.Start(cfg)
	if err != nil {
		rec.Close()
		return errorf(stderr, "%v", err)
	}
	cmdEnv, cmdDir := srv.Env(envs), ""
	if ag != nil {
		if cmdEnv, err = ag.Ready(ctx, srv.URL, envs, stderr); err != nil {
			srv.Stop(*out, stderr)
			return errorf(stderr, "record: %v", err)
		}
		argv, cmdDir = ag.Argv, ag.Dir
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = cmdEnv, cmdDir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	status, runErr := proc.Run(ctx, cmd, proc.RunOptions{Grace: killGrace, Timeout: *timeout, Log: stderr})
	exchanges, stopped := srv.Stop(*out, stderr)
	var se *proc.StartError
	switch {
	case errors.As(runErr, &se):
		fmt.Fprintf(stderr, "lembas-check: %v\n", runErr)
		return 2
	case runErr != nil:
		fmt.Fprintf(stderr, "lembas-check: %s %v\n", argv[0], runErr)
		return 1
	case status != 0:
		fmt.Fprintf(stderr, "lembas-check: %s exited with status %d\n", argv[0], status)
		return 1
	case stopped && exchanges == 0:
		return errorf(stderr, "record: %s holds no request: did the agent reach the fake? (it served %s; an agent that reads its URL from another variable needs --env NAME={url})", *out, srv.BaseURL())
	case stopped && ag != nil && srv.Logged() > 0:
		fmt.Fprintf(stderr, "lembas-check: record: the fake's policy could not drive %s through its tools (said above): %s is not of a driven session; give the agent's tool shapes in its profile (docs/live.md)\n", ag.Profile.Name, *out)
		return 1
	case !stopped:
		return 2
	}
	return 0
}

// serialized is w with its writes one at a time: the command's stderr is copied into it from
// one goroutine and the fake logs into it from others. A file is left as it is, so that the
// command writes to it directly (a terminal stays its terminal).
func serialized(w io.Writer) io.Writer {
	if _, ok := w.(*os.File); ok {
		return w
	}
	return &lockedWriter{w: w}
}

// lockedWriter passes writes on one at a time.
type lockedWriter struct {
	w  io.Writer
	mu sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
