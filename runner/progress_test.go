package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/syncbuf"
)

// The progress line names every verdict it has seen: malformed, new, was left out of its list.
func TestVerdictCounts(t *testing.T) {
	if got := VerdictCounts(Counts{Pass: 50, Fail: 3, Skip: 4, Malformed: 1}); got != "50 pass, 3 fail, 4 skip, 1 malformed" {
		t.Errorf("%q", got)
	}
	all := Counts{}
	for _, v := range Verdicts {
		all[v] = 1
	}
	for _, v := range []Verdict{Pass, Fail, Skip, Error, Timeout, Crashed, ProtocolError, XFail, XPass, UnlistedSkip,
		Interrupted, Malformed} {
		if !strings.Contains(", "+VerdictCounts(all)+",", ", 1 "+string(v)+",") {
			t.Errorf("VerdictCounts leaves out %s", v)
		}
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

// slowTarget answers each case after the time its Input names, in seconds: "2" after 2 s.
type slowTarget struct{}

func (slowTarget) Start(context.Context) (TargetInfo, error) {
	return TargetInfo{Kind: "test", Areas: []string{"x"}}, nil
}

func (slowTarget) Answer(ctx context.Context, c conformance.Case) Outcome {
	var secs int
	fmt.Sscan(string(c.Input), &secs)
	time.Sleep(time.Duration(secs) * time.Second)
	return Outcome{Answer: []byte(`"got"`)}
}

func (slowTarget) Close() error { return nil }

// A failure is shown when its case ends, before the run does, in the order cases end, as go test
// streams them; -v's PASS lines too; the report keeps the items' order (issue 27: every block
// came after 100 %).
func TestRunShownStreamsVerdictsAsCasesEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mk := func(id, secs string, pass bool) Item {
			return Item{Case: conformance.Case{Label: conformance.Label{ID: id, Area: "x"}, Input: []byte(secs)}, Check: func(json.RawMessage) string {
				if pass {
					return ""
				}
				return "-want +got"
			}}
		}
		items := []Item{mk("x/slow", "10", false), mk("x/first", "3", false), mk("x/ok", "4", true), mk("x/second", "5", false)}
		var out, log syncbuf.Buffer
		var rep *Report
		done := make(chan struct{})
		go func() {
			defer close(done)
			rep, _ = RunShown(t.Context(), slowTarget{}, items, Options{Workers: 4, Stream: &out, Verbose: true}, "run", &log)
		}()
		time.Sleep(3500 * time.Millisecond)
		synctest.Wait()
		if s := out.String(); !strings.HasPrefix(s, "--- FAIL: x/first") || strings.Contains(s, "x/second") {
			t.Fatalf("at 3.5 s the stream is %q, want x/first's failure alone", s)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		s := out.String()
		first, pass, second := strings.Index(s, "--- FAIL: x/first"), strings.Index(s, "--- PASS: x/ok"), strings.Index(s, "--- FAIL: x/second")
		if first < 0 || pass < first || second < pass || strings.Contains(s, "x/slow") {
			t.Fatalf("at 5.5 s the stream is %q, want x/first, x/ok, x/second in that order", s)
		}
		<-done
		if !strings.Contains(out.String(), "--- FAIL: x/slow") || !rep.Streamed {
			t.Errorf("after the run the stream is %q (streamed %v)", out.String(), rep.Streamed)
		}
		for i, r := range rep.Results {
			if r.Case.ID != items[i].Case.ID {
				t.Errorf("result %d is %s, want %s: the report keeps the items' order", i, r.Case.ID, items[i].Case.ID)
			}
		}
	})
}
