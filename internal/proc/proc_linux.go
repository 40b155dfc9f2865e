package proc

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

//lint:ignore U1000 Process.sys holds the Windows job object; Linux has nothing to keep
type sysState struct{}

func prepare(cmd *exec.Cmd, term bool) int {
	// Its own group; and killed if lembas-check dies without a chance to end it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return foreground(cmd, term)
}

func attach(*Process)  {}
func release(*Process) {}

var subreaperErr error

// setup makes orphaned descendants come back to lembas-check instead of going to init.
func setup() { subreaperErr = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

func limits() string {
	if subreaperErr != nil {
		return fmt.Sprintf("a process that leaves its process group (setsid, a daemon) is not followed "+
			"(PR_SET_CHILD_SUBREAPER: %v): it may outlive lembas-check", subreaperErr)
	}
	return ""
}

// waitExited blocks until the process has exited, leaving it a zombie: its pid, and so its
// group's id, cannot be reused until it is reaped.
func waitExited(p *Process) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err == nil
		}
	}
}

// exitedNow says, without waiting or reaping, whether the process has exited (a zombie).
func exitedNow(p *Process) bool {
	var info unix.Siginfo // zero: a waitid with nothing to report leaves si_signo 0
	err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil)
	return err == nil && info.Signo != 0
}

func signalAll(p *Process, sig os.Signal) {
	s := unixSignal(sig)
	signalGroup(p.pid, s)
	for _, l := range marked(snapshot(), p.mark) {
		signalOne(l, s)
	}
}

// owned is what of p still runs besides p: its group, and the descendants carrying its mark.
func owned(p *Process) []Leftover {
	procs := snapshot()
	seen := map[int]bool{p.pid: true}
	var out []Leftover
	add := func(s pstat) {
		if !seen[s.pid] && s.state != 'Z' {
			seen[s.pid] = true
			out = append(out, leftover(s))
		}
	}
	for _, s := range procs {
		if s.pgrp == p.pid {
			add(s)
		}
	}
	for _, s := range descendants(procs, os.Getpid()) {
		// A zombie's environ reads empty: it is not read (nor waited on as if mid-exec).
		if s.state != 'Z' && hasMark(s.pid, p.mark) {
			add(s)
		}
	}
	return out
}

// marked is the live descendants of lembas-check carrying mark.
func marked(procs map[int]pstat, mark string) []Leftover {
	var out []Leftover
	for _, s := range descendants(procs, os.Getpid()) {
		if s.state != 'Z' && hasMark(s.pid, mark) {
			out = append(out, leftover(s))
		}
	}
	return out
}

// strays is every live descendant of lembas-check that no running Process owns (by tree,
// group or mark). mu is held.
func strays() []Leftover {
	procs := snapshot()
	ownedBy := func(s pstat) bool {
		for q := s; ; {
			if _, ok := live[q.pid]; ok {
				return true
			}
			if _, ok := live[q.pgrp]; ok {
				return true
			}
			parent, ok := procs[q.ppid]
			if !ok || q.ppid == os.Getpid() {
				break
			}
			q = parent
		}
		for _, p := range live {
			if hasMark(s.pid, p.mark) {
				return true
			}
		}
		return false
	}
	var out []Leftover
	for _, s := range descendants(procs, os.Getpid()) {
		if s.state != 'Z' && !ownedBy(s) {
			out = append(out, leftover(s))
		}
	}
	return out
}

// reapStrays reaps the zombies among lembas-check's children that no Process waits for: the
// descendants that came back to it (as a subreaper) and then ended.
func reapStrays() {
	reapZombies(func(pstat) bool { return true })
}

// reapGroup reaps the zombies of p's group that came back to lembas-check when p exited.
func reapGroup(p *Process) {
	reapZombies(func(s pstat) bool { return s.pgrp == p.pid && s.pid != p.pid })
}

// reapZombies reaps lembas-check's zombie children that match, waiting a moment (a second at
// most) for those whose other threads are still exiting.
func reapZombies(match func(pstat) bool) {
	for range 100 {
		pending := false
		for _, s := range snapshot() {
			if s.ppid == os.Getpid() && s.state == 'Z' && match(s) && !reapOrphan(s.pid) {
				pending = true
			}
		}
		if !pending {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// reapOrphan reaps pid if it is a child of lembas-check that no Process waits for, and says
// whether it is gone. A zombie whose other threads are still exiting cannot be reaped yet.
func reapOrphan(pid int) bool {
	mu.Lock()
	_, ours := live[pid]
	mu.Unlock()
	if ours {
		return true
	}
	var ws unix.WaitStatus
	got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
	return got == pid || err != nil
}

func signalEach(left []Leftover, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	for _, l := range left {
		signalOne(l, sig)
	}
}

// signalOne signals l if it is still the same process.
func signalOne(l Leftover, sig syscall.Signal) {
	if s, ok := readStat(l.Pid); ok && s.start == l.id && s.state != 'Z' {
		_ = syscall.Kill(l.Pid, sig)
	}
}

// allGone says whether every process in left has ended (a zombie has), reaping those that came
// back to lembas-check.
func allGone(left []Leftover) bool {
	gone := true
	for _, l := range left {
		s, ok := readStat(l.Pid)
		switch {
		case !ok || s.start != l.id:
		case s.state == 'Z':
			if s.ppid == os.Getpid() && !reapOrphan(l.Pid) {
				gone = false
			}
		default:
			gone = false
		}
	}
	return gone
}

// pstat is what /proc/PID/stat says of a process.
type pstat struct {
	pid, ppid, pgrp int
	state           byte
	start           uint64 // clock ticks after boot: with pid, names one process
	comm            string
	// env_start and env_end (fields 50 and 51, Linux 3.5), when the line has them: where the
	// environment lies in the process's memory.
	envStart, envEnd uint64
	envKnown         bool
}

// envSettled says whether an empty environ of the process is its real one: it is a zombie, or
// its env_start and env_end are equal and set. Mid-exec, env_end is 0; a process whose
// environment is empty (env -i) has them equal. A line without the fields (a kernel before 3.5)
// says nothing to wait for.
func (s pstat) envSettled() bool {
	return !s.envKnown || s.state == 'Z' || s.state == 'X' || (s.envEnd != 0 && s.envStart == s.envEnd)
}

func leftover(s pstat) Leftover {
	cmd := cmdline(s.pid)
	if cmd == "" {
		cmd = s.comm
	}
	return Leftover{Pid: s.pid, Command: cmd, id: s.start}
}

func readStat(pid int) (pstat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return pstat{}, false
	}
	return parseStat(pid, b)
}

// parseStat reads "PID (COMM) STATE PPID PGRP … STARTTIME …"; COMM may hold spaces and ')'.
func parseStat(pid int, b []byte) (pstat, bool) {
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return pstat{}, false
	}
	f := strings.Fields(string(b[close+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return pstat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return pstat{}, false
	}
	s := pstat{pid: pid, ppid: ppid, pgrp: pgrp, state: f[0][0], start: start, comm: string(b[open+1 : close])}
	if len(f) >= 49 {
		envStart, err1 := strconv.ParseUint(f[47], 10, 64)
		envEnd, err2 := strconv.ParseUint(f[48], 10, 64)
		s.envStart, s.envEnd, s.envKnown = envStart, envEnd, err1 == nil && err2 == nil
	}
	return s, true
}

// snapshot is every process on the machine, by pid.
func snapshot() map[int]pstat {
	out := map[int]pstat{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if s, ok := readStat(pid); ok {
			out[pid] = s
		}
	}
	return out
}

// descendants is every process below root in procs (root left out).
func descendants(procs map[int]pstat, root int) []pstat {
	kids := map[int][]int{}
	for pid, s := range procs {
		kids[s.ppid] = append(kids[s.ppid], pid)
	}
	var out []pstat
	queue := kids[root]
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		out = append(out, procs[pid])
		queue = append(queue, kids[pid]...)
	}
	return out
}

// hasMark says whether the process's environment marks it as mark's.
func hasMark(pid int, mark string) bool {
	read := func() ([]byte, error) { return os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ") }
	return markIn(read, func() bool { return envSettled(pid) }, mark, time.Sleep)
}

// markIn reads an environment with read and says whether it carries mark. An empty read is
// final only once settled says so (the process is gone, a zombie, or its environment is empty):
// a process in the middle of an exec reads empty for a while (its new memory has no environment
// yet, or the read caught the old memory being torn down), and taking that for no one's let a
// child caught mid-exec (a shell's job, `setsid prog`) outlive the one that started it. Under
// load the window outlasted 20 reads a millisecond apart (runner's TestAdapterLeavesNothing in
// CI); it is read again for markWait at most.
func markIn(read func() ([]byte, error), settled func() bool, mark string, sleep func(time.Duration)) bool {
	var b []byte
	for try := 0; ; try++ {
		var err error
		if b, err = read(); err != nil {
			return false
		}
		if len(b) > 0 || settled() || try >= int(markWait/time.Millisecond) {
			break
		}
		sleep(time.Millisecond)
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(OwnersVar+"=")); ok {
			for _, m := range strings.Fields(string(v)) {
				if m == mark {
					return true
				}
			}
		}
	}
	return false
}

// markWait bounds how long an environment that reads empty is read again: an exec takes well
// under a millisecond; seconds is a machine starved of CPU.
const markWait = 5 * time.Second

// envSettled says whether an empty environ of pid is its real one (pstat.envSettled); a process
// that is gone has none to wait for.
func envSettled(pid int) bool {
	s, ok := readStat(pid)
	return !ok || s.envSettled()
}

// cmdline is the process's argv joined by spaces; "" for a zombie or a kernel thread.
func cmdline(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.Join(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"), " "))
}
