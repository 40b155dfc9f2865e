//go:build unix

package proc

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Run gives the command's exit status, names one that could not start as a StartError, and
// says why one was stopped.
func TestRun(t *testing.T) {
	var log bytes.Buffer
	o := RunOptions{Log: &log}
	if status, err := Run(context.Background(), exec.Command("sh", "-c", "exit 3"), o); status != 3 || err != nil {
		t.Errorf("exit 3: status %d, %v", status, err)
	}
	// A command a signal ended says so as the process state does (it said "was killed by killed").
	if _, err := Run(context.Background(), exec.Command("sh", "-c", "kill -KILL $$"), o); err == nil || err.Error() != "exited (signal: killed)" {
		t.Errorf("killed: %v", err)
	}
	var se *StartError
	if _, err := Run(context.Background(), exec.Command("/nonexistent/lembas-none"), o); !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "starting /nonexistent/lembas-none: ") {
		t.Errorf("a command that cannot start: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, exec.Command("sleep", "30"), o); err == nil || err.Error() != "was stopped by terminated (forwarded)" {
		t.Errorf("a command whose context ended: %v", err)
	}
}

// Await: a process that ends on its own is waited for; one whose context ends, or whose
// deadline passes, is stopped, and Await says which.
func TestAwait(t *testing.T) {
	start := func(argv ...string) *Process {
		t.Helper()
		p, err := Start(exec.Command(argv[0], argv[1:]...), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := start("sh", "-c", "exit 3")
	if err := p.Await(context.Background(), nil); err != nil || p.State().ExitCode() != 3 {
		t.Errorf("exit 3: %v, %v", err, p.State())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p = start("sleep", "30")
	if err := p.Await(ctx, nil); !errors.Is(err, context.Canceled) || p.State() == nil || !p.Stopped() {
		t.Errorf("context ended: %v, %v", err, p.State())
	}
	fired := make(chan time.Time, 1)
	fired <- time.Time{}
	p = start("sleep", "30")
	if err := p.Await(context.Background(), fired); !errors.Is(err, ErrDeadline) || p.State() == nil || !p.Stopped() {
		t.Errorf("past its deadline: %v, %v", err, p.State())
	}
}
