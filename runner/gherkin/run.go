package gherkin

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/runner"
)

// Run runs JSON cases and scenarios against one target, started once, in one report: the cases
// first (runner.Run), then the scenarios. opts are the JSON run's (workers, expectations, the
// per-result callback) and apply to both.
func Run(ctx context.Context, t runner.Target, cases []conformance.Case, scs []Scenario, opts runner.Options) (*runner.Report, error) {
	start := time.Now()
	info, err := t.Start(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	rep, err := runner.Run(ctx, started{t, info}, cases, opts)
	if err != nil {
		return nil, err
	}
	rep.Results = append(rep.Results, RunScenarios(ctx, t, info, scs, opts)...)
	rep.Started, rep.Duration = start, time.Since(start)
	return rep, nil
}

// started is a target already started: runner.Run's Start and Close do nothing, so the cases and
// the scenarios share one adapter pool.
type started struct {
	runner.Target
	info runner.TargetInfo
}

func (s started) Start(context.Context) (runner.TargetInfo, error) { return s.info, nil }
func (s started) Close() error                                     { return nil }

// RunScenarios hands each scenario's case to a started target (info is what its Start said) and
// checks the answer with the scenario's Thens. A scenario of an area the target does not list is
// skipped unsent; one that could not be made into a case is an error; a target's own fault
// (timeout, crash, protocol error, its error) is that verdict, as for a JSON case.
func RunScenarios(ctx context.Context, t runner.Target, info runner.TargetInfo, scs []Scenario, opts runner.Options) []runner.Result {
	answers := map[string]bool{}
	for _, a := range info.Areas {
		answers[a] = true
	}
	out := make([]runner.Result, len(scs))
	workers := max(opts.Workers, 1)
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				r := runScenario(ctx, t, scs[i], answers, opts.Expect)
				out[i] = r
				if opts.OnResult != nil {
					mu.Lock()
					opts.OnResult(r)
					mu.Unlock()
				}
			}
		})
	}
	for i := range scs {
		if ctx.Err() != nil {
			out[i] = runner.Result{Case: scs[i].Case, Verdict: runner.Skip, Message: "run interrupted: " + ctx.Err().Error()}
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func runScenario(ctx context.Context, t runner.Target, sc Scenario, answers map[string]bool, expect *runner.Expectations) runner.Result {
	r := runner.Result{Case: sc.Case}
	switch {
	case sc.Err != nil:
		r.Verdict, r.Message = runner.Error, "the scenario cannot be run: "+sc.Err.Error()
	case !answers[sc.Case.Area]:
		r.Verdict, r.Message = runner.Skip, "area not implemented"
		return r
	default:
		began := time.Now()
		o := t.Answer(ctx, sc.Case)
		r.Duration = time.Since(began)
		r.Answer, r.Message, r.Stderr = o.Answer, o.Message, o.Stderr
		if o.Verdict != "" {
			r.Verdict = o.Verdict
			break
		}
		file, _, _ := strings.Cut(sc.Case.File, ":")
		r.Diff = verifyAll(file, sc.Checks, o.Answer)
		r.Verdict = runner.Pass
		if r.Diff != "" {
			r.Verdict = runner.Fail
		}
	}
	if reason, ok := expect.Reason(sc.Case.ID); ok {
		r.Expected = reason
		if r.Verdict == runner.Pass {
			r.Verdict = runner.XPass
		} else {
			r.Verdict = runner.XFail
		}
	}
	return r
}

// TestTarget runs every embedded scenario against a target inside `go test`, one subtest per
// scenario named by its id (`go test -run 'TestX/context/feature:'` runs one area's). A scenario
// of an area the target does not answer is skipped.
func TestTarget(t *testing.T, target runner.Target, expect *runner.Expectations) {
	t.Helper()
	scs, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	info, err := target.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.Close() })
	for _, sc := range scs {
		t.Run(sc.Case.ID, func(t *testing.T) {
			rs := RunScenarios(ctx, target, info, []Scenario{sc}, runner.Options{Expect: expect})
			r := rs[0]
			switch r.Verdict {
			case runner.Pass:
			case runner.Skip:
				t.Skip(r.Message)
			case runner.XFail:
				t.Logf("expected failure: %s", r.Expected)
			default:
				t.Error(Failure(r))
			}
		})
	}
}

// Failure is a failed scenario as a person reads it: where it is, its name, and each Then that
// did not hold with what differs (or the target's own fault).
func Failure(r runner.Result) string {
	var b strings.Builder
	b.WriteString(strings.ToUpper(string(r.Verdict)) + ": " + r.Case.ID + " (" + r.Case.File + ")\n")
	b.WriteString("  Scenario: " + r.Case.About + "\n")
	if r.Expected != "" {
		b.WriteString("  listed as a known failure (" + r.Expected + ") but it passes\n")
	}
	if r.Message != "" {
		b.WriteString(indentLines(r.Message, "  ") + "\n")
	}
	if r.Diff != "" {
		b.WriteString(indentLines(strings.TrimRight(r.Diff, "\n"), "  ") + "\n")
	}
	if r.Stderr != "" {
		b.WriteString("  stderr (tail):\n" + indentLines(strings.TrimRight(r.Stderr, "\n"), "    ") + "\n")
	}
	return b.String()
}
