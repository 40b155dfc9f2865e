package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
)

// The test binary doubles as the faulty adapters the tests need: started with
// LEMBAS_FAKE_ADAPTER=1, TestMain runs fakeAdapter(mode) instead of the tests. A mode names the
// fault; with LEMBAS_FAKE_ONCE=<file> the fault happens on the first run request of the whole test
// only (the file records it), and later requests (on restarted processes) are answered well.
// LEMBAS_FAKE_LOG=<file> gets a line per start, child and request, so tests can count what was
// sent where and check every pid is gone.

func fakeMain() bool {
	if os.Getenv("LEMBAS_FAKE_ADAPTER") != "1" || len(os.Args) < 2 {
		return false
	}
	fakeAdapter(os.Args[1])
	return true
}

func fakeLog(format string, args ...any) {
	path := os.Getenv("LEMBAS_FAKE_LOG")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%d "+format+"\n", append([]any{os.Getpid()}, args...)...)
}

// faultNow says whether this request gets the fault: always, or once per test with LEMBAS_FAKE_ONCE.
func faultNow() bool {
	once := os.Getenv("LEMBAS_FAKE_ONCE")
	if once == "" {
		return true
	}
	f, err := os.OpenFile(once, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// forever blocks for good, saying first what will never come — an answer, an exit — for the
// tests' timer (fake.timer) to be up then.
func forever(what ...string) {
	fakeLog("stuck %s", strings.Join(what, " "))
	time.Sleep(time.Hour)
}

func fakeAdapter(mode string) {
	switch mode {
	case "sleeper":
		forever()
		return
	case "stubborn-sleeper":
		signal.Ignore(syscall.SIGTERM)
		forever()
		return
	}
	fakeLog("start %s protocol=%s", strings.Join(os.Args[2:], "|"), os.Getenv("LEMBAS_CHECK_PROTOCOL"))
	if mode == "hello-banner-exit" {
		// Prints and exits before reading a line: the runner's hello may meet a closed pipe.
		fmt.Println("adapter v2 starting")
		os.Exit(3)
	}
	switch os.Getenv("LEMBAS_FAKE_CHILD") {
	case "1":
		// A child in the adapter's process group, holding its stderr: it must die with it.
		child := exec.Command(os.Args[0], "sleeper")
		child.Stderr = os.Stderr
		if err := child.Start(); err == nil {
			fakeLog("child %d", child.Process.Pid)
		}
	case "detach":
		// One in its group, and one that detaches (setsid) and ignores TERM, both holding stderr.
		for _, argv := range [][]string{{os.Args[0], "sleeper"}, {"setsid", os.Args[0], "stubborn-sleeper"}} {
			child := exec.Command(argv[0], argv[1:]...)
			child.Stderr = os.Stderr
			if err := child.Start(); err == nil {
				fakeLog("child %d", child.Process.Pid)
			}
		}
	}
	if mode == "good" {
		// Exactly what `lembas-check adapter` runs.
		Serve(context.Background(), os.Stdin, os.Stdout, Builtin{})
		return
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
	}
	info, _ := Builtin{}.Start(context.Background())
	for n := 1; sc.Scan(); n++ {
		var req request
		json.Unmarshal(sc.Bytes(), &req)
		switch req.Cmd {
		case "hello":
			fakeHello(mode, say)
			continue
		case "bye":
			fakeLog("bye")
			switch mode {
			case "bye-ignore":
				continue
			case "bye-fail":
				fmt.Fprintln(os.Stderr, "could not flush the cache")
				os.Exit(4)
			}
			os.Exit(0)
		}
		fakeLog("run %d %s", *req.Seq, conformance.CaseID(req.Area, req.Case))
		if !fakeRun(mode, *req.Seq, say) {
			b, _ := handle(context.Background(), Builtin{}, info, sc.Bytes(), n)
			say(string(b))
		}
	}
	if mode == "bye-ignore" {
		forever("exit")
	}
}

// areaNames are every area lembas-check has, in name order.
func areaNames() []string {
	var out []string
	for _, a := range conformance.All() {
		out = append(out, a.Name)
	}
	return out
}

func fakeHello(mode string, say func(string)) {
	switch mode {
	case "hello-exit":
		fmt.Fprintln(os.Stderr, "adapter: cannot read config.toml")
		os.Exit(1)
	case "hello-late":
		forever("answer", "exit")
	case "hello-garbage":
		say("Starting the adapter, version 1.2…")
	case "hello-proto2":
		say(`{"protocol": 2, "error": "this adapter speaks protocol 2"}`)
	case "hello-proto0":
		say(`{"protocol": 0, "implementation": {"name": "old"}, "areas": ["jobs"]}`)
	case "hello-noareas":
		say(`{"protocol": 1, "implementation": {"name": "fake"}}`)
	case "hello-typo":
		say(`{"protocol": 1, "implementation": {"name": "fake", "harness_spec": "3.0.0"}, "areas": ["jbos", "jobs"]}`)
	default:
		say(`{"protocol": 1, "implementation": {"name": "fake", "version": "0", "language": "go", "harness_spec": "3.1.0"}, "areas": ["` + strings.Join(areaNames(), `", "`) + `"]}`)
	}
}

// fakeRun answers a run request as the mode says; false means "answer it well".
func fakeRun(mode string, seq int64, say func(string)) bool {
	switch mode {
	case "together":
		// Its first case is answered once every process of the pool has one (LEMBAS_FAKE_TOGETHER
		// of them have logged a run): each is then seen to get a case, whatever the machine's
		// speed (a sleep of 30 ms per case let a starved process go without on a loaded machine).
		if seq == 1 {
			for ranBy() < atoi(os.Getenv("LEMBAS_FAKE_TOGETHER")) {
				time.Sleep(5 * time.Millisecond) // a poll of the log, not a bound
			}
		}
		return false
	case "skip":
		say(fmt.Sprintf(`{"seq": %d, "skip": "not in this build"}`, seq))
		return true
	case "error":
		say(fmt.Sprintf(`{"seq": %d, "error": "TypeError: x is undefined"}`, seq))
		return true
	case "bad-shape":
		say(fmt.Sprintf(`{"seq": %d, "answer": {"txt": "x"}}`, seq))
		return true
	case "big-ok":
		say(fmt.Sprintf(`{"seq": %d, "answer": {"text": "%s"}}`, seq, strings.Repeat("y", MaxAnswerLine-100)))
		return true
	}
	if !faultNow() {
		return false
	}
	switch mode {
	case "hang":
		forever("answer", "exit")
	case "crash":
		fmt.Fprintln(os.Stderr, "Traceback: boom, cannot handle this case")
		os.Exit(3)
	case "close":
		os.Stdout.Close()
		forever("exit")
	case "partial":
		os.Stdout.WriteString(fmt.Sprintf(`{"seq": %d, "ans`, seq))
		os.Exit(1)
	case "garbage":
		say("panic: oh no")
	case "long-garbage":
		say(strings.Repeat("é", 1000))
	case "wrong-seq":
		say(fmt.Sprintf(`{"seq": %d, "answer": {"text": ""}}`, seq+1))
	case "two-answers":
		say(fmt.Sprintf(`{"seq": %d, "answer": {"text": ""}, "error": "and also this"}`, seq))
	case "huge":
		say(fmt.Sprintf(`{"seq": %d, "answer": {"text": "%s"}}`, seq, strings.Repeat("x", MaxAnswerLine)))
	default:
		return false
	}
	return true
}

// ranBy counts the processes that have logged a run request.
func ranBy() int {
	b, _ := os.ReadFile(os.Getenv("LEMBAS_FAKE_LOG"))
	pids := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[1] == "run" {
			pids[f[0]] = true
		}
	}
	return len(pids)
}
