package live

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// never is a clock that does not fire; now one that has fired.
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
	if left, err := a.End(now, "the agent"); left != "" || exitText(err) != "killed by terminated" {
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
