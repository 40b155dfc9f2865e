package live

import (
	"errors"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// process is an agent the runner started. Every agent is started by start and ended by stop,
// the one place that will move to the process supervisor (issue 10) when it lands.
type process struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// grace is how long an agent asked to stop has before it is killed.
var grace = 5 * time.Second

// start starts cmd in a process group of its own, so that stop ends what it started too.
func start(cmd *exec.Cmd) (*process, error) {
	ownGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// stop ends the agent and its group: TERM, then KILL after grace. It returns how it ended.
func (p *process) stop() error {
	select {
	case <-p.done:
		p.signalGroup(syscall.SIGKILL) // what it left behind
		return p.err
	default:
	}
	p.signalGroup(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
	}
	p.signalGroup(syscall.SIGKILL)
	<-p.done
	return p.err
}

// exitText says how a process ended, for a verdict: "exit status 1", "killed by signal 9".
func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by " + ws.Signal().String()
		}
		return ee.Error()
	}
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// tail keeps the last bytes written to it: an agent's stderr, shown with a verdict.
type tail struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if m := max(t.max, 8<<10); len(t.b) > m {
		t.b = t.b[len(t.b)-m:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(string(t.b), "�")
}
