// Package proc starts and ends every process lembas-check runs — adapters, the command of
// `record`, the agents of live targets — so that nothing they start outlives lembas-check.
//
// Use it in place of (*exec.Cmd).Start and Wait:
//
//	cmd := exec.Command(argv[0], argv[1:]...)
//	cmd.Stdin, cmd.Stdout, cmd.Env = … // as with os/exec; leave SysProcAttr nil
//	p, err := proc.Start(cmd, proc.Options{Grace: 2 * time.Second})
//	…
//	<-p.Done()                      // it ended on its own, or
//	err = p.Stop(syscall.SIGTERM)   // ask it to: the signal, Grace, then KILL
//	left := p.Left()                // what it left running, which was ended: name it to the user
//	fmt.Println(proc.Summary(left, "the command"))
//
// and once, as lembas-check ends, proc.Sweep ends whatever else still descends from it.
//
// What it guarantees, by OS:
//
//   - Every process is started in a process group of its own (a job object on Windows), and the
//     whole group is ended with it: Stop sends the signal to the group, waits Grace, then sends
//     KILL to the group; the process is reaped before Stop returns.
//   - When the process itself has exited, whatever of its group still runs is ended the same way
//     (signal, Grace, KILL) and listed by Left.
//   - Linux: lembas-check makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so a descendant
//     that detaches from the group (setsid, a double fork) is reparented to lembas-check instead of
//     init. Each process started here carries LEMBAS_CHECK_OWNERS in its environment, inherited
//     by what it starts; a descendant carrying a process's mark is ended with that process and
//     listed by its Left. Sweep ends every other descendant (one that cleared its environment),
//     and reaps the ones that come back as zombies. The direct child also gets Pdeathsig KILL, for
//     when lembas-check itself is killed with no chance to clean up.
//   - Other Unix (macOS, the BSDs): the process group, as above. A process that leaves its group is
//     not followed, and group members cannot be named (Left says how many groups, not who);
//     Limits says so at run time.
//   - Windows: a job object per process, closed on exit, so that the processes in it end when
//     lembas-check does. There is no TERM: Stop sends CTRL_BREAK to the process group (which
//     only console programs sharing lembas-check's console receive), waits Grace, then
//     terminates the job.
//
// Every process lembas-check starts goes through Start: Sweep takes any other child it finds for
// one left behind.
package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultGrace is how long a process has between the signal asking it to stop and KILL, when
// Options.Grace is zero.
const DefaultGrace = 5 * time.Second

// OwnersVar is the environment variable that marks what a process started by Start, and every
// process it starts in turn, belongs to: space-separated "PID.N" marks, one per lembas-check
// (PID) in the chain and the Nth process it started.
const OwnersVar = "LEMBAS_CHECK_OWNERS"

// Options tune one process.
type Options struct {
	// Grace is how long the process, and what it left behind, have between the signal asking them
	// to stop and KILL. Zero means DefaultGrace.
	Grace time.Duration
	// Terminal gives the process the terminal while it runs, when its stdin is the terminal
	// lembas-check runs in the foreground of (Unix): an interactive command in a group of its
	// own could not read it otherwise. Ctrl-C then goes to the process's group directly.
	Terminal bool

	// after is the clock the grace period is measured on (time.After unless a test says).
	after func(time.Duration) <-chan time.Time
}

// Process is one started process, its group, and what it started.
type Process struct {
	cmd   *exec.Cmd
	pid   int
	mark  string
	grace time.Duration
	after func(time.Duration) <-chan time.Time
	//lint:ignore U1000 the job object on Windows; Linux has nothing to hold
	sys sysState
	tty int // the terminal it was given (-1: none), taken back when it exits

	exited chan struct{} // the process itself has exited (it may not be reaped yet)
	done   chan struct{} // it is reaped, and everything it left is ended

	mu      sync.Mutex
	killed  bool // KILL was sent: what is left gets no grace
	stopped bool // a stop was asked for
	err     error
	left    []Leftover
}

// Leftover is a process lembas-check ended because a process it started left it running.
type Leftover struct {
	Pid     int
	Command string // its command line, "" where the OS does not say
	// Group is set where the OS cannot list a group's members: Pid is then the group's id.
	Group bool

	id uint64 // what tells this process from a later one with the same pid (Linux: its start time)
}

func (l Leftover) String() string {
	switch {
	case l.Group:
		return fmt.Sprintf("the rest of process group %d", l.Pid)
	case l.Command == "":
		return fmt.Sprintf("pid %d", l.Pid)
	}
	return fmt.Sprintf("%s (pid %d)", l.Command, l.Pid)
}

// Summary is the line that names what was ended, such as
// "ended 1 process the command left behind: sleep 25 (pid 4242)"; "" when nothing was.
func Summary(left []Leftover, whose string) string {
	if len(left) == 0 {
		return ""
	}
	names := make([]string, len(left))
	for i, l := range left {
		names[i] = l.String()
	}
	n := "1 process"
	if len(left) > 1 {
		n = strconv.Itoa(len(left)) + " processes"
	}
	return fmt.Sprintf("ended %s %s left behind: %s", n, whose, strings.Join(names, ", "))
}

var (
	// mu orders Start against Sweep: a child Sweep finds is either registered or not one of ours.
	mu      sync.Mutex
	live    = map[int]*Process{}
	started int
)

// Start starts cmd in a group of its own and watches it. cmd is prepared as for (*exec.Cmd).Start,
// with SysProcAttr left nil: Start sets it. cmd.Env gets OwnersVar added (nil Env means
// lembas-check's environment, as for os/exec). When cmd.WaitDelay is zero it is set to Grace, so
// that a descendant holding the output open cannot keep Wait from returning.
func Start(cmd *exec.Cmd, o Options) (*Process, error) {
	if cmd.SysProcAttr != nil {
		return nil, errors.New("proc.Start: leave SysProcAttr nil (it sets the process group)")
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.after == nil {
		o.after = time.After
	}
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = o.Grace
	}
	setupOnce.Do(setup)
	mu.Lock()
	defer mu.Unlock()
	started++
	mark := fmt.Sprintf("%d.%d", os.Getpid(), started)
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	owners := mark
	if prev := os.Getenv(OwnersVar); prev != "" {
		owners = prev + " " + mark
	}
	cmd.Env = append(env[:len(env):len(env)], OwnersVar+"="+owners)
	tty := prepare(cmd, o.Terminal)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Process{cmd: cmd, pid: cmd.Process.Pid, mark: mark, grace: o.Grace, after: o.after, tty: tty,
		exited: make(chan struct{}), done: make(chan struct{})}
	attach(p)
	live[p.pid] = p
	go p.watch()
	return p, nil
}

// watch waits for the process to exit, ends what it left, reaps it, and says it is done.
func (p *Process) watch() {
	// Where the OS lets us see the exit before reaping, the group's id stays taken while we end
	// what is left in it; elsewhere the process is reaped first.
	var err error
	early := waitExited(p)
	if !early {
		err = p.cmd.Wait()
	}
	if p.tty >= 0 {
		takeTerminal(p.tty)
	}
	close(p.exited)
	left := p.endLeft()
	reapGroup(p)
	if early {
		err = p.cmd.Wait()
	}
	if errors.Is(err, exec.ErrWaitDelay) {
		// It exited well; a descendant kept its output open, and was ended above or by Sweep.
		err = nil
	}
	release(p)
	mu.Lock()
	delete(live, p.pid)
	mu.Unlock()
	p.mu.Lock()
	p.err, p.left = err, left
	p.mu.Unlock()
	close(p.done)
}

// endLeft ends what the process left running (asked to stop, then after the grace period
// killed) and returns it.
func (p *Process) endLeft() []Leftover {
	left := owned(p)
	if len(left) == 0 {
		return nil
	}
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	if killed {
		return endNow(left)
	}
	return end(left, p.grace, p.after)
}

// end asks each process in left to stop, waits grace for them to go, then kills what remains.
// Processes that were found again (a fork caught mid-way) are killed too.
func end(left []Leftover, grace time.Duration, after func(time.Duration) <-chan time.Time) []Leftover {
	signalEach(left, false)
	timer := after(grace)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !allGone(left) {
		select {
		case <-timer:
			return endNow(left)
		case <-tick.C:
		}
	}
	return left
}

// endNow kills each process in left and waits until they are gone (a few seconds at most: a
// process can sit in the kernel).
func endNow(left []Leftover) []Leftover {
	for range 500 {
		signalEach(left, true)
		if allGone(left) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return left
}

// Pid is the process's id (and its group's).
func (p *Process) Pid() int { return p.pid }

// Done is closed once the process has exited, what it left is ended, and it is reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited is closed as soon as the process itself has exited, before what it left is ended.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// HasExited says, without waiting, whether the process itself has exited: Exited is closed, or
// (Linux) it is a zombie the supervisor has not yet seen. A deadline that ran out at the moment it
// exited asks this, so that the exit is not taken for a hang.
func (p *Process) HasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return exitedNow(p)
	}
}

// Wait waits for Done and returns what (*exec.Cmd).Wait returned.
func (p *Process) Wait() error {
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// State is the process's exit state once Done, else nil.
func (p *Process) State() *os.ProcessState {
	select {
	case <-p.done:
		return p.cmd.ProcessState
	default:
		return nil
	}
}

// Left is what the process left running when it exited, which was ended; nil before Done.
func (p *Process) Left() []Leftover {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.left
}

// Stop sends sig (syscall.SIGTERM, or a signal lembas-check was sent and passes on) to the
// process, its group and what it started, waits Grace for the process to exit, then kills them.
// It returns once the process is Done, with what Wait returns.
func (p *Process) Stop(sig os.Signal) error {
	select {
	case <-p.exited:
	default:
		p.mu.Lock()
		p.stopped = true
		p.mu.Unlock()
		signalAll(p, sig)
		select {
		case <-p.exited:
		case <-p.after(p.grace):
			p.Kill()
		}
	}
	return p.Wait()
}

// ErrDeadline is Await's error for a process that ran past its deadline and was stopped.
var ErrDeadline = errors.New("ran past its deadline and was stopped")

// Await waits for the process to end on its own (Done). When ctx is done first, or deadline
// delivers first (a timeout's channel; nil: none), it stops the process (Stop with SIGTERM: the
// signal, Grace, then KILL) and returns ctx's error or ErrDeadline; else nil, and Wait says how
// it ended. It is how a program run to its end — an agent's one prompt, its setup, a tool's
// command, the browser — is bounded.
func (p *Process) Await(ctx context.Context, deadline <-chan time.Time) error {
	select {
	case <-p.done:
		return nil
	case <-deadline:
		p.Stop(syscall.SIGTERM)
		return ErrDeadline
	case <-ctx.Done():
		p.Stop(syscall.SIGTERM)
		return ctx.Err()
	}
}

// Kill kills the process, its group and what it started at once, and returns once it is Done.
func (p *Process) Kill() error {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	select {
	case <-p.exited:
	default:
		signalAll(p, nil)
	}
	return p.Wait()
}

// Stopped says whether Stop was called before the process exited on its own.
func (p *Process) Stopped() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stopped
}

// Sweep ends every descendant of lembas-check that no running Process owns — one that left its
// group and cleared its environment, or was left by a process started elsewhere — with the same
// signal, grace and KILL, reaps those that came back to it, and returns them. Call it as
// lembas-check ends (and where a command's end is the end of everything, as in record).
func Sweep(grace time.Duration) []Leftover {
	return sweep(grace, time.After)
}

func sweep(grace time.Duration, after func(time.Duration) <-chan time.Time) []Leftover {
	if grace <= 0 {
		grace = DefaultGrace
	}
	mu.Lock()
	if started == 0 {
		// Nothing was started here: nothing can have come back (and no /proc walk is paid).
		mu.Unlock()
		return nil
	}
	left := strays()
	mu.Unlock()
	if len(left) == 0 {
		reapStrays()
		return nil
	}
	left = end(left, grace, after)
	reapStrays()
	return left
}

// setupOnce runs what the OS needs before the first start (Linux: become a subreaper).
var setupOnce sync.Once

// Limits says what this OS, or this run, cannot guarantee of the above; "" when it all holds.
func Limits() string {
	setupOnce.Do(setup)
	return limits()
}
