package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/LLeMbas/lembas-check/internal/format"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
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
	env, err := commandEnv(envs)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	cfg, err := ff.Config()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	var ag *agentRun
	if *agent != "" {
		if ag, err = prepareAgent(*agent, *dir, strings.Join(argv, " ")); err != nil {
			return errorf(stderr, "record: %v", err)
		}
		defer ag.cleanup()
		if cfg.Script == nil && cfg.Upstream == "" {
			cfg.Script = ag.script()
		}
		if len(cfg.Models) == 0 {
			cfg.Models = []string{live.ModelOf(ag.profile)}
		}
		argv = ag.argv
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
	cmdEnv, cmdDir := env(srv), ""
	if ag != nil {
		if cmdEnv, err = ag.ready(ctx, srv, envs, stderr); err != nil {
			srv.Stop(*out, stderr)
			return errorf(stderr, "record: %v", err)
		}
		argv, cmdDir = ag.argv, ag.dir
	}
	status, runErr := runCommand(ctx, argv, cmdEnv, cmdDir, *timeout, stdout, stderr)
	exchanges, stopped := srv.Stop(*out, stderr)
	var se *startError
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
		fmt.Fprintf(stderr, "lembas-check: record: the fake's policy could not drive %s through its tools (said above): %s is not of a driven session; give the agent's tool shapes in its profile (docs/live.md)\n", ag.profile.Name, *out)
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

// commandEnv checks the --env flags and returns what makes the command's environment once the
// server's URL is known: the caller's, with OPENAI_BASE_URL and OPENAI_API_KEY pointed at it.
func commandEnv(envs []string) (func(*fakeprovider.Server) []string, error) {
	for _, e := range envs {
		if name, _, ok := strings.Cut(e, "="); !ok || name == "" {
			return nil, fmt.Errorf("--env %q: want NAME=VALUE, such as LEMBAS_SERVER={url}", e)
		}
	}
	return func(srv *fakeprovider.Server) []string {
		env := os.Environ()
		env = append(env, "OPENAI_BASE_URL="+srv.BaseURL())
		if srv.Upstream() == "" || os.Getenv("OPENAI_API_KEY") == "" {
			// The fake takes any key; a real key is kept for a real upstream.
			env = append(env, "OPENAI_API_KEY=lembas-check-fake")
		}
		for _, e := range envs {
			env = append(env, strings.ReplaceAll(e, "{url}", srv.URL))
		}
		return env
	}, nil
}

// runCommand runs the command to its end under the supervisor (internal/proc: a process group of
// its own, given the terminal when it is ours), forwarding SIGINT and SIGTERM to its group, and
// stopping it (SIGTERM, then SIGKILL after killGrace) when ctx is done or the timeout passes.
// Whatever it left running is ended, and named on stderr. It returns the exit status, and why it
// was stopped (a *startError when it could not start).
func runCommand(ctx context.Context, argv, env []string, dir string, timeout time.Duration, stdout, stderr io.Writer) (int, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	p, err := proc.Start(cmd, proc.Options{Grace: killGrace, Terminal: true})
	if err != nil {
		return 0, &startError{fmt.Errorf("starting %s: %v", argv[0], err)}
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	var why error
	select {
	case <-p.Done():
		err = p.Wait()
	case sig := <-sigs:
		why = fmt.Errorf("was stopped by %v (forwarded)", sig)
		err = p.Stop(sig)
	case <-ctx.Done():
		sig := os.Signal(syscall.SIGTERM)
		select {
		case s := <-sigs:
			sig = s
		default:
		}
		why = fmt.Errorf("was stopped by %v (forwarded)", sig)
		err = p.Stop(sig)
	case <-deadline:
		why = fmt.Errorf("ran past --timeout %v and was stopped", timeout)
		err = p.Stop(syscall.SIGTERM)
	}
	// The command's end is the end of everything record started: what it left, and what left
	// its group and cleared its environment (proc.Sweep), is ended.
	left := append(p.Left(), proc.Sweep(killGrace)...)
	if s := proc.Summary(left, "the command"); s != "" {
		fmt.Fprintf(stderr, "lembas-check: %s\n", s)
	}
	if l := proc.Limits(); l != "" {
		fmt.Fprintf(stderr, "lembas-check: note: %s\n", l)
	}
	status := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		status = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && why == nil {
			why = fmt.Errorf("was killed by %v", ws.Signal())
		}
	} else if err != nil && why == nil {
		why = err
	}
	return status, why
}

type startError struct{ error }
