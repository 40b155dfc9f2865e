package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Unit is what a job counts: bytes (of a file read), or a noun ("cases", "requests").
type Unit string

// Bytes counts bytes, shown as kB, MB or GB.
const Bytes Unit = "bytes"

// Bar is one job's progress line: what is being done, a bar of done ÷ total, the counts, the
// rate and the time left, and a note. Make it with New, Start it, move it through its phases
// (Phase), Set or Poll how far each has got, and Stop it.
type Bar struct {
	W        io.Writer
	Label    string
	Terminal bool
	// After and Every are the Printer's.
	After, Every time.Duration

	mu      sync.Mutex
	state   State
	started time.Time
	stopped time.Duration // the phase's time when it ended
	ended   bool
	poll    func() int64
	note    func() string
	printer *Printer
}

// New makes a bar writing to w, redrawn in place when w is a terminal. label says what runs:
// "lembas-check audit big.jsonl".
func New(w io.Writer, label string) *Bar {
	return &Bar{W: w, Label: label, Terminal: IsTerminal(w)}
}

// Start starts the clock and the drawing. A bar is started once.
func (b *Bar) Start() {
	b.mu.Lock()
	b.state.Label = b.Label
	b.started = time.Now()
	b.mu.Unlock()
	b.printer = &Printer{W: b.W, Terminal: b.Terminal, After: b.After, Every: b.Every, Line: b.line}
	b.printer.Start()
}

// Phase ends the phase before (its line drawn a last time, when it showed) and starts one: its
// name ("tokenizing"; "" for a job of one phase), its total (0: not known) and unit. Its clock,
// rate and ETA start at 0.
func (b *Bar) Phase(name string, total int64, unit Unit) {
	update := func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.state = State{Label: b.Label, Phase: name, Total: total, Unit: unit}
		b.started, b.poll, b.note = time.Now(), nil, nil
	}
	if b.printer == nil {
		update()
		return
	}
	b.printer.Next(update)
}

// Poll makes the phase's done whatever f says at each drawing (a reader's offset in its file), so
// that nothing need be called as the job goes. f must be safe from another goroutine.
func (b *Bar) Poll(f func() int64) {
	b.mu.Lock()
	b.poll = f
	b.mu.Unlock()
}

// PollNote makes the phase's note whatever f says at each drawing, so that a note made of counts
// is made only when drawn. f must be safe from another goroutine.
func (b *Bar) PollNote(f func() string) {
	b.mu.Lock()
	b.note = f
	b.mu.Unlock()
}

// Set records how far the phase has got, with a short note ("request 412: extends").
func (b *Bar) Set(done int64, note string) {
	b.mu.Lock()
	b.state.Done, b.state.Note = done, note
	b.mu.Unlock()
}

// Note changes the note alone.
func (b *Bar) Note(note string) {
	b.mu.Lock()
	b.state.Note = note
	b.mu.Unlock()
}

func (b *Bar) line(final bool) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.state
	if b.poll != nil {
		s.Done = b.poll()
	}
	if b.note != nil {
		s.Note = b.note()
	}
	s.Elapsed = time.Since(b.started)
	if b.ended {
		s.Elapsed = b.stopped
	}
	s.Final = final
	return s.Line()
}

// Stop ends the job: the line, when it showed, is drawn a last time with the clock stopped.
func (b *Bar) Stop() {
	if b.printer == nil {
		return
	}
	b.mu.Lock()
	if !b.ended {
		b.ended, b.stopped = true, time.Since(b.started)
	}
	b.mu.Unlock()
	b.printer.Stop()
}

// State is what a progress line says.
type State struct {
	Label, Phase string
	Done, Total  int64
	Unit         Unit
	Elapsed      time.Duration
	Note         string
	// Final: the phase is over; the line gives no ETA.
	Final bool
}

// width is the bar's, in characters.
const width = 20

// Line is the progress line: "lembas-check audit big.jsonl: tokenizing [######..............]
// 12.1/36.0 MB  34 % · 3s · 4.0 MB/s · ETA 6s · request 412: extends".
func (s State) Line() string {
	var b strings.Builder
	b.WriteString(s.Label + ":")
	if s.Phase != "" {
		b.WriteString(" " + s.Phase)
	}
	parts := []string{}
	if s.Total > 0 {
		f := min(1, float64(s.Done)/float64(s.Total))
		n := int(f * width)
		fmt.Fprintf(&b, " [%s%s] %s %3.0f %%", strings.Repeat("#", n), strings.Repeat(".", width-n), s.Unit.of(s.Done,
			s.Total), 100*f)
	} else {
		b.WriteString(" " + s.Unit.count(s.Done))
	}
	parts = append(parts, round(s.Elapsed).String())
	secs := s.Elapsed.Seconds()
	if s.Done > 0 && secs >= 0.5 {
		rate := float64(s.Done) / secs
		parts = append(parts, s.Unit.rate(rate))
		if s.Total > s.Done && !s.Final {
			parts = append(parts,
				"ETA "+round(time.Duration(float64(s.Total-s.Done)/rate*float64(time.Second))).String())
		}
	}
	if s.Note != "" {
		parts = append(parts, s.Note)
	}
	b.WriteString(" · " + strings.Join(parts, " · "))
	return b.String()
}

// round keeps a duration to the second past 10 s, to the tenth below.
func round(d time.Duration) time.Duration {
	if d >= 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}

// bytesScale is the unit that shows n bytes in three or four figures.
func bytesScale(n float64) (float64, string) {
	switch {
	case n >= 1e9:
		return 1e9, "GB"
	case n >= 1e6:
		return 1e6, "MB"
	case n >= 1e3:
		return 1e3, "kB"
	}
	return 1, "B"
}

func scaled(n, scale float64) string {
	if scale == 1 {
		return fmt.Sprintf("%.0f", n)
	}
	return fmt.Sprintf("%.1f", n/scale)
}

// of is "12.1/36.0 MB" or "57/114 cases".
func (u Unit) of(done, total int64) string {
	if u == Bytes {
		scale, name := bytesScale(float64(total))
		return scaled(float64(done), scale) + "/" + scaled(float64(total), scale) + " " + name
	}
	return fmt.Sprintf("%d/%d%s", done, total, u.suffix())
}

// count is "12.1 MB" or "57 requests", for a phase of no known total.
func (u Unit) count(n int64) string {
	if u == Bytes {
		scale, name := bytesScale(float64(n))
		return scaled(float64(n), scale) + " " + name
	}
	return fmt.Sprintf("%d%s", n, u.suffix())
}

// rate is "4.0 MB/s" or "38 cases/s".
func (u Unit) rate(r float64) string {
	if u == Bytes {
		scale, name := bytesScale(r)
		return scaled(r, scale) + " " + name + "/s"
	}
	if r < 10 {
		return fmt.Sprintf("%.1f%s/s", r, u.suffix())
	}
	return fmt.Sprintf("%.0f%s/s", r, u.suffix())
}

func (u Unit) suffix() string {
	if u == "" {
		return ""
	}
	return " " + string(u)
}

// FileSize is a file's size for a line counted in bytes; 0 (not known) when it cannot be told.
func FileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	return st.Size()
}

// Print writes text to w above the line (Printer.Print); before Start or after Stop it is
// written as it is.
func (b *Bar) Print(w io.Writer, text []byte) (int, error) {
	if b.printer == nil {
		return w.Write(text)
	}
	return b.printer.Print(w, text)
}
