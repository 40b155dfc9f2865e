package live

import (
	"errors"
	"os/exec"
	"syscall"
	"time"

	"github.com/LLeMbas/lembas-check/internal/proc"
)

// process is an agent the runner started, under the one process supervisor (internal/proc):
// its own group (a job object on Windows), TERM then KILL after grace, and what it left behind
// ended and named.
type process struct{ p *proc.Process }

// grace is how long an agent asked to stop has before it is killed.
var grace = 5 * time.Second

func start(cmd *exec.Cmd) (*process, error) {
	p, err := proc.Start(cmd, proc.Options{Grace: grace})
	if err != nil {
		return nil, err
	}
	return &process{p}, nil
}

// exited is closed once the agent itself has exited.
func (p *process) exited() <-chan struct{} { return p.p.Exited() }

// stop ends the agent and its group: TERM, then KILL after grace. It returns how it ended, and
// names what it had left running.
func (p *process) stop() (left string, err error) {
	err = p.p.Stop(syscall.SIGTERM)
	return proc.Summary(p.p.Left(), "the agent"), err
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
