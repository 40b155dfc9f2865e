//go:build unix

package runner

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// blockingPipe is a pipe whose ends, as on Windows, have no deadlines (os.ErrNoDeadline): a
// blocking descriptor is not put in the runtime's poller.
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
	if err := r.SetReadDeadline(time.Time{}); !errors.Is(err, os.ErrNoDeadline) {
		t.Fatalf("the pipe has deadlines (%v): it does not play a Windows pipe", err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// fireAtOnce is a timer whose time is up as soon as it is set: the answer is late.
func fireAtOnce(_ int, _ string, _ time.Duration, f func()) func() bool {
	go f()
	return func() bool { return false }
}

// pipeProc is an adapter process as exchange sees it, on pipes the test holds the other ends of.
func pipeProc(stdin, stdout *os.File, timer func(int, string, time.Duration, func()) func() bool) *proc {
	return &proc{pid: 1, stdin: stdin, stdout: stdout, rd: bufio.NewReaderSize(stdout, 64<<10), grace: time.Second, timer: timer}
}

// The answer timeout and the interrupt hold on pipes without deadlines (Windows'): an adapter that
// never answers, or never reads its request, is a timeout, not a hang of lembas-check.
func TestExchangeWithoutDeadlines(t *testing.T) {
	t.Run("no answer", func(t *testing.T) {
		_, inW := blockingPipe(t)
		outR, _ := blockingPipe(t) // its write end held open, nothing written
		p := pipeProc(inW, outR, fireAtOnce)
		if _, err := p.exchange(context.Background(), []byte("{}\n"), time.Second); !errors.Is(err, errTimeout) {
			t.Errorf("exchange: %v, want the timeout", err)
		}
	})
	t.Run("request not read", func(t *testing.T) {
		_, inW := blockingPipe(t) // nobody reads: a line past the pipe's buffer blocks its write
		outR, _ := blockingPipe(t)
		p := pipeProc(inW, outR, fireAtOnce)
		line := []byte(strings.Repeat("x", 1<<20) + "\n")
		if _, err := p.exchange(context.Background(), line, time.Second); !errors.Is(err, errTimeout) {
			t.Errorf("exchange: %v, want the timeout", err)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		_, inW := blockingPipe(t)
		outR, _ := blockingPipe(t)
		p := pipeProc(inW, outR, never)
		ctx, cancel := context.WithCancel(context.Background())
		go cancel()
		if _, err := p.exchange(ctx, []byte("{}\n"), time.Second); !errors.Is(err, context.Canceled) {
			t.Errorf("exchange: %v, want the interrupt", err)
		}
	})
	t.Run("exited before reading, a line printed first", func(t *testing.T) {
		inR, inW := blockingPipe(t)
		inR.Close() // the write fails: it is gone
		outR, outW := blockingPipe(t)
		outW.WriteString("needs protocol 2\n")
		outW.Close()
		p := pipeProc(inW, outR, never)
		got, err := p.exchange(context.Background(), []byte("{}\n"), time.Second)
		if err != nil || string(got) != "needs protocol 2" {
			t.Errorf("exchange: %q, %v; want the line it printed", got, err)
		}
	})
	t.Run("exited before reading, nothing printed", func(t *testing.T) {
		inR, inW := blockingPipe(t)
		inR.Close()
		outR, outW := blockingPipe(t)
		outW.Close()
		p := pipeProc(inW, outR, never)
		if _, err := p.exchange(context.Background(), []byte("{}\n"), time.Second); !errors.Is(err, errClosed) {
			t.Errorf("exchange: %v, want closed", err)
		}
	})
	t.Run("answered", func(t *testing.T) {
		inR, inW := blockingPipe(t)
		outR, outW := blockingPipe(t)
		go func() {
			rd := bufio.NewReader(inR)
			l, _ := rd.ReadString('\n')
			outW.WriteString("got " + l)
		}()
		p := pipeProc(inW, outR, never)
		got, err := p.exchange(context.Background(), []byte("hello\n"), time.Second)
		if err != nil || string(got) != "got hello" {
			t.Errorf("exchange: %q, %v", got, err)
		}
	})
}
