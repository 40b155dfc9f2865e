package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress shows how far a long run has gone, on stderr, once it has taken longer than After: on a
// terminal one counter line rewritten in place with \r, otherwise (a CI log) a line every Every.
// A run that ends before After prints nothing. Set the fields, then Start; pass Add as
// Options.OnResult; Stop when the run ends.
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
	start   time.Time
	shown   bool
	stop    chan struct{}
	stopped sync.WaitGroup
}

// Start starts the clock and the printer.
func (p *Progress) Start() {
	if p.After <= 0 {
		p.After = 2 * time.Second
	}
	if p.Every <= 0 {
		p.Every = 5 * time.Second
		if p.Terminal {
			p.Every = 200 * time.Millisecond
		}
	}
	p.counts = Counts{}
	p.start = time.Now()
	p.stop = make(chan struct{})
	p.stopped.Go(p.loop)
}

func (p *Progress) loop() {
	wait := time.NewTimer(p.After)
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-p.stop:
		return
	}
	tick := time.NewTicker(p.Every)
	defer tick.Stop()
	for {
		p.draw()
		select {
		case <-tick.C:
		case <-p.stop:
			return
		}
	}
}

// Add counts one finished case.
func (p *Progress) Add(r Result) {
	p.mu.Lock()
	p.done++
	p.counts[r.Verdict]++
	p.mu.Unlock()
}

func (p *Progress) draw() {
	p.mu.Lock()
	line := ProgressLine(p.Label, p.done, p.Total, p.counts, time.Since(p.start))
	p.shown = true
	p.mu.Unlock()
	if p.Terminal {
		// \x1b[K clears what a longer previous line left.
		fmt.Fprintf(p.W, "\r%s\x1b[K", line)
		return
	}
	fmt.Fprintln(p.W, line)
}

// Stop ends the printer; on a terminal it clears the counter line so the report starts clean.
func (p *Progress) Stop() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
	p.stop = nil
	if p.Terminal && p.shown {
		fmt.Fprint(p.W, "\r\x1b[K")
	}
}

// ProgressLine is one progress line: "lembas-check run: 57/114 cases, 12s: 50 pass, 3 fail, 4 skip".
func ProgressLine(label string, done, total int, c Counts, elapsed time.Duration) string {
	var parts []string
	for _, v := range []Verdict{Pass, Fail, XFail, XPass, Skip, Error, Timeout, Crashed, ProtocolError} {
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
