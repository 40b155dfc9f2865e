package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Bar is one job's progress as the cache bench draws it (an audit of a large recording, a bench
// against a slow server): a label, a bar of done ÷ total, the time and a note, drawn by a Printer.
// Set the fields or use NewBar, then Start, Set as it goes, and Stop (the bar's last state is
// drawn once more and kept).
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
	printer *Printer
}

// NewBar makes a bar writing to w, redrawn in place when w is a terminal.
func NewBar(w io.Writer, label string, total int) *Bar {
	return &Bar{W: w, Label: label, Total: total, Terminal: IsTerminal(w)}
}

// Start starts the clock and the drawing.
func (b *Bar) Start() {
	b.printer = &Printer{W: b.W, Terminal: b.Terminal, After: b.After, Every: b.Every, Keep: true, Line: b.line}
	b.printer.Start()
}

func (b *Bar) line(elapsed time.Duration) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Line(b.Label, b.done, b.Total, elapsed, b.note)
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

// Stop ends the drawing; a bar that showed is drawn a last time and its line ended.
func (b *Bar) Stop() {
	if b.printer != nil {
		b.printer.Stop()
	}
}
