package runner

import (
	"context"
	"encoding/json"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

func specVersion() string { return spec.Version() }

// Item is one piece of work for a target: a case to send and how its answer is judged. A JSON
// case (judged by its "expect") and a Gherkin scenario (judged by its Thens) are both items, and
// Run runs either the same way: one pool, one cancellation, one way to turn an outcome into a
// verdict.
type Item struct {
	// Case is what the target is sent (Case.Input, of Case.Area) and what reports name (ID, File,
	// About, and Expect shown as "want").
	Case conformance.Case
	// Check judges an answer: "" when it holds, else what differs, as the report shows it. Nil
	// compares the answer with Case.Expect (conformance.Diff, -want +got).
	Check func(answer json.RawMessage) string
	// Err is why the item could not be made (a scenario with a step no vocabulary knows). Such
	// an item is never sent; its verdict is error with Err's text as the message.
	Err error
}

// CaseItems makes each case an item judged by its expectation.
func CaseItems(cases []conformance.Case) []Item {
	items := make([]Item, len(cases))
	for i, c := range cases {
		items[i] = Item{Case: c}
		if c.Broken != nil {
			items[i].Err = c.Broken
		}
	}
	return items
}

// Result is one case's verdict.
type Result struct {
	Case    conformance.Case
	Verdict Verdict
	Answer  json.RawMessage
	// Diff is what the check found wrong: go-cmp's (-want +got) report for a JSON case.
	Diff string
	// Message is the skip reason, the implementation's error, or what broke in the protocol.
	Message string
	// Evidence is what a pass rests on, in a line: what was compared, where a note was found
	// (a live verdict's; -v shows it).
	Evidence string
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
	// CloseErr is what the target's Close said, when it failed: an adapter process that did
	// not exit cleanly after bye. The verdicts stand; the report shows it as a warning.
	CloseErr string
	// NotRun says what of the run could not be made at all (a live scenario whose agent could
	// not be started, or never reached the fake): its cases are skipped saying why, and the run is
	// unfinished (exit 2), whatever the other cases found.
	NotRun []string
	// Streamed says each result was shown as it ended (Options.Stream): a table on the same
	// stream leaves them out rather than show them twice.
	Streamed bool `json:"-"`
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
	// Workers is how many items are in flight at once (an adapter target with --jobs N takes N).
	Workers int
	// OnResult, when set, is called as each item ends (in completion order, one call at a time),
	// for progress and -v.
	OnResult func(Result)
	// Stream, when set, is shown each result as it ends, as go test streams a verdict: a failure
	// whole, and with Verbose every verdict's line (Result.WriteShown), in the order cases end;
	// RunShown writes it above the progress line. The report keeps the items' order.
	Stream  io.Writer
	Verbose bool
	// Show, when set, is what Stream is shown of a result instead (a diff's side shows how it
	// compares with the other side).
	Show func(w io.Writer, r Result)
}

// Run hands every item to a started target — info is what its Start said — and returns the
// report, results in the items' order. The caller owns the target's Start and Close, as with an
// http.Server, so that two runs can share one started target and Close is called once:
//
//	info, err := t.Start(ctx) // err: the run could not be made
//	rep := runner.Run(ctx, t, info, items, opts)
//	rep.Closed(t.Close())
//
// Every fault of a single item is that item's verdict. When ctx ends no further item is sent.
func Run(ctx context.Context, t Target, info TargetInfo, items []Item, opts Options) *Report {
	start := time.Now()
	rep := &Report{Tool: "lembas-check", Version: ToolVersion, Spec: specVersion(), Target: info, Started: start,
		Streamed: opts.Stream != nil}
	answers := map[string]bool{}
	for _, a := range info.Areas {
		answers[a] = true
	}
	rep.Results = make([]Result, len(items))
	workers := max(opts.Workers, 1)
	var mu sync.Mutex
	// Each worker takes the next item itself: a channel fed by this goroutine cost two goroutine
	// switches (and often a thread's wake-up) per item, a tenth of a builtin run's CPU.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(items) {
					return
				}
				if ctx.Err() != nil {
					rep.Results[i] = Result{Case: items[i].Case, Verdict: Interrupted,
						Message: "run interrupted: " + ctx.Err().Error()}
					continue
				}
				r := RunOne(ctx, t, items[i], answers, opts.Expect)
				rep.Results[i] = r
				mu.Lock()
				if opts.OnResult != nil {
					opts.OnResult(r)
				}
				if opts.Stream != nil {
					show := opts.Show
					if show == nil {
						show = func(w io.Writer, r Result) { r.WriteShown(w, opts.Verbose) }
					}
					StreamTo(opts.Stream, func(w io.Writer) { show(w, r) })
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	rep.Duration = time.Since(start)
	return rep
}

// NotMade is the report of a run that could not be made at all — a hello that failed, a
// selection of nothing, a file that could not be read — so that every report a command promises
// is still written, saying ERROR and why, never left as an older run's. Target is what is known of
// the target (its command). When the run was interrupted before its first case (Ctrl-C during
// hello), every item is an interrupted result; otherwise there is none.
func NotMade(target TargetInfo, items []Item, reason string, interrupted bool) *Report {
	rep := &Report{Tool: "lembas-check", Version: ToolVersion, Spec: specVersion(), Target: target, Started: time.Now(),
		NotRun: []string{reason}}
	if interrupted {
		for _, it := range items {
			rep.Results = append(rep.Results, Result{Case: it.Case, Verdict: Interrupted, Message: reason})
		}
	}
	return rep
}

// Unstarted is what is known of a target before it starts, for the report of a run not made:
// the first command given of flag, command pairs ("--impl", "python3 a.py": "--impl (python3
// a.py)"), or the builtin reference when none is.
func Unstarted(flagCommands ...string) TargetInfo {
	for i := 0; i+1 < len(flagCommands); i += 2 {
		if flagCommands[i+1] != "" {
			return TargetInfo{Kind: "unstarted", Implementation: Implementation{Name: flagCommands[i]},
				Command: flagCommands[i+1]}
		}
	}
	return TargetInfo{Kind: "builtin", Implementation: Implementation{Name: "lembas-check reference",
		Version: ToolVersion}}
}

// Closed records what the target's Close returned.
func (r *Report) Closed(err error) {
	if err != nil {
		r.CloseErr = err.Error()
	}
}

// RunOne runs one work item against a started target, as Run does for each: answers names the
// areas the target said it answers (others are skipped), expect its known failures. It is what
// runnertest's subtests call, one item each.
func RunOne(ctx context.Context, t Target, it Item, answers map[string]bool, expect *Expectations) Result {
	c := it.Case
	r := Result{Case: c}
	switch {
	case it.Err != nil:
		r.Verdict, r.Message = Malformed, it.Err.Error()
	case !answers[c.Area]:
		r.Verdict, r.Message = Skip, "area not implemented"
	default:
		began := time.Now()
		out := t.Answer(ctx, c)
		r.Duration = time.Since(began)
		r.Answer, r.Message, r.Stderr = out.Answer, out.Message, out.Stderr
		if out.Verdict != "" {
			r.Verdict = out.Verdict
			break
		}
		malformed := ""
		if it.Check != nil {
			r.Diff = it.Check(out.Answer)
		} else {
			r.Diff = conformance.Diff(c.Expect, out.Answer)
			// A malformed answer is named by its field, not only shown as a diff.
			if malformed = conformance.CheckAnswer(c.Area, out.Answer); malformed != "" {
				r.Message = malformed
			}
		}
		r.Verdict = Pass
		if r.Diff != "" || malformed != "" {
			r.Verdict = Fail
		}
	}
	expect.Apply(&r)
	return r
}

// ByArea groups results by area, areas in name order. Where each area's results lie together
// (a run's do: its cases come area by area) the groups are the report's own, capped so that an
// append to one cannot write over the next; else each is a copy.
func (r *Report) ByArea() ([]string, map[string][]Result) {
	type span struct{ first, last, n int }
	spans := map[string]*span{}
	together := true
	for i, x := range r.Results {
		sp := spans[x.Case.Area]
		if sp == nil {
			sp = &span{first: i}
			spans[x.Case.Area] = sp
		} else if sp.last != i-1 {
			together = false
		}
		sp.last, sp.n = i, sp.n+1
	}
	m := make(map[string][]Result, len(spans))
	names := make([]string, 0, len(spans))
	for a, sp := range spans {
		names = append(names, a)
		if together {
			m[a] = r.Results[sp.first : sp.last+1 : sp.last+1]
		} else {
			// Made at its size: a Result is most of a kilobyte.
			m[a] = make([]Result, 0, sp.n)
		}
	}
	if !together {
		for _, x := range r.Results {
			m[x.Case.Area] = append(m[x.Case.Area], x)
		}
	}
	sort.Strings(names)
	return names, m
}
