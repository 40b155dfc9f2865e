package runner

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

func specVersion() string { return spec.Version() }

// Result is one case's verdict.
type Result struct {
	Case    conformance.Case
	Verdict Verdict
	Answer  json.RawMessage
	// Diff is go-cmp's (-want +got) report for a failed comparison.
	Diff string
	// Message is the skip reason, the implementation's error, or what broke in the protocol.
	Message string
	// Expected is the expectations file's reason for an xfail or xpass.
	Expected string
	Stderr   string
	Duration time.Duration
}

// Report is a whole run.
type Report struct {
	Tool     string     `json:"tool"`
	Version  string     `json:"version"`
	Spec     string     `json:"spec"`
	Target   TargetInfo `json:"target"`
	Started  time.Time  `json:"started"`
	Duration time.Duration
	Results  []Result
}

// Counts tallies verdicts.
type Counts map[Verdict]int

// Counts tallies the report's verdicts.
func (r *Report) Counts() Counts {
	c := Counts{}
	for _, x := range r.Results {
		c[x.Verdict]++
	}
	return c
}

// Failed says whether any verdict fails the run.
func (r *Report) Failed() bool {
	for _, x := range r.Results {
		if x.Verdict.Failed() {
			return true
		}
	}
	return false
}

// Options tune a run.
type Options struct {
	// Expect lists known failures.
	Expect *Expectations
	// Workers is how many cases are in flight at once (an adapter target with --jobs N takes N).
	Workers int
	// OnResult, when set, is called as each case ends (in completion order), for progress and -v.
	OnResult func(Result)
}

// Run starts the target, hands it every case, and closes it. The error is for a run that could not
// be made (a target that would not start); every fault of a single case is that case's verdict.
func Run(ctx context.Context, t Target, cases []conformance.Case, opts Options) (*Report, error) {
	start := time.Now()
	info, err := t.Start(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	rep := &Report{Tool: "lembas-check", Version: ToolVersion, Spec: specVersion(), Target: info, Started: start}
	answers := map[string]bool{}
	for _, a := range info.Areas {
		answers[a] = true
	}
	rep.Results = make([]Result, len(cases))
	workers := opts.Workers
	if workers < 1 {
		workers = 1
	}
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := runOne(ctx, t, cases[i], answers, opts.Expect)
				rep.Results[i] = r
				if opts.OnResult != nil {
					mu.Lock()
					opts.OnResult(r)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range cases {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			for j := i; j < len(cases); j++ {
				rep.Results[j] = Result{Case: cases[j], Verdict: Skip, Message: "run interrupted: " + ctx.Err().Error()}
			}
			break
		}
	}
	close(next)
	wg.Wait()
	rep.Duration = time.Since(start)
	return rep, nil
}

func runOne(ctx context.Context, t Target, c conformance.Case, answers map[string]bool, expect *Expectations) Result {
	r := Result{Case: c}
	if !answers[c.Area] {
		r.Verdict, r.Message = Skip, "area not implemented"
		return r
	}
	began := time.Now()
	out := t.Answer(ctx, c)
	r.Duration = time.Since(began)
	r.Answer, r.Message, r.Stderr = out.Answer, out.Message, out.Stderr
	switch {
	case out.Verdict != "":
		r.Verdict = out.Verdict
	default:
		r.Diff = conformance.Diff(c.Expect, out.Answer)
		r.Verdict = Pass
		if r.Diff != "" {
			r.Verdict = Fail
		}
	}
	if reason, ok := expect.Reason(c.ID); ok && r.Verdict != Skip {
		r.Expected = reason
		if r.Verdict == Pass {
			r.Verdict = XPass
		} else {
			r.Verdict = XFail
		}
	}
	return r
}

// ByArea groups results by area, areas in name order.
func (r *Report) ByArea() ([]string, map[string][]Result) {
	m := map[string][]Result{}
	for _, x := range r.Results {
		m[x.Case.Area] = append(m[x.Case.Area], x)
	}
	var names []string
	for a := range m {
		names = append(names, a)
	}
	sort.Strings(names)
	return names, m
}
