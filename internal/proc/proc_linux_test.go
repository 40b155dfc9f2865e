package proc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the processes the tests start: with LEMBAS_PROC_HELPER set,
// TestMain runs helper(mode) instead of the tests. Every helper has the test's marker among its
// arguments, so that a test can count what of it still runs.
func TestMain(m *testing.M) {
	if mode := os.Getenv("LEMBAS_PROC_HELPER"); mode != "" {
		helper(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helper(mode string) {
	marker := os.Args[len(os.Args)-1]
	switch mode {
	case "sleep":
		fmt.Println("ready")
		forever()
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("ready")
		forever()
	case "notice-term":
		// Says each TERM it gets, and lives on.
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGTERM)
		fmt.Println("ready")
		for range sigs {
			fmt.Println("term")
		}
	case "fork-exit", "fork-stay":
		// A child in its group, and one that detaches (setsid) and ignores TERM.
		child(marker, "sleep", false, nil)
		child(marker, "stubborn", true, nil)
		fmt.Println("ready")
		if mode == "fork-stay" {
			forever()
		}
	case "cleared":
		// A child that detaches and clears its environment: no mark says whose it is.
		child(marker, "stubborn", true, []string{"LEMBAS_PROC_HELPER=stubborn"})
		fmt.Println("ready")
	}
}

// forever sleeps (a bare select{} would be a deadlock the runtime ends).
func forever() { time.Sleep(24 * time.Hour) }

// child starts the test binary in mode and waits for it to be ready.
func child(marker, mode string, detach bool, env []string) {
	c := exec.Command(os.Args[0], "-test.run=^$", mode, marker)
	c.Env = env
	if env == nil {
		c.Env = append(os.Environ(), "LEMBAS_PROC_HELPER="+mode)
	}
	if detach {
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	}
	out, _ := c.StdoutPipe()
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(9)
	}
	bufio.NewReader(out).ReadString('\n')
}

// fakeClock hands each grace period the code asks for to the test, which fires it.
type fakeClock struct{ asked chan fakeTimer }

type fakeTimer struct {
	d time.Duration
	c chan time.Time
}

func newClock() *fakeClock { return &fakeClock{asked: make(chan fakeTimer, 16)} }

func (f *fakeClock) after(d time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	f.asked <- fakeTimer{d, c}
	return c
}

// next is the next grace period asked for; the test fails if none is.
func (f *fakeClock) next(t *testing.T) fakeTimer {
	t.Helper()
	return <-f.asked
}

// fireAll fires every grace period asked for from now on, until the test ends.
func (f *fakeClock) fireAll(t *testing.T) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case ft := <-f.asked:
				ft.c <- time.Time{}
			case <-stop:
				return
			}
		}
	}()
}

// none checks no grace period was asked for (beyond those already taken).
func (f *fakeClock) none(t *testing.T) {
	t.Helper()
	select {
	case ft := <-f.asked:
		t.Errorf("a grace period of %v was asked for", ft.d)
	default:
	}
}

const grace = time.Hour // never reached: the fake clock decides

type run struct {
	p      *Process
	out    *bufio.Reader
	marker string
}

// stopTERM stops the process with TERM in a goroutine of its own, for a test that plays the
// clock meanwhile; Stop's error arrives on the channel.
func (s run) stopTERM() <-chan error {
	stopped := make(chan error, 1)
	go func() { stopped <- s.p.Stop(syscall.SIGTERM) }()
	return stopped
}

// ready starts a helper (as start does) on a fake clock of its own, and waits for it to say it
// is ready.
func ready(t *testing.T, mode string, argv ...string) (run, *fakeClock) {
	t.Helper()
	clock := newClock()
	s := start(t, clock, mode, argv...)
	s.expect(t, "ready")
	return s, clock
}

func start(t *testing.T, clock *fakeClock, mode string, argv ...string) run {
	t.Helper()
	marker := fmt.Sprintf("lembas-proc-test-%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-"))
	var cmd *exec.Cmd
	if len(argv) > 0 {
		cmd = exec.Command(argv[0], append(argv[1:], marker)...)
	} else {
		cmd = exec.Command(os.Args[0], "-test.run=^$", mode, marker)
		cmd.Env = append(os.Environ(), "LEMBAS_PROC_HELPER="+mode)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(cmd, Options{Grace: grace, after: clock.after})
	if err != nil {
		t.Fatal(err)
	}
	s := run{p: p, out: bufio.NewReader(stdout), marker: marker}
	t.Logf("started %d", p.pid)
	t.Cleanup(func() {
		// Whatever the test did, nothing it run may run on.
		p.Kill()
		for _, pid := range running(marker) {
			t.Errorf("pid %d (%s) still runs after the test", pid, cmdline(pid))
			syscall.Kill(pid, syscall.SIGKILL)
		}
		sweep(grace, func(time.Duration) <-chan time.Time { return closed })
	})
	return s
}

var closed = func() chan time.Time { c := make(chan time.Time); close(c); return c }()

func (s run) expect(t *testing.T, line string) {
	t.Helper()
	got, err := s.out.ReadString('\n')
	if strings.TrimSpace(got) != line {
		t.Fatalf("the process said %q (%v), want %q", got, err, line)
	}
}

// running is every live process on the machine with marker in its command line.
func running(marker string) []int {
	var out []int
	for pid, s := range snapshot() {
		if s.state != 'Z' && strings.Contains(cmdline(pid), marker) {
			out = append(out, pid)
		}
	}
	return out
}

func signaled(t *testing.T, p *Process, want syscall.Signal) {
	t.Helper()
	ws, ok := p.State().Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != want {
		t.Errorf("the process ended with %v, want killed by %v", p.State(), want)
	}
}

func TestStopEndsOnTERM(t *testing.T) {
	s, clock := ready(t, "sleep")
	stopped := s.stopTERM()
	ft := clock.next(t)
	if ft.d != grace {
		t.Errorf("grace period %v, want %v", ft.d, grace)
	}
	// The timer is never fired: the process exits on TERM, and Stop returns without it.
	var exit *exec.ExitError
	if err := <-stopped; !errorsAs(err, &exit) {
		t.Errorf("Stop returned %v, want the exit error", err)
	}
	signaled(t, s.p, syscall.SIGTERM)
	clock.none(t)
}

func TestStopKillsAfterGrace(t *testing.T) {
	s, clock := ready(t, "notice-term")
	stopped := s.stopTERM()
	ft := clock.next(t)
	s.expect(t, "term")
	// It got TERM and chose to live: until the grace period is over, it runs.
	select {
	case <-s.p.Exited():
		t.Fatal("the process ended before its grace period was over")
	default:
	}
	ft.c <- time.Time{}
	<-stopped
	signaled(t, s.p, syscall.SIGKILL)
	if len(running(s.marker)) != 0 {
		t.Error("the process runs on after Stop")
	}
}

func TestKillGivesNoGrace(t *testing.T) {
	s, clock := ready(t, "fork-stay")
	s.p.Kill()
	signaled(t, s.p, syscall.SIGKILL)
	clock.none(t)
	if pids := running(s.marker); len(pids) != 0 {
		t.Errorf("still running after Kill: %v", pids)
	}
}

// A process that exits on its own leaves a child in its group and a detached child that ignores
// TERM: both are ended (TERM, the grace period, KILL) and named.
func TestWhatAProcessLeavesIsEnded(t *testing.T) {
	s, clock := ready(t, "fork-exit")
	<-s.p.Exited()
	ft := clock.next(t)
	// The detached one ignores TERM; it runs until the grace period is over, under lembas-check.
	pids := running(s.marker)
	if len(pids) == 0 {
		t.Fatal("the detached child did not outlive its parent (the test shows nothing)")
	}
	for _, pid := range pids {
		// The child in the group has had its TERM and may be gone by now: only one still there
		// has a parent to check (a vanished one read as parent 0, and failed the test).
		st, ok := readStat(pid)
		if !ok {
			continue
		}
		if st.ppid != os.Getpid() && st.ppid != s.p.pid {
			t.Errorf("pid %d's parent is %d: it should have come back to lembas-check (%d), a subreaper", pid, st.ppid, os.Getpid())
		}
	}
	ft.c <- time.Time{}
	if err := s.p.Wait(); err != nil {
		t.Errorf("Wait: %v", err)
	}
	if pids := running(s.marker); len(pids) != 0 {
		t.Errorf("still running: %v", pids)
	}
	var modes []string
	for _, l := range s.p.Left() {
		f := strings.Fields(l.Command)
		if len(f) < 2 || f[len(f)-1] != s.marker {
			t.Errorf("left %v: not one of the test's", l)
			continue
		}
		modes = append(modes, f[len(f)-2])
	}
	if strings.Join(modes, " ") != "sleep stubborn" && strings.Join(modes, " ") != "stubborn sleep" {
		t.Errorf("Left() = %v, want the sleep and the stubborn child", s.p.Left())
	}
	noZombies(t)
}

// Stop reaches a detached child while its parent still runs; it ignores TERM, so it is killed
// once the grace period is over.
func TestStopReachesWhatDetached(t *testing.T) {
	s, clock := ready(t, "fork-stay")
	stopped := s.stopTERM()
	// The parent exits on TERM; the stubborn child lives on under its grace period.
	<-s.p.Exited()
	if len(running(s.marker)) == 0 {
		t.Fatal("nothing outlived the parent's TERM (the test shows nothing)")
	}
	clock.fireAll(t)
	<-stopped
	if pids := running(s.marker); len(pids) != 0 {
		t.Errorf("still running: %v", pids)
	}
	found := false
	for _, l := range s.p.Left() {
		found = found || strings.Contains(l.Command, "stubborn")
	}
	if !found {
		t.Errorf("Left() = %v: the detached child is not named", s.p.Left())
	}
	noZombies(t)
}

// The case: a shell's background job and its foreground one, stopped by a timeout.
func TestShellJobsEnded(t *testing.T) {
	s, clock := ready(t, "", "sh", "-c", `sleep 2500 & sleep 2600 & echo ready; wait`)
	before := marked(snapshot(), s.p.mark)
	if len(before) < 2 {
		t.Fatalf("the sleeps do not carry the mark: %v", before)
	}
	go func() { clock.next(t) }()
	s.p.Stop(syscall.SIGTERM)
	if left := marked(snapshot(), s.p.mark); len(left) != 0 {
		t.Errorf("still running: %v", left)
	}
}

// A descendant that clears its environment and detaches is no process's: Sweep ends it.
func TestSweepEndsStrays(t *testing.T) {
	s, clock := ready(t, "cleared")
	s.p.Wait()
	if len(s.p.Left()) != 0 {
		t.Errorf("Left() = %v: the cleared child carries no mark", s.p.Left())
	}
	pids := running(s.marker)
	if len(pids) != 1 {
		t.Fatalf("running %v, want the cleared child", pids)
	}
	if st, _ := readStat(pids[0]); st.ppid != os.Getpid() {
		t.Fatalf("its parent is %d, want lembas-check (%d), a subreaper", st.ppid, os.Getpid())
	}
	done := make(chan []Leftover, 1)
	go func() { done <- sweep(grace, clock.after) }()
	ft := clock.next(t) // it ignores TERM
	ft.c <- time.Time{}
	left := <-done
	if len(left) != 1 || left[0].Pid != pids[0] {
		t.Errorf("Sweep() = %v, want pid %d", left, pids[0])
	}
	if pids := running(s.marker); len(pids) != 0 {
		t.Errorf("still running: %v", pids)
	}
	noZombies(t)
}

// Sweep leaves a running Process, and what it run, alone.
func TestSweepSparesLiveProcesses(t *testing.T) {
	s, clock := ready(t, "fork-stay")
	if left := sweep(grace, clock.after); len(left) != 0 {
		t.Errorf("Sweep ended %v", left)
	}
	if n := len(running(s.marker)); n != 3 {
		t.Errorf("%d processes run, want 3", n)
	}
}

func TestStopAfterExit(t *testing.T) {
	clock := newClock()
	s := start(t, clock, "", "sh", "-c", "exit 3")
	<-s.p.Done()
	var exit *exec.ExitError
	if err := s.p.Stop(syscall.SIGTERM); !errorsAs(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("Stop after exit = %v, want exit status 3", err)
	}
	clock.none(t)
}

func TestStartRefusesSysProcAttr(t *testing.T) {
	cmd := exec.Command("true")
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	if _, err := Start(cmd, Options{}); err == nil || !strings.Contains(err.Error(), "SysProcAttr") {
		t.Errorf("Start = %v", err)
	}
}

// The mark is added to the environment, after what is already there.
func TestOwnersMark(t *testing.T) {
	t.Setenv(OwnersVar, "1.1")
	var out bytes.Buffer
	cmd := exec.Command("sh", "-c", `printf %s "$`+OwnersVar+`"`)
	cmd.Stdout = &out
	p, err := Start(cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	if want := "1.1 " + p.mark; out.String() != want {
		t.Errorf("%s = %q, want %q", OwnersVar, out.String(), want)
	}
}

// noZombies checks lembas-check has reaped every child that came back to it.
func noZombies(t *testing.T) {
	t.Helper()
	for pid, s := range snapshot() {
		if s.ppid == os.Getpid() && s.state == 'Z' {
			t.Errorf("zombie child %d (%s, group %d, session?) not reaped", pid, s.comm, s.pgrp)
		}
	}
}

func TestParseStat(t *testing.T) {
	line := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 100 200"
	s, ok := parseStat(4242, []byte(line))
	if !ok || s.ppid != 1 || s.pgrp != 4242 || s.state != 'S' || s.start != 987654 || s.comm != "a (b) c" {
		t.Errorf("parseStat = %+v, %v", s, ok)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1", "1 (x) SS 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19"} {
		if _, ok := parseStat(1, []byte(bad)); ok {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 100 200"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, ok := parseStat(7, b)
		if ok && s.pid != 7 {
			t.Errorf("pid %d", s.pid)
		}
	})
}

func errorsAs(err error, target **exec.ExitError) bool { return errors.As(err, target) }

// A process caught in the middle of an exec reads as an empty environ for a while: the mark is
// read again until the environment shows or the process's stat says it is really empty, so a
// shell's job or `setsid prog` is still its owner's. TestShellJobsEnded, then runner's
// TestAdapterLeavesNothing (past 20 empty reads, in CI under load) each failed once when an
// empty read was taken too soon for no mark.
func TestMarkReadAgainMidExec(t *testing.T) {
	env := []byte("A=1\x00" + OwnersVar + "=x m1 y\x00")
	reads, slept := 0, 0
	read := func() ([]byte, error) {
		reads++
		if reads <= 40 {
			return nil, nil
		}
		return env, nil
	}
	never := func() bool { return false }
	if !markIn(read, never, "m1", func(time.Duration) { slept++ }) || reads != 41 || slept != 40 {
		t.Errorf("mid-exec: %d reads, %d sleeps", reads, slept)
	}
	empty := func() ([]byte, error) { return nil, nil }
	if markIn(empty, func() bool { return true }, "m1", func(time.Duration) { t.Error("slept") }) {
		t.Error("an empty environment read as marked")
	}
	slept = 0
	if markIn(empty, never, "m1", func(time.Duration) { slept++ }) || slept != int(markWait/time.Millisecond) {
		t.Errorf("an environment that never shows: marked, or %d sleeps", slept)
	}
	if markIn(func() ([]byte, error) { return env, nil }, never, "m2", func(time.Duration) { t.Error("slept") }) {
		t.Error("another mark read as m1's")
	}
	if markIn(func() ([]byte, error) { return nil, os.ErrNotExist }, never, "m1", func(time.Duration) { t.Error("slept") }) {
		t.Error("a gone process read as marked")
	}
}

// The stat says whether an empty environ is real: env_end 0 is a process mid-exec; equal and set
// is an empty environment (env -i); a zombie has none to wait for.
func TestEnvSettled(t *testing.T) {
	line := func(state string, start, end int) []byte {
		f := make([]string, 49)
		for i := range f {
			f[i] = "0"
		}
		f[0], f[47], f[48] = state, strconv.Itoa(start), strconv.Itoa(end)
		return []byte("42 (a) b) " + strings.Join(f, " ") + "\n")
	}
	for _, c := range []struct {
		b    []byte
		want bool
	}{
		{line("R", 0, 0), false},
		{line("S", 100, 140), false},
		{line("S", 100, 100), true},
		{line("Z", 0, 0), true},
		{[]byte("42 (a) S 1 2 3"), true},
	} {
		s, ok := parseStat(42, c.b)
		if got := !ok || s.envSettled(); got != c.want {
			t.Errorf("%q: settled %v, want %v", c.b, got, c.want)
		}
	}
	// The real thing: a process started with an empty environment is settled once it runs.
	cmd := exec.Command("sleep", "60")
	cmd.Env = []string{}
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for !envSettled(cmd.Process.Pid) {
		time.Sleep(time.Millisecond) // until its exec is through: a poll, not a bound
	}
	if hasMark(cmd.Process.Pid, "m1") {
		t.Error("a process with no environment read as marked")
	}
	if len(os.Environ()) > 0 && envSettled(os.Getpid()) {
		t.Error("this process's environment, which has variables, read as settled empty")
	}
}

// HasExited looks without waiting: false while the process runs, true once it has exited, even
// before Exited is closed (a zombie the watcher has not seen yet is found by waitid WNOHANG).
func TestHasExited(t *testing.T) {
	p, err := Start(exec.Command("sleep", "60"), Options{Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if p.HasExited() || exitedNow(p) {
		t.Error("a running process has exited")
	}
	p.Stop(syscall.SIGKILL)
	<-p.Exited()
	if !p.HasExited() {
		t.Error("an exited process has not")
	}
}
