package runner

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/syncbuf"
)

func TestVerdictCounts(t *testing.T) {
	if got := VerdictCounts(Counts{Pass: 50, Fail: 3, Skip: 4}); got != "50 pass, 3 fail, 4 skip" {
		t.Errorf("%q", got)
	}
}

// In a log: nothing for a run shorter than 2 s, then a line every 5 s, and the last state at
// the end, in the line every command draws.
func TestProgressLog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b syncbuf.Buffer
		p := &Progress{W: &b, Label: "run", Total: 10}
		p.Start()
		p.Add(Result{Verdict: Pass})
		time.Sleep(1900 * time.Millisecond)
		synctest.Wait()
		if b.Len() != 0 {
			t.Fatalf("progress before 2s: %q", b.String())
		}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		p.Add(Result{Verdict: Timeout})
		time.Sleep(5 * time.Second)
		synctest.Wait()
		p.Stop()
		want := "lembas-check run: [##..................] 1/10 cases  10 % · 2s · 0.5 cases/s · ETA 18s · 1 pass\n" +
			"lembas-check run: [####................] 2/10 cases  20 % · 7s · 0.3 cases/s · ETA 28s · 1 pass, 1 timeout\n" +
			"lembas-check run: [####................] 2/10 cases  20 % · 7s · 0.3 cases/s · 1 pass, 1 timeout\n"
		if b.String() != want {
			t.Errorf("got\n%s\nwant\n%s", b.String(), want)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		var b syncbuf.Buffer
		p := &Progress{W: &b, Total: 1}
		p.Start()
		time.Sleep(time.Second)
		p.Stop()
		if b.Len() != 0 {
			t.Errorf("a short run printed %q", b.String())
		}
	})
}

// On a terminal: one line rewritten with \r, kept with its last state at the end.
func TestProgressTerminal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b syncbuf.Buffer
		p := &Progress{W: &b, Label: "run", Total: 3, Terminal: true}
		p.Start()
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		p.Stop()
		s := b.String()
		if n := strings.Count(s, "\r"); n != 4 || strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") || !strings.HasPrefix(s, "\r\x1b[Klembas-check run: [....................] 0/3 cases   0 % · 2s\r") {
			t.Errorf("%d redraws: %q", n, s)
		}
	})
}

// A run whose target is slow to start (an adapter's hello taking 3 s) says how far it is on
// stderr before the first case (a log: whole lines): the wait for hello is part of the run. On the
// bubble's clock (testing/synctest), so what the line says does not depend on the machine's speed.
func TestRunImplProgress(t *testing.T) {
	cases, err := conformance.EmbeddedCases("jobs")
	if err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		var errs bytes.Buffer
		rep, err := RunShown(t.Context(), slowStart{3 * time.Second}, CaseItems(cases), Options{}, "run", &errs)
		if err != nil || rep.Counts()[Pass] != len(cases) {
			t.Fatalf("RunShown: %v, %v", rep, err)
		}
		if want := fmt.Sprintf("lembas-check run: [....................] 0/%d cases   0 %% · 2s\n", len(cases)); !strings.Contains(errs.String(), want) {
			t.Errorf("stderr %q, want the line %q", errs.String(), want)
		}
	})
}

// slowStart is the builtin taking d to start, as an adapter slow to answer hello.
type slowStart struct{ d time.Duration }

func (s slowStart) Start(ctx context.Context) (TargetInfo, error) {
	time.Sleep(s.d)
	return Builtin{}.Start(ctx)
}

func (slowStart) Answer(ctx context.Context, c conformance.Case) Outcome {
	return Builtin{}.Answer(ctx, c)
}

func (slowStart) Close() error { return nil }
