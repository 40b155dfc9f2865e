// Package progress prints how far a long job has gone, on stderr: nothing for a job that ends
// within After; then, on a terminal, one line rewritten in place every Every, and in a log (CI)
// a line every Every. What the line says is the caller's (runner's case counts, the cache
// bench's bar); when and where it is drawn is this package's.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Printer draws Line(elapsed) from Start to Stop. Set the fields, then Start; Stop when the job
// ends. Line is called with the Printer's lock not held, from its own goroutine: it must be safe
// beside the caller's updates.
type Printer struct {
	W        io.Writer
	Terminal bool
	// After is how long a job runs before anything shows (default 2s); Every how often the line
	// is drawn (default 200ms on a terminal, 5s otherwise).
	After, Every time.Duration
	Line         func(elapsed time.Duration) string
	// Keep draws the line a last time at Stop and ends it (a bar whose last state is worth
	// keeping); without it a terminal's line is cleared, so what follows starts clean.
	Keep bool

	mu      sync.Mutex
	start   time.Time
	shown   bool
	stop    chan struct{}
	stopped sync.WaitGroup
}

// IsTerminal says whether w is a terminal (a character device), where a line is redrawn in place.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Start starts the clock and the drawing.
func (p *Printer) Start() {
	if p.After <= 0 {
		p.After = 2 * time.Second
	}
	if p.Every <= 0 {
		p.Every = 5 * time.Second
		if p.Terminal {
			p.Every = 200 * time.Millisecond
		}
	}
	p.start = time.Now()
	p.stop = make(chan struct{})
	p.stopped.Go(p.loop)
}

func (p *Printer) loop() {
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

func (p *Printer) draw() {
	line := p.Line(time.Since(p.start))
	p.mu.Lock()
	p.shown = true
	p.mu.Unlock()
	if p.Terminal {
		// \x1b[K clears what a longer previous line left.
		fmt.Fprintf(p.W, "\r%s\x1b[K", line)
		return
	}
	fmt.Fprintln(p.W, line)
}

// Stop ends the drawing. A line that showed is cleared on a terminal, or, with Keep, drawn a last
// time and ended.
func (p *Printer) Stop() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
	p.stop = nil
	p.mu.Lock()
	shown := p.shown
	p.mu.Unlock()
	switch {
	case !shown:
	case p.Keep:
		p.draw()
		if p.Terminal {
			fmt.Fprintln(p.W)
		}
	case p.Terminal:
		fmt.Fprint(p.W, "\r\x1b[K")
	}
}
