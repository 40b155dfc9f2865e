// Package progress draws a progress bar on stderr for the cache bench's long jobs (an audit of a
// large recording, a bench against a slow server): on a terminal one line redrawn in place, in a
// log a line every few seconds; a job that ends quickly prints nothing.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Bar is one job's progress. Set the fields or use New, then Start, Set as it goes, and Stop.
type Bar struct {
	W        io.Writer
	Label    string
	Total    int // 0: unknown, a counter without a bar
	Terminal bool
	// After is how long a job runs before the bar shows (default 2s); Every how often it is
	// redrawn (default 200ms on a terminal, 5s otherwise).
	After, Every time.Duration

	mu      sync.Mutex
	done    int
	note    string
	start   time.Time
	shown   bool
	stop    chan struct{}
	stopped sync.WaitGroup
}

// New makes a bar writing to w, redrawn in place when w is a terminal.
func New(w io.Writer, label string, total int) *Bar {
	return &Bar{W: w, Label: label, Total: total, Terminal: IsTerminal(w)}
}

// IsTerminal says whether w is a terminal (a character device).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Start starts the clock and the drawing.
func (b *Bar) Start() {
	if b.After <= 0 {
		b.After = 2 * time.Second
	}
	if b.Every <= 0 {
		b.Every = 5 * time.Second
		if b.Terminal {
			b.Every = 200 * time.Millisecond
		}
	}
	b.start = time.Now()
	b.stop = make(chan struct{})
	b.stopped.Add(1)
	go b.loop()
}

func (b *Bar) loop() {
	defer b.stopped.Done()
	wait := time.NewTimer(b.After)
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-b.stop:
		return
	}
	tick := time.NewTicker(b.Every)
	defer tick.Stop()
	for {
		b.draw()
		select {
		case <-tick.C:
		case <-b.stop:
			return
		}
	}
}

// Set records how far the job has got, with a short note (the last request's cached share…).
func (b *Bar) Set(done int, note string) {
	b.mu.Lock()
	b.done, b.note = done, note
	b.mu.Unlock()
}

// Line is the progress line for done of total after d.
func Line(label string, done, total int, d time.Duration, note string) string {
	var s strings.Builder
	s.WriteString(label)
	if total > 0 {
		const width = 24
		f := min(1, float64(done)/float64(total))
		n := int(f * width)
		fmt.Fprintf(&s, " [%s%s] %d/%d %3.0f %%", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total, 100*f)
	} else {
		fmt.Fprintf(&s, " %d done", done)
	}
	fmt.Fprintf(&s, " %.1f s", d.Seconds())
	if note != "" {
		s.WriteString("  " + note)
	}
	return s.String()
}

func (b *Bar) draw() {
	b.mu.Lock()
	line := Line(b.Label, b.done, b.Total, time.Since(b.start), b.note)
	b.shown = true
	b.mu.Unlock()
	if b.Terminal {
		fmt.Fprintf(b.W, "\r%-100s", line)
	} else {
		fmt.Fprintln(b.W, line)
	}
}

// Stop ends the drawing; a bar that showed is drawn a last time and its line ended.
func (b *Bar) Stop() {
	if b.stop == nil {
		return
	}
	close(b.stop)
	b.stopped.Wait()
	b.stop = nil
	b.mu.Lock()
	shown := b.shown
	b.mu.Unlock()
	if shown {
		b.draw()
		if b.Terminal {
			fmt.Fprintln(b.W)
		}
	}
}
