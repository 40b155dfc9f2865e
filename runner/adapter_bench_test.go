package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

// The adapter path side by side: the public suite through `lembas-check adapter` as one long-lived
// process, against one adapter process started per case (how toml-test runs a decoder), with the
// builtin in-process as the floor.

var (
	buildOnce sync.Once
	binDir    string
	binErr    error
)

// lembasCheck builds cmd/lembas-check once per test binary, into a folder TestMain removes.
func lembasCheck(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "lembas-check-bench-"); binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "lembas-check"), "../cmd/lembas-check").CombinedOutput()
		if err != nil {
			binErr = &buildError{out: string(out), err: err}
		}
	})
	if binErr != nil {
		tb.Skipf("cannot build lembas-check for the benchmark: %v", binErr)
	}
	return filepath.Join(binDir, "lembas-check")
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// longLived runs every case through one adapter process, and returns the adapter (closed).
func longLived(tb testing.TB, command string, cases []conformance.Case) *Adapter {
	a, err := NewAdapter(command, AdapterOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	rep, err := runCases(context.Background(), a, cases, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	checkAnswered(tb, rep.Results)
	return a
}

// perCase starts, greets and ends one adapter process for each case.
func perCase(tb testing.TB, command string, cases []conformance.Case) {
	ctx := context.Background()
	results := make([]Result, 0, len(cases))
	for _, c := range cases {
		a, err := NewAdapter(command, AdapterOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := a.Start(ctx); err != nil {
			tb.Fatal(err)
		}
		out := a.Answer(ctx, c)
		if err := a.Close(); err != nil {
			tb.Fatal(err)
		}
		results = append(results, Result{Case: c, Verdict: out.Verdict, Message: out.Message})
	}
	checkAnswered(tb, results)
}

// checkAnswered fails on a case the adapter did not answer (a fault of the path, not of the
// reference): the figures must be of answered cases.
func checkAnswered(tb testing.TB, rs []Result) {
	for _, r := range rs {
		switch r.Verdict {
		case Timeout, Crashed, ProtocolError:
			tb.Fatalf("%s: %s %s", r.Case.ID, r.Verdict, r.Message)
		}
	}
}

func BenchmarkAdapterSuite(b *testing.B) {
	command := shellQuote(lembasCheck(b)) + " adapter"
	cases := conformancetest.All(b)
	perCaseMetric := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(cases)), "µs/case")
	}
	b.Run("long-lived", func(b *testing.B) {
		for b.Loop() {
			longLived(b, command, cases)
		}
		perCaseMetric(b)
	})
	b.Run("process-per-case", func(b *testing.B) {
		for b.Loop() {
			perCase(b, command, cases)
		}
		perCaseMetric(b)
	})
	// With nothing on PATH (no go: how an adapter runs on a machine without a Go toolchain, and
	// how lembas-check starts when an agent's PATH is bare), the adapter processes' start-up has
	// no tool to look for.
	b.Run("long-lived-empty-PATH", func(b *testing.B) {
		b.Setenv("PATH", "")
		for b.Loop() {
			longLived(b, command, cases)
		}
		perCaseMetric(b)
	})
	b.Run("process-per-case-empty-PATH", func(b *testing.B) {
		b.Setenv("PATH", "")
		for b.Loop() {
			perCase(b, command, cases)
		}
		perCaseMetric(b)
	})
	b.Run("builtin-in-process", func(b *testing.B) {
		for b.Loop() {
			if _, err := runCases(context.Background(), Builtin{}, cases, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		perCaseMetric(b)
	})
}

// The long-lived path is one process for the whole suite, greeted once: what makes it faster
// than a process per case. By how much in wall time is BenchmarkAdapterSuite's to measure
// (docs/performance.md); TestLongLivedAdapterIsFaster bounds it in CPU time, which a busy machine
// stretches far less.
func TestLongLivedAdapterIsOneProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lembas-check")
	}
	cases := conformancetest.All(t)
	a := longLived(t, shellQuote(lembasCheck(t))+" adapter", cases)
	if len(a.all) != 1 || a.all[0].p == nil || a.all[0].p.seq != int64(len(cases)) {
		t.Errorf("the %d cases were not all answered by one process", len(cases))
	}
}

// The long-lived adapter costs under a twentieth of a process per case, in CPU time (this
// process's and its children's, which a loaded machine stretches far less than wall time), with
// PATH empty (no Go toolchain: how an adapter runs where only lembas-check is installed). The
// process-per-case side runs every seventh case: it costs tens of times more per case.
func TestLongLivedAdapterIsFaster(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lembas-check and starts a process per case; docs/performance.md has the figures")
	}
	command := shellQuote(lembasCheck(t)) + " adapter"
	t.Setenv("PATH", "")
	cases := conformancetest.All(t)
	var some []conformance.Case
	for i := 0; i < len(cases); i += 7 {
		some = append(some, cases[i])
	}
	long := cpuPerCase(t, len(cases), func() { longLived(t, command, cases) })
	each := cpuPerCase(t, len(some), func() { perCase(t, command, some) })
	t.Logf("CPU per case: long-lived %v, a process per case %v: %.1f×", long, each, float64(each)/float64(long))
	if each < 20*long {
		t.Errorf("a process per case costs %v CPU a case, the long-lived adapter %v: %.1f×, under 20×", each, long,
			float64(each)/float64(long))
	}
}

// cpuPerCase is the CPU time (user and system, this process and the children it waited for)
// that run takes, over n cases.
func cpuPerCase(t *testing.T, n int, run func()) time.Duration {
	t.Helper()
	before := cpuTime(t)
	run()
	return (cpuTime(t) - before) / time.Duration(n)
}
