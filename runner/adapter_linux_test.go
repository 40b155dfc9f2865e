package runner

import (
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

// exited says whether process pid, a child of this one, has exited, without reaping it.
func exited(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil)
	return err == nil && info.Signo != 0
}

// An adapter that exits at once on bye, leaving a child that ignores TERM (issue 21: blamed on the
// adapter, "did not exit within 1s of bye"): its grace runs out while the child is being ended,
// and Close names the child, by command line and pid, as the adapter's leftover.
func TestAdapterByeBlamesTheLeftover(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) (util-linux) is not on PATH")
	}
	f := newFake(t, "good")
	t.Setenv("LEMBAS_FAKE_CHILD", "detach")
	// The grace of bye is up the moment the adapter has exited (waitable: a zombie leader whose
	// threads are still going is not yet): the supervisor is then still giving the stubborn child
	// its own grace before the KILL.
	exitUp := func(pid int, what string, d time.Duration, fire func()) func() bool {
		if what != "exit" {
			return f.timer(pid, what, d, fire)
		}
		stop := make(chan struct{})
		var once sync.Once
		go func() {
			for !exited(pid) {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond): // a poll, not a bound
				}
			}
			fire()
		}()
		return func() bool { once.Do(func() { close(stop) }); return true }
	}
	a := f.adapter(AdapterOptions{Grace: 300 * time.Millisecond, timer: exitUp})
	run(t, a, conformancetest.Cases(t, conformance.Jobs)[:1], 1)
	err := a.Close()
	if err == nil || strings.Contains(err.Error(), "did not exit") || !strings.Contains(err.Error(), "exited after bye but left processes running: ended 2 processes it left behind: ") ||
		!strings.Contains(err.Error(), "stubborn-sleeper (pid ") {
		t.Errorf("Close: %v, want the children named as left behind", err)
	}
	f.done()
}
