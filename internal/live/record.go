package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/proc"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/internal/syncbuf"
)

// RecordSettings are `record`'s settings as a person gives them (docs/recording.md).
type RecordSettings struct {
	Fake fakeprovider.Settings
	// Out is the recording's path.
	Out string
	// Envs are NAME=VALUE words for the command, {url} in a value standing for the fake's URL.
	Envs    []string
	Timeout time.Duration
	// Agent is a profile (a name or a file) whose agent runs on the prompt argv holds (OneShot);
	// Dir its session directory ("": a fresh one holding the small project).
	Agent, Dir string
	// Grace is how long a command asked to stop has before it is killed.
	Grace time.Duration
	// Tool is lembas-check's name and version, for the recording's header.
	Tool string
}

// Record runs argv (or, with s.Agent, the agent on the prompt argv holds) against the fake, or a
// recording proxy, and records every exchange in s.Out. What goes wrong is said on stderr as
// `record` says it. Failed: the command failed, or an agent was not driven by the fake's policy;
// unfinished: the command could not start, or the recording could not be finished or holds no
// request.
func Record(ctx context.Context, s RecordSettings, argv []string, stdout, stderr io.Writer) format.Status {
	stderr = serialized(stderr)
	if err := fakeprovider.CheckEnv(s.Envs); err != nil {
		return fail(stderr, "%v", err)
	}
	if err := s.Fake.CheckOut("--out", s.Out); err != nil {
		return fail(stderr, "%v", err)
	}
	cfg, err := s.Fake.Config()
	if err != nil {
		return fail(stderr, "%v", err)
	}
	var ag *OneShot
	if s.Agent != "" {
		if ag, err = NewOneShot(s.Agent, s.Dir, strings.Join(argv, " ")); err != nil {
			return fail(stderr, "record: %v", err)
		}
		defer ag.Cleanup()
		if cfg.Script == nil && cfg.Upstream == "" {
			cfg.Script = ag.Script()
		}
		if len(cfg.Models) == 0 {
			cfg.Models = []string{ModelOf(ag.Profile)}
		}
		argv = ag.Argv
	}
	// What the fake logs is a request its policy could not drive (or a recording it lost): said
	// as it happens, and counted (Server.Logged), so that record --agent never ends ok on an
	// agent not driven.
	cfg.Log = stderr
	h := s.Fake.Header(s.Tool)
	h.Command = argv
	rec, err := replay.Create(s.Out, h)
	if err != nil {
		return fail(stderr, "%v", format.FileErr("--out", s.Out, err))
	}
	cfg.Record = rec
	srv, err := fakeprovider.Start(cfg)
	if err != nil {
		rec.Close()
		return fail(stderr, "%v", err)
	}
	cmdEnv, cmdDir := srv.Env(s.Envs), ""
	if ag != nil {
		if cmdEnv, err = ag.Ready(ctx, srv.URL, s.Envs, stderr); err != nil {
			srv.Stop(s.Out, stderr)
			return fail(stderr, "record: %v", err)
		}
		argv, cmdDir = ag.Argv, ag.Dir
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = cmdEnv, cmdDir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	status, runErr := proc.Run(ctx, cmd, proc.RunOptions{Grace: s.Grace, Timeout: s.Timeout, Log: stderr})
	exchanges, stopped := srv.Stop(s.Out, stderr)
	var se *proc.StartError
	switch {
	case errors.As(runErr, &se):
		fmt.Fprintf(stderr, "lembas-check: %v\n", runErr)
		return format.Unfinished
	case runErr != nil || status != 0:
		// What the recording shows comes first: an agent exits 1 because the cassette answered a
		// 400, and the cause is the cassette's miss, not the exit.
		served(s, srv, ag, exchanges, stopped, stderr)
		if runErr != nil {
			fmt.Fprintf(stderr, "lembas-check: %s %v\n", argv[0], runErr)
		} else {
			fmt.Fprintf(stderr, "lembas-check: %s exited with status %d\n", argv[0], status)
		}
		return format.Failed
	}
	return served(s, srv, ag, exchanges, stopped, stderr)
}

// served is how a recording of a command that ended well went: whether the fake (or its
// cassette) served the session whole.
func served(s RecordSettings, srv *fakeprovider.Server, ag *OneShot, exchanges int, stopped bool,
	stderr io.Writer) format.Status {
	switch {
	case stopped && exchanges == 0:
		return fail(stderr,
			"record: %s holds no request: did the agent reach the fake? (it served %s; an agent that reads its URL "+
				"from another variable needs --env NAME={url})", s.Out, srv.BaseURL())
	case stopped && srv.Misses() > 0:
		fmt.Fprintf(stderr, "lembas-check: record: %d requests matched nothing in the cassette %s (said above): the "+
			"session is not the one recorded\n", srv.Misses(), s.Fake.Cassette)
		return format.Failed
	case stopped && s.Fake.CassetteMode != fakeprovider.CassetteNew && len(srv.Unplayed()) > 0:
		fmt.Fprintf(stderr, "lembas-check: record: the session ended before the cassette %s did (said above)\n",
			s.Fake.Cassette)
		return format.Failed
	case stopped && ag != nil && srv.Logged() > 0:
		fmt.Fprintf(stderr,
			"lembas-check: record: the fake's policy could not drive %s through its tools (said above): %s is not of "+
				"a driven session; give the agent's tool shapes in its profile "+
				"(docs/live.md)\n", ag.Profile.Name, s.Out)
		return format.Failed
	case !stopped:
		return format.Unfinished
	}
	return format.OK
}

// serialized is w with its writes one at a time: the command's stderr is copied into it from
// one goroutine and the fake logs into it from others. A file is left as it is, so that the
// command writes to it directly (a terminal stays its terminal).
func serialized(w io.Writer) io.Writer {
	if _, ok := w.(*os.File); ok {
		return w
	}
	return syncbuf.NewWriter(w)
}

func fail(w io.Writer, f string, args ...any) format.Status {
	fmt.Fprintf(w, "lembas-check: "+f+"\n", args...)
	return format.Unfinished
}
