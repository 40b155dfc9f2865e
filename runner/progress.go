package runner

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/progress"
	"github.com/LLeMbas/lembas-check/internal/term"
)

// Progress shows how far a long run has gone, on stderr, in the progress line every command
// draws (internal/progress): the cases done of the total, the rate, the time left and the
// verdicts so far. Set the fields, then Start; pass Add as Options.OnResult; Stop when the run
// ends.
type Progress struct {
	W        io.Writer
	Label    string // what is running, e.g. "run" or "diff a"
	Total    int
	Terminal bool
	// After is how long a run goes before progress shows (default 2s); Every how often it is
	// redrawn (default 200ms on a terminal, 5s otherwise).
	After, Every time.Duration

	mu     sync.Mutex
	done   int
	counts Counts
	bar    *progress.Bar
}

// Start starts the clock and the line.
func (p *Progress) Start() {
	p.counts = Counts{}
	p.bar = &progress.Bar{W: p.W, Label: "lembas-check " + p.Label, Terminal: p.Terminal, After: p.After,
		Every: p.Every}
	p.bar.Phase("", int64(p.Total), "cases")
	// The counts are read when the line is drawn (every 200 ms at most), not made into a note at
	// every case: that was 1–2 % of a whole `run`.
	p.bar.Poll(func() int64 {
		p.mu.Lock()
		defer p.mu.Unlock()
		return int64(p.done)
	})
	p.bar.PollNote(func() string {
		p.mu.Lock()
		defer p.mu.Unlock()
		return VerdictCounts(p.counts)
	})
	p.bar.Start()
}

// Add counts one finished case.
func (p *Progress) Add(r Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.counts[r.Verdict]++
}

// Above is w written above the line: each Write (a result's whole block, Result.Stream) erases
// the line, is written, and draws the line again. w keeps its colour (term.Writer).
func (p *Progress) Above(w io.Writer) io.Writer {
	if _, ok := w.(term.Writer); ok {
		return term.Writer{Writer: above{p, w}}
	}
	return above{p, w}
}

type above struct {
	p *Progress
	w io.Writer
}

func (a above) Write(b []byte) (int, error) { return a.p.bar.Print(a.w, b) }

// Stop ends the line: drawn a last time, when it showed, its clock stopped.
func (p *Progress) Stop() {
	if p.bar != nil {
		p.bar.Stop()
	}
}

// VerdictCounts says the verdicts so far: "50 pass, 3 fail, 4 skip".
func VerdictCounts(c Counts) string {
	var parts []string
	for _, v := range Verdicts {
		if c[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[v], v))
		}
	}
	return strings.Join(parts, ", ")
}

// RunShown starts the target, runs the items with progress on w (the Progress line, labelled),
// and closes it: the one whole run of `run` and `diff`. Close's error lands in the report, which
// shows it as a warning: the run stands, but an adapter that did not exit cleanly after bye has
// a bug. A start that fails is the error (the run could not be made); one cut short by an
// interrupt says so.
func RunShown(ctx context.Context, t Target, items []Item, opts Options, label string, w io.Writer) (*Report, error) {
	// Progress from before the start: a slow hello is part of the wait.
	p := &Progress{W: w, Label: label, Total: len(items), Terminal: progress.IsTerminal(w)}
	p.Start()
	info, err := t.Start(ctx)
	if err != nil {
		p.Stop()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted while starting the target: %v", err)
		}
		return nil, err
	}
	opts.OnResult = p.Add
	if opts.Stream != nil {
		opts.Stream = p.Above(opts.Stream)
	}
	rep := Run(ctx, t, info, items, opts)
	p.Stop()
	rep.Closed(t.Close())
	return rep, nil
}
