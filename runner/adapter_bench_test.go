package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

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
// than a process per case. By how much is BenchmarkAdapterSuite's to measure (docs/performance.md);
// a ratio asserted here failed on a busy machine.
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
