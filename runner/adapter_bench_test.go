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

// longLived runs every case through one adapter process.
func longLived(tb testing.TB, command string, cases []conformance.Case) {
	a, err := NewAdapter(command, AdapterOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	rep, err := runCases(context.Background(), a, cases, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	checkAnswered(tb, rep.Results)
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
	cases := allCases(b)
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

// The long-lived adapter is at least 20 times faster than a process per case, on the whole
// suite, through the real `lembas-check adapter`.
func TestLongLivedAdapterIsFaster(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lembas-check and starts one process per case")
	}
	if raceEnabled {
		t.Skip("a timing test: the race detector slows processes down unevenly")
	}
	command := shellQuote(lembasCheck(t)) + " adapter"
	cases := allCases(t)
	// A timing on a shared machine: up to three attempts, each the best of three long-lived runs
	// (the short measurement, which a busy machine disturbs the most) against one run of a
	// process per case. A real regression (a process per case again) fails all three by far.
	for attempt := 1; attempt <= 3; attempt++ {
		long := time.Duration(1<<63 - 1)
		for range 3 {
			began := time.Now()
			longLived(t, command, cases)
			long = min(long, time.Since(began))
		}
		began := time.Now()
		perCase(t, command, cases)
		each := time.Since(began)
		ratio := float64(each) / float64(long)
		t.Logf("attempt %d, %d cases: long-lived %s, a process per case %s: %.0f× faster", attempt, len(cases), long, each, ratio)
		if ratio >= 20 {
			return
		}
	}
	t.Error("the long-lived adapter was under 20× faster than a process per case in each attempt")
}
