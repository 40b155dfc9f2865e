package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/proc"
)

// grace is how long an agent asked to stop has before it is killed (internal/proc: TERM, then
// KILL after grace, what it left behind ended and named).
var grace = 5 * time.Second

// Once says how RunOnce runs a program: in Dir with Env, its output to Stdout and Stderr (nil:
// dropped), stopped after Timeout (0: no bound) on the clock After (nil: time.After), with Grace
// (0: grace) between TERM and KILL.
type Once struct {
	Env            []string
	Dir            string
	Stdout, Stderr io.Writer
	Timeout, Grace time.Duration
	After          func(time.Duration) <-chan time.Time
}

// RunOnce runs one prompt one-shot — argv, a profile's one-shot command — to its end under the
// process supervisor, as the live driver and the live target both do. Ended by ctx or the timeout,
// it is stopped (TERM, then KILL after grace) with all it started, and the error is ctx's or a
// Hung fault; exited non-zero, a Died fault saying how; not started, a NotRun. left names what it
// had left running ("" when nothing).
func RunOnce(ctx context.Context, argv []string, o Once) (left string, err error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir, cmd.Stdout, cmd.Stderr = o.Env, o.Dir, o.Stdout, o.Stderr
	g := o.Grace
	if g == 0 {
		g = grace
	}
	sv, err := proc.Start(cmd, proc.Options{Grace: g})
	if err != nil {
		return "", &NotRun{fmt.Errorf("starting %s: %v", argv[0], err)}
	}
	var deadline <-chan time.Time
	if o.Timeout > 0 {
		if o.After == nil {
			o.After = time.After
		}
		deadline = o.After(o.Timeout)
	}
	err = sv.Await(ctx, deadline)
	left = proc.Summary(sv.Left(), "the agent")
	switch {
	case errors.Is(err, proc.ErrDeadline):
		return left, &acp.Fault{Kind: acp.Hung, Detail: fmt.Sprintf("the prompt did not end within %v", o.Timeout)}
	case err != nil:
		return left, err
	}
	if err := sv.Wait(); err != nil {
		return left, &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("%s %s", filepath.Base(argv[0]), exitText(err))}
	}
	return left, nil
}

// Stdio is an agent that speaks on its stdio for a whole session (ACP, RPC): started by
// StartStdio, ended by End (or Kill). The live driver and the live target both run theirs so.
type Stdio struct {
	// In is its stdin.
	In *os.File
	// Out is its stdout: a pipe of our own, not StdoutPipe, which Wait would close as the agent
	// exits, before its last lines (what it said as it died) are read.
	Out *os.File
	P   *proc.Process
}

// StartStdio starts argv in dir with env under the process supervisor (its own group; asked to
// stop, it has grace before KILL), its stdin and stdout held by us, its stderr written to stderr.
func StartStdio(argv, env []string, dir string, stderr io.Writer, grace time.Duration) (*Stdio, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	p, err := proc.Start(cmd, proc.Options{Grace: grace})
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("starting %s: %v", argv[0], err)
	}
	return &Stdio{In: inW, Out: outR, P: p}, nil
}

// End closes the agent's input and gives it two seconds (on after) to exit, then stops it (an
// agent that does not exit when its input closes, as codex-acp, is), with all it started. It
// returns how the agent ended, and the line naming what it had left running ("" when nothing;
// whose is who, as proc.Summary says it).
func (s *Stdio) End(after func(time.Duration) <-chan time.Time, whose string) (left string, err error) {
	s.In.Close()
	select {
	case <-s.P.Exited():
	case <-after(2 * time.Second):
	}
	err = s.P.Stop(syscall.SIGTERM)
	s.Out.Close()
	return proc.Summary(s.P.Left(), whose), err
}

// Kill ends the agent and all it started at once, and closes its pipes.
func (s *Stdio) Kill() {
	s.P.Kill()
	s.In.Close()
	s.Out.Close()
}

// exitText says how a process ended, for a verdict, as the adapter's and the live target's
// messages say it (os.ProcessState's words): "exit status 1", "signal: killed".
func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}
