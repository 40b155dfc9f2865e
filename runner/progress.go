package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/progress"
)

// Progress shows how far a long run has gone, on stderr, once it has taken longer than After: on a
// terminal one counter line rewritten in place, otherwise (a CI log) a line every Every. A run
// that ends before After prints nothing. Set the fields, then Start; pass Add as
// Options.OnResult; Stop when the run ends (a terminal's line is cleared for the report).
type Progress struct {
	W        io.Writer
	Label    string // what is running, e.g. "run" or "diff a"
	Total    int
	Terminal bool
	// After is how long a run goes before progress shows (default 2s); Every how often it is
	// redrawn (default 200ms on a terminal, 5s otherwise).
	After, Every time.Duration

	mu      sync.Mutex
	done    int
	counts  Counts
	printer *progress.Printer
}

// Start starts the clock and the printer.
func (p *Progress) Start() {
	p.counts = Counts{}
	p.printer = &progress.Printer{W: p.W, Terminal: p.Terminal, After: p.After, Every: p.Every, Line: p.line}
	p.printer.Start()
}

func (p *Progress) line(elapsed time.Duration) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return ProgressLine(p.Label, p.done, p.Total, p.counts, elapsed)
}

// Add counts one finished case.
func (p *Progress) Add(r Result) {
	p.mu.Lock()
	p.done++
	p.counts[r.Verdict]++
	p.mu.Unlock()
}

// Stop ends the printer; on a terminal it clears the counter line so the report starts clean.
func (p *Progress) Stop() {
	if p.printer != nil {
		p.printer.Stop()
	}
}

// ProgressLine is one progress line: "lembas-check run: 57/114 cases, 12s: 50 pass, 3 fail, 4 skip".
func ProgressLine(label string, done, total int, c Counts, elapsed time.Duration) string {
	var parts []string
	for _, v := range []Verdict{Pass, Fail, XFail, XPass, Skip, Error, Timeout, Crashed, ProtocolError, Interrupted} {
		if c[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[v], v))
		}
	}
	s := fmt.Sprintf("lembas-check %s: %d/%d cases, %s", label, done, total, elapsed.Round(time.Second))
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}
