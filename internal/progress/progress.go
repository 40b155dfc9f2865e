// Package progress shows how far a long job has gone, on stderr, in one style for every command
// (run, diff, audit, bench, replay): nothing for a job that ends within After; then, on a
// terminal, one line rewritten in place every Every, and in a log (CI) a line every Every. A job
// in phases (reading, tokenizing, replaying) ends each phase's line with its last state and starts
// the next below it; a job that ends draws its line a last time, its clock stopped.
//
// The clock is the time package's, so that tests run it under testing/synctest.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/term"
)

// Printer draws Line from Start to Stop. Set the fields, then Start; Stop when the job ends.
// Line is called from the Printer's goroutine and from the caller's (Next, Stop): it must be safe
// beside the caller's updates. final says the line is drawn a last time (no ETA: it is done).
type Printer struct {
	W        io.Writer
	Terminal bool
	// After is how long a job runs before anything shows (default 2s); Every how often the line
	// is drawn (default 200ms on a terminal, 5s otherwise).
	After, Every time.Duration
	Line         func(final bool) string
	// Width is the terminal's columns, asked at each redraw so a resize (SIGWINCH) is followed
	// at the next one; nil: term.Width of W. A line wider would wrap, and \r could not erase
	// the row above (issue 27: 48 stale rows).
	Width func() int

	// mu orders the drawing: the loop's redraws, Next's and Stop's.
	mu      sync.Mutex
	shown   bool
	stop    chan struct{}
	stopped sync.WaitGroup
}

// IsTerminal says whether w is a terminal, where a line is redrawn in place.
func IsTerminal(w io.Writer) bool { return term.IsTerminal(w) }

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
		p.mu.Lock()
		p.draw(false)
		p.mu.Unlock()
		select {
		case <-tick.C:
		case <-p.stop:
			return
		}
	}
}

// draw writes the line; p.mu is held.
func (p *Printer) draw(final bool) {
	line := p.Line(final)
	p.shown = true
	if p.Terminal {
		// Cut to the width, so the line takes one row; \x1b[K clears what a longer previous line
		// left, before the line, since after a line that fills the row it would erase the last
		// character.
		fmt.Fprintf(p.W, "\r\x1b[K%s", term.Fit(line, p.width()))
		return
	}
	fmt.Fprintln(p.W, line)
}

func (p *Printer) width() int {
	if p.Width != nil {
		return p.Width()
	}
	return term.Width(p.W, os.Getenv)
}

// end draws the line a last time and ends it, when it showed; p.mu is held.
func (p *Printer) end() {
	if !p.shown {
		return
	}
	p.draw(true)
	if p.Terminal {
		fmt.Fprintln(p.W)
	}
}

// Next ends the line of the step that is done (drawn a last time, when it showed) and runs
// update, which moves the state on to the next step, before anything else is drawn.
func (p *Printer) Next(update func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		p.end()
	}
	update()
}

// Stop ends the drawing. A line that showed is drawn a last time and ended.
func (p *Printer) Stop() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop = nil
	p.end()
}

// Print writes text to w above the line, as go test streams a verdict above nothing: on a
// terminal the line is erased first and drawn again below the text, so what is printed while a job
// runs (a failure as its case ends) never mixes with the line. w may be another stream than W
// (stdout beside stderr's line); text should end with a newline.
func (p *Printer) Print(w io.Writer, text []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	live := p.shown && p.Terminal && p.stop != nil
	if live {
		fmt.Fprint(p.W, "\r\x1b[K")
	}
	n, err := w.Write(text)
	if live {
		p.draw(false)
	}
	return n, err
}
