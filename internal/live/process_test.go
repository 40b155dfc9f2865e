package live

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/acp"
)

// never is a clock that does not fire (go test's -timeout catches a hang); now one that has
// fired.
func never(time.Duration) <-chan time.Time { return nil }

func now(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	ch <- time.Time{}
	return ch
}

// An agent on its stdio (the live driver's over ACP and RPC, the live target's harness): what it
// said as it died is still read; End waits for an agent that exits when its input closes and
// says how it ended, stops one that does not, and names what it left running; a program that
// is not there is named.
func TestStdio(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	start := func(script string) *Stdio {
		t.Helper()
		a, err := StartStdio([]string{sh, "-c", script}, os.Environ(), t.TempDir(), io.Discard, 50*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}

	a := start(`read x; echo "bye $x"; exit 3`)
	io.WriteString(a.In, "now\n")
	if b, _ := io.ReadAll(a.Out); string(b) != "bye now\n" {
		t.Errorf("it said %q as it died", b)
	}
	if left, err := a.End(never, "the agent"); left != "" || exitText(err) != "exit status 3" {
		t.Errorf("an agent that exited: left %q, ended %q", left, exitText(err))
	}

	a = start(`exec sleep 30`) // its input closed, it runs on
	if left, err := a.End(now, "the agent"); left != "" || exitText(err) != "signal: terminated" {
		t.Errorf("an agent that runs on: left %q, ended %q", left, exitText(err))
	}

	// cat exits as its input closes; the child it leaves ignores TERM, and is killed.
	a = start(`(trap "" TERM; exec sleep 30) & exec cat`)
	if left, err := a.End(never, "the harness"); err != nil || !strings.HasPrefix(left, "ended 1 process the harness left behind: ") {
		t.Errorf("an agent that left a child: left %q, ended %v", left, err)
	}

	if _, err := StartStdio([]string{"/no/such/agent"}, nil, t.TempDir(), io.Discard, time.Second); err == nil || !strings.HasPrefix(err.Error(), "starting /no/such/agent: ") {
		t.Errorf("a missing program: %v", err)
	}
}

// One prompt one-shot (the live driver's and the live target's): its output read, an exit not 0
// a death naming the program and its status, the timeout a hang, ctx's end ctx's error, a program
// that is not there not run; whatever ends it, it ends.
func TestRunOnce(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	run := func(ctx context.Context, script string, o Once) (string, error) {
		t.Helper()
		var out bytes.Buffer
		o.Dir, o.Stdout, o.Stderr, o.Grace = t.TempDir(), &out, io.Discard, 50*time.Millisecond
		left, err := RunOnce(ctx, []string{sh, "-c", script}, o)
		if left != "" {
			t.Errorf("%s: left %s", script, left)
		}
		return out.String(), err
	}
	kind := func(err error) acp.Kind {
		if f := new(acp.Fault); errors.As(err, &f) {
			return f.Kind
		}
		return ""
	}
	bg := context.Background()
	if out, err := run(bg, "echo said; pwd >/dev/null", Once{Timeout: time.Hour, After: never}); out != "said\n" || err != nil {
		t.Errorf("exit 0: said %q, %v", out, err)
	}
	if out, err := run(bg, "echo oops; exit 1", Once{}); out != "oops\n" || kind(err) != acp.Died || !strings.HasSuffix(err.Error(), "sh exit status 1") {
		t.Errorf("exit 1: said %q, %v", out, err)
	}
	if _, err := run(bg, "exec sleep 30", Once{Timeout: time.Minute, After: now}); kind(err) != acp.Hung || !strings.Contains(err.Error(), "the prompt did not end within 1m0s") {
		t.Errorf("a prompt past its bound: %v", err)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := run(ctx, "exec sleep 30", Once{}); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted: %v", err)
	}
	var nr *NotRun
	if _, err := RunOnce(bg, []string{"/no/such/agent"}, Once{}); !errors.As(err, &nr) || !strings.HasPrefix(err.Error(), "starting /no/such/agent: ") {
		t.Errorf("a missing program: %v", err)
	}
}
