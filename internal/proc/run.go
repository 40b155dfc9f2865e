package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// RunOptions tune Run.
type RunOptions struct {
	// Grace is as Options.Grace.
	Grace time.Duration
	// Timeout stops the command after this long (0: no limit).
	Timeout time.Duration
	// Log is where what the command left running, and the OS's limits, are named.
	Log io.Writer
}

// StartError is Run's error for a command that could not start: the run was not made.
type StartError struct{ error }

func (e *StartError) Unwrap() error { return e.error }

// Run runs a command to its end in the foreground (`record`'s command): a process group of its
// own, given the terminal when it is ours; SIGINT and SIGTERM forwarded to its group; stopped
// (SIGTERM, then KILL after Grace) when ctx is done or the timeout passes. Whatever it left
// running is ended, and named on Log. It returns the exit status, and why it was stopped (a
// *StartError when it could not start).
func Run(ctx context.Context, cmd *exec.Cmd, o RunOptions) (int, error) {
	name := cmd.Args[0]
	p, err := Start(cmd, Options{Grace: o.Grace, Terminal: true})
	if err != nil {
		return 0, &StartError{fmt.Errorf("starting %s: %v", name, err)}
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var deadline <-chan time.Time
	if o.Timeout > 0 {
		t := time.NewTimer(o.Timeout)
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
		why = fmt.Errorf("ran past --timeout %v and was stopped", o.Timeout)
		err = p.Stop(syscall.SIGTERM)
	}
	// The command's end is the end of everything it started: what it left, and what left its
	// group and cleared its environment (Sweep), is ended.
	left := append(p.Left(), Sweep(o.Grace)...)
	if s := Summary(left, "the command"); s != "" {
		fmt.Fprintf(o.Log, "lembas-check: %s\n", s)
	}
	if l := Limits(); l != "" {
		fmt.Fprintf(o.Log, "lembas-check: note: %s\n", l)
	}
	status := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		status = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && why == nil {
			// As os.ProcessState says it, and the adapter's messages: "exited (signal: killed)".
			why = fmt.Errorf("exited (%v)", exit.ProcessState)
		}
	} else if err != nil && why == nil {
		why = err
	}
	return status, why
}
