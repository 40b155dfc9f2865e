package runner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

func TestMain(m *testing.M) {
	if fakeMain() {
		os.Exit(0)
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir) // the benchmark's lembas-check build
	}
	os.Exit(code)
}

// shellQuote quotes one word for cmdline.Split.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fake is the command line of a fake adapter in mode, with its log file.
type fake struct {
	t       *testing.T
	command string
	log     string
	before  int
}

// newFake sets the environment a fake adapter reads and notes the goroutines running now, so that
// done can check none is left behind.
func newFake(t *testing.T, mode string, extra ...string) *fake {
	dir := t.TempDir()
	f := &fake{t: t, log: filepath.Join(dir, "log"), before: runtime.NumGoroutine()}
	t.Setenv("LEMBAS_FAKE_ADAPTER", "1")
	t.Setenv("LEMBAS_FAKE_LOG", f.log)
	t.Setenv("LEMBAS_FAKE_ONCE", "")
	t.Setenv("LEMBAS_FAKE_CHILD", "")
	noRaceExitSleep(t)
	f.command = shellQuote(os.Args[0]) + " " + mode
	for _, e := range extra {
		f.command += " " + shellQuote(e)
	}
	return f
}

// noRaceExitSleep stops a -race build of the test binary, playing an adapter, from sleeping a
// second as it exits (GORACE's atexit_sleep_ms), which would read as an adapter slow to exit
// after bye.
func noRaceExitSleep(t *testing.T) {
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
}

// once makes the fault happen on the first run request only.
func (f *fake) once() *fake {
	f.t.Setenv("LEMBAS_FAKE_ONCE", filepath.Join(f.t.TempDir(), "once"))
	return f
}

// adapter is the fake as an adapter target. Its timeouts and grace periods are up when the fake
// says it is stuck (unless o has a timer of its own), not when the machine's clock says so.
func (f *fake) adapter(o AdapterOptions) *Adapter {
	f.t.Helper()
	if o.timer == nil {
		o.timer = f.timer
	}
	a, err := NewAdapter(f.command, o)
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// timer runs fire once the fake adapter pid has logged that it is stuck (it does as it blocks for
// good): its answer or its exit is then never coming, whatever the machine's speed. With the real
// clock, a loaded machine took over the tests' 300 ms to start an adapter, which read as a hello
// timeout (TestAdapterHelloFaults, TestAdapterTimeout: 1 run in 4 under -race and load).
func (f *fake) timer(pid int, what string, _ time.Duration, fire func()) func() bool {
	stop := make(chan struct{})
	var once sync.Once
	go func() {
		for !f.stuck(pid, what) {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond): // a poll of the log, not a bound
			}
		}
		fire()
	}()
	return func() bool { once.Do(func() { close(stop) }); return true }
}

// never is a timer that is never up: for tests whose fake hangs and something else must end it.
func never(int, string, time.Duration, func()) func() bool { return func() bool { return true } }

// stuck says whether process pid logged that what (an answer, an exit) will never come.
func (f *fake) stuck(pid int, what string) bool {
	for _, l := range f.lines() {
		if len(l) >= 2 && l[1] == "stuck" && l[0] == strconv.Itoa(pid) && slices.Contains(l[2:], what) {
			return true
		}
	}
	return false
}

// lines are the log's lines, each split in words: pid, what, details.
func (f *fake) lines() [][]string {
	b, _ := os.ReadFile(f.log)
	var out [][]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		out = append(out, strings.Fields(sc.Text()))
	}
	return out
}

// pids are every adapter process and child the log names.
func (f *fake) pids() []int {
	var out []int
	for _, l := range f.lines() {
		if len(l) >= 2 && l[1] == "start" {
			pid, _ := strconv.Atoi(l[0])
			out = append(out, pid)
		}
		if len(l) >= 3 && l[1] == "child" {
			pid, _ := strconv.Atoi(l[2])
			out = append(out, pid)
		}
	}
	return out
}

// done checks that no process the fake started lives on (the adapter's end waits for every
// process to be reaped, and what it left to be ended) and no goroutine is left behind.
func (f *fake) done() {
	f.t.Helper()
	pids := f.pids()
	if len(pids) == 0 {
		f.t.Fatal("the fake adapter never started (no log)")
	}
	for _, pid := range pids {
		if alive(pid) {
			f.t.Errorf("process %d is still running after the run ended", pid)
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
		}
	}
	// A goroutine that is ending may take a moment: wait, until the test's own deadline.
	deadline, ok := f.t.Deadline()
	if !ok {
		deadline = time.Now().Add(time.Hour)
	}
	for runtime.NumGoroutine() > f.before {
		if time.Now().After(deadline.Add(-5 * time.Second)) {
			var b bytes.Buffer
			pprof.Lookup("goroutine").WriteTo(&b, 1)
			f.t.Errorf("%d goroutines before the run, %d after:\n%s", f.before, runtime.NumGoroutine(), b.String())
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive says whether a process runs (a zombie waiting for init to reap it does not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

func run(t *testing.T, a *Adapter, cases []conformance.Case, workers int) *Report {
	t.Helper()
	rep, err := runCases(context.Background(), a, cases, Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func builtinResults(t *testing.T, cases []conformance.Case) map[string]Result {
	t.Helper()
	rep, err := runCases(context.Background(), Builtin{}, cases, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]Result{}
	for _, r := range rep.Results {
		m[r.Case.ID] = r
	}
	return m
}

// The whole suite through a well-behaved adapter (Serve with the builtin) gives the builtin's
// verdict, answer and message, case by case, over 2 processes.
func TestAdapterAnswersAsBuiltin(t *testing.T) {
	f := newFake(t, "good")
	cases := conformancetest.All(t)
	a := f.adapter(AdapterOptions{Jobs: 2})
	rep := run(t, a, cases, 2)
	want := builtinResults(t, cases)
	if rep.Target.Kind != "adapter" || rep.Target.Implementation.Name != "lembas-check reference" || len(rep.Target.Areas) != len(areaNames()) {
		t.Errorf("target: %+v", rep.Target)
	}
	for _, r := range rep.Results {
		w := want[r.Case.ID]
		if r.Verdict != w.Verdict || r.Message != w.Message || conformance.Diff(w.Answer, r.Answer) != "" && w.Answer != nil {
			t.Errorf("%s: adapter %s %q %s, builtin %s %q %s", r.Case.ID, r.Verdict, r.Message, r.Answer, w.Verdict, w.Message, w.Answer)
		}
	}
	if err := a.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	f.done()
	for _, l := range f.lines() {
		if l[1] == "start" && l[len(l)-1] != "protocol=1" {
			t.Errorf("LEMBAS_CHECK_PROTOCOL is not 1 in the adapter's environment: %v", l)
		}
	}
}

// --jobs 3: three processes, each case sent to exactly one of them, all three used.
func TestAdapterJobsEachCaseOnce(t *testing.T) {
	f := newFake(t, "together")
	t.Setenv("LEMBAS_FAKE_TOGETHER", "3")
	cases := conformancetest.Cases(t, conformance.Jobs)
	a := f.adapter(AdapterOptions{Jobs: 3})
	rep := run(t, a, cases, 3)
	a.Close()
	f.done()
	for _, r := range rep.Results {
		if r.Verdict != Pass {
			t.Errorf("%s: %s %s", r.Case.ID, r.Verdict, r.Message)
		}
	}
	sent := map[string]int{}
	pids := map[string]bool{}
	for _, l := range f.lines() {
		if l[1] == "run" {
			sent[l[3]]++
			pids[l[0]] = true
		}
	}
	for _, c := range cases {
		if sent[c.ID] != 1 {
			t.Errorf("%s was sent %d times", c.ID, sent[c.ID])
		}
	}
	if len(pids) != 3 || len(f.pids()) != 3 {
		t.Errorf("%d processes answered, %d started; want 3 and 3", len(pids), len(f.pids()))
	}
}

// The argv is split like shell words, and no shell runs it.
func TestAdapterArgv(t *testing.T) {
	f := newFake(t, "good", "two words", `it's`, "$HOME", "a;b")
	a := f.adapter(AdapterOptions{})
	run(t, a, conformancetest.Cases(t, conformance.Jobs)[:1], 1)
	a.Close()
	f.done()
	b, _ := os.ReadFile(f.log)
	if !strings.Contains(string(b), "start two words|it's|$HOME|a;b protocol=1") {
		t.Errorf("the adapter got other arguments: %s", b)
	}
	for _, bad := range []string{"", "   ", `python3 'adapter.py`} {
		if _, err := NewAdapter(bad, AdapterOptions{}); err == nil {
			t.Errorf("NewAdapter(%q) makes an adapter", bad)
		}
	}
}

// Fault table, row 1: no answer within the timeout → timeout; the process (and its child) is ended
// and restarted; the run goes on. An adapter that hangs on every case ends in bounded time.
func TestAdapterTimeout(t *testing.T) {
	f := newFake(t, "hang")
	t.Setenv("LEMBAS_FAKE_CHILD", "1")
	cases := conformancetest.Cases(t, conformance.Jobs)[:6]
	a := f.adapter(AdapterOptions{Jobs: 2, Timeout: 300 * time.Millisecond})
	rep := run(t, a, cases, 2)
	a.Close()
	for _, r := range rep.Results {
		if r.Verdict != Timeout || !strings.Contains(r.Message, "no answer within 300ms") {
			t.Errorf("%s: %s %q", r.Case.ID, r.Verdict, r.Message)
		}
	}
	if n := len(f.pids()); n != 12 {
		t.Errorf("%d processes and children, want 6 adapters (one per case) and their 6 children", n)
	}
	f.done()
}

// An adapter whose processes start a child in their group and one that detaches (setsid) and
// ignores TERM leaves nothing running, however its processes end: answering and saying bye
// (Close names what it left), timing out, crashing.
func TestAdapterLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) (util-linux) is not on PATH")
	}
	for _, mode := range []string{"good", "hang", "crash"} {
		t.Run(mode, func(t *testing.T) {
			f := newFake(t, mode)
			t.Setenv("LEMBAS_FAKE_CHILD", "detach")
			a := f.adapter(AdapterOptions{Timeout: 300 * time.Millisecond, Grace: 100 * time.Millisecond})
			run(t, a, conformancetest.Cases(t, conformance.Jobs)[:2], 1)
			err := a.Close()
			if mode == "good" && (err == nil || !strings.Contains(err.Error(), "left processes running: ended 2 processes it left behind")) {
				t.Errorf("Close: %v, want it to name the two processes left behind", err)
			}
			if n := len(f.pids()); n < 3 {
				t.Fatalf("%d processes and children logged: the fake did not start its children", n)
			}
			f.done()
		})
	}
}

// A timeout with the rest answered: the process is restarted and the next case passes on it.
func TestAdapterTimeoutThenRestart(t *testing.T) {
	f := newFake(t, "hang").once()
	cases := conformancetest.Cases(t, conformance.Jobs)[:3]
	a := f.adapter(AdapterOptions{Timeout: 300 * time.Millisecond})
	rep := run(t, a, cases, 1)
	a.Close()
	f.done()
	got := []Verdict{rep.Results[0].Verdict, rep.Results[1].Verdict, rep.Results[2].Verdict}
	if got[0] != Timeout || got[1] != Pass || got[2] != Pass {
		t.Errorf("verdicts %v, want timeout, pass, pass", got)
	}
	if n := len(f.pids()); n != 2 {
		t.Errorf("%d processes started, want 2 (the first, and one restart)", n)
	}
}

// Fault table, row 2: the process exits → crashed, with its exit status and stderr tail; restarted.
func TestAdapterCrash(t *testing.T) {
	for _, c := range []struct {
		mode string
		want []string
	}{
		{"crash", []string{"exited (exit status 3)"}},
		{"close", []string{"closed its stdout but was still running"}},
		{"partial", []string{"exited (exit status 1)", `in the middle of a line: "{\"seq\": 1, \"ans"`}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			f := newFake(t, c.mode).once()
			cases := conformancetest.Cases(t, conformance.Jobs)[:2]
			a := f.adapter(AdapterOptions{Grace: 200 * time.Millisecond})
			rep := run(t, a, cases, 1)
			a.Close()
			f.done()
			r := rep.Results[0]
			if r.Verdict != Crashed {
				t.Fatalf("verdict %s %q, want crashed", r.Verdict, r.Message)
			}
			for _, w := range c.want {
				if !strings.Contains(r.Message, w) {
					t.Errorf("message %q does not say %q", r.Message, w)
				}
			}
			if c.mode == "crash" && !strings.Contains(r.Stderr, "Traceback: boom") {
				t.Errorf("stderr tail %q", r.Stderr)
			}
			if rep.Results[1].Verdict != Pass {
				t.Errorf("after the crash: %s %q, want pass on a restarted adapter", rep.Results[1].Verdict, rep.Results[1].Message)
			}
			var b bytes.Buffer
			b.WriteString(r.Failure())
			if c.mode == "crash" && !strings.Contains(b.String(), "stderr (tail):\n        Traceback: boom") {
				t.Errorf("the report does not show the stderr tail with the failure:\n%s", b.String())
			}
		})
	}
}

// Fault table, row 2, last part: after 3 crashes in a row the area's remaining cases are crashed
// unsent; another area is still tried.
func TestAdapterCrashesInARow(t *testing.T) {
	f := newFake(t, "crash")
	all := conformancetest.All(t)
	var cases []conformance.Case
	for _, area := range []string{"jobs", "prefix"} {
		n := 0
		for _, c := range all {
			if c.Area == area && n < 5 {
				cases = append(cases, c)
				n++
			}
		}
	}
	a := f.adapter(AdapterOptions{})
	rep := run(t, a, cases, 1)
	a.Close()
	f.done()
	sent := map[string]bool{}
	for _, l := range f.lines() {
		if l[1] == "run" {
			sent[l[3]] = true
		}
	}
	for i, r := range rep.Results {
		want := i%5 < 3
		if r.Verdict != Crashed || sent[r.Case.ID] != want {
			t.Errorf("case %d (%s): %s, sent %v; want crashed, sent %v", i, r.Case.ID, r.Verdict, sent[r.Case.ID], want)
		}
		if !want && !strings.Contains(r.Message, "not sent: the adapter crashed on 3 cases of "+r.Case.Area+" in a row") {
			t.Errorf("case %d: %q", i, r.Message)
		}
	}
}

// Fault table, row 3: a line that is not JSON, of the wrong shape, or with a wrong seq → protocol
// error quoting the line (cut at 200 characters); restarted.
func TestAdapterProtocolErrors(t *testing.T) {
	for _, c := range []struct{ mode, want string }{
		{"garbage", `not a JSON object: "panic: oh no"`},
		{"long-garbage", `not a JSON object: "` + strings.Repeat("é", 200) + `"… (2000 bytes)`},
		{"wrong-seq", "the answer has seq 2, the request had seq 1"},
		{"two-answers", "2 of answer, skip, error (want exactly one)"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			f := newFake(t, c.mode).once()
			a := f.adapter(AdapterOptions{})
			rep := run(t, a, conformancetest.Cases(t, conformance.Jobs)[:2], 1)
			a.Close()
			f.done()
			r := rep.Results[0]
			if r.Verdict != ProtocolError || !strings.Contains(r.Message, c.want) {
				t.Errorf("%s %q, want a protocol error saying %q", r.Verdict, r.Message, c.want)
			}
			if rep.Results[1].Verdict != Pass || len(f.pids()) != 2 {
				t.Errorf("after the fault: %s, %d processes; want pass on a restarted adapter", rep.Results[1].Verdict, len(f.pids()))
			}
		})
	}
}

// Fault table, row 5: an answer line over 16 MiB is a protocol error; one just under is read.
func TestAdapterLongLine(t *testing.T) {
	f := newFake(t, "huge").once()
	a := f.adapter(AdapterOptions{})
	rep := run(t, a, conformancetest.Cases(t, conformance.Jobs)[:2], 1)
	a.Close()
	f.done()
	if r := rep.Results[0]; r.Verdict != ProtocolError || !strings.Contains(r.Message, "an answer line over 16 MiB") || len(r.Message) > 1200 {
		t.Errorf("%s %.300q", r.Verdict, r.Message)
	}
	if rep.Results[1].Verdict != Pass {
		t.Errorf("after the long line: %s", rep.Results[1].Verdict)
	}
	// Asked directly: Run would diff 16 MiB against the expectation, which is not the point here.
	g := newFake(t, "big-ok")
	a = g.adapter(AdapterOptions{})
	if _, err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := a.Answer(context.Background(), conformancetest.Cases(t, conformance.Jobs)[0])
	a.Close()
	g.done()
	if out.Verdict != "" || len(out.Answer) < MaxAnswerLine-200 {
		t.Errorf("an answer just under 16 MiB: %s %.100q, %d bytes", out.Verdict, out.Message, len(out.Answer))
	}
}

// Fault table, row 4: a hello that is missing, late or wrong stops the run with a message that
// says which side to update.
func TestAdapterHelloFaults(t *testing.T) {
	for _, c := range []struct{ mode, want, stderr string }{
		{"hello-exit", "exited (exit status 1) before answering hello", "cannot read config.toml"},
		{"hello-late", "did not answer hello within 300ms. Update the adapter", ""},
		{"hello-garbage", `not a JSON object: "Starting the adapter, version 1.2…". Update the adapter: everything it prints on stdout must be protocol lines`, ""},
		{"hello-proto2", `speaks protocol 2, this lembas-check speaks 1. Update lembas-check`, ""},
		{"hello-proto0", "speaks protocol 0, this lembas-check speaks 1. Update the adapter to protocol 1", ""},
		{"hello-noareas", `answered hello without "areas"`, ""},
		{"hello-banner-exit", `not a JSON object: "adapter v2 starting". Update the adapter`, ""},
	} {
		t.Run(c.mode, func(t *testing.T) {
			f := newFake(t, c.mode)
			a := f.adapter(AdapterOptions{Jobs: 2, Timeout: 300 * time.Millisecond, Grace: 200 * time.Millisecond})
			_, err := runCases(context.Background(), a, conformancetest.Cases(t, conformance.Jobs), Options{Workers: 2})
			var he *HelloError
			if !errors.As(err, &he) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want a HelloError saying %q", err, c.want)
			}
			if c.stderr != "" && !strings.Contains(err.Error(), c.stderr) {
				t.Errorf("the error does not show the adapter's stderr: %v", err)
			}
			a.Close()
			f.done()
		})
	}
	if _, err := (&Adapter{argv: []string{"/nonexistent/adapter"}, command: "/nonexistent/adapter", opts: AdapterOptions{Jobs: 1, Timeout: time.Second, Grace: time.Second}}).Start(context.Background()); err == nil || !strings.Contains(err.Error(), "cannot be started") {
		t.Errorf("a program that does not exist: %v", err)
	}
}

// A restart whose hello fails counts as a crash of the case it was for.
func TestAdapterRestartWithoutHello(t *testing.T) {
	f := newFake(t, "crash")
	a := f.adapter(AdapterOptions{Grace: 200 * time.Millisecond})
	if _, err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// From now on every new process dies before hello.
	a.argv = append(a.argv[:len(a.argv)-1], "hello-exit")
	cases := conformancetest.Cases(t, conformance.Jobs)[:2]
	first := a.Answer(context.Background(), cases[0])
	second := a.Answer(context.Background(), cases[1])
	a.Close()
	f.done()
	if first.Verdict != Crashed || second.Verdict != Crashed || !strings.Contains(second.Message, "restarted after a fault, the adapter exited (exit status 1) before answering hello") || !strings.Contains(second.Stderr, "config.toml") {
		t.Errorf("first %s %q; second %s %q %q", first.Verdict, first.Message, second.Verdict, second.Message, second.Stderr)
	}
}

// skip and error answers become the skip and error verdicts, with the adapter's words.
func TestAdapterSkipAndError(t *testing.T) {
	for mode, want := range map[string]Outcome{"skip": {Verdict: Skip, Message: "not in this build"}, "error": {Verdict: Error, Message: "TypeError: x is undefined"}} {
		f := newFake(t, mode)
		a := f.adapter(AdapterOptions{})
		rep := run(t, a, conformancetest.Cases(t, conformance.Jobs)[:1], 1)
		a.Close()
		f.done()
		if r := rep.Results[0]; r.Verdict != want.Verdict || r.Message != want.Message {
			t.Errorf("%s: %s %q", mode, r.Verdict, r.Message)
		}
	}
}

// bye: a process that ignores it is killed after the grace, and Close says so; one that exits
// non-zero is reported with its stderr.
func TestAdapterBye(t *testing.T) {
	f := newFake(t, "bye-ignore")
	a := f.adapter(AdapterOptions{Grace: 200 * time.Millisecond})
	run(t, a, conformancetest.Cases(t, conformance.Jobs)[:1], 1)
	err := a.Close()
	if err == nil || !strings.Contains(err.Error(), "did not exit within 200ms of bye") {
		t.Errorf("Close: %v", err)
	}
	f.done()
	g := newFake(t, "bye-fail")
	a = g.adapter(AdapterOptions{})
	run(t, a, conformancetest.Cases(t, conformance.Jobs)[:1], 1)
	err = a.Close()
	if err == nil || !strings.Contains(err.Error(), "exit status 4 after bye") || !strings.Contains(err.Error(), "could not flush") {
		t.Fatalf("Close: %v", err)
	}
	if err2 := a.Close(); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("a second Close: %v", err2)
	}
	g.done()
}

// Interrupting a run (Ctrl-C) ends a hanging adapter at once; the case in flight and the rest are
// interrupted (a verdict of their own, not a skip: issue 10 saw them counted as skipped and the
// run pass).
func TestAdapterInterrupted(t *testing.T) {
	f := newFake(t, "hang")
	t.Setenv("LEMBAS_FAKE_CHILD", "1")
	// No timeout is ever up: only the interrupt can end the case the adapter holds.
	a := f.adapter(AdapterOptions{timer: never})
	// Interrupt once the adapter holds a case and is stuck on it (a fixed deadline could fall
	// before its hello on a loaded machine, which is another test).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			for _, l := range f.lines() {
				if len(l) >= 2 && l[1] == "start" && f.stuck(atoi(l[0]), "answer") {
					cancel()
					return
				}
			}
			time.Sleep(10 * time.Millisecond) // a poll of the log, not a bound
		}
	}()
	rep, err := runCases(ctx, a, conformancetest.Cases(t, conformance.Jobs), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Verdict != Interrupted || !strings.Contains(r.Message, "run interrupted") {
			t.Errorf("%s: %s %q", r.Case.ID, r.Verdict, r.Message)
		}
	}
	f.done()
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }
