package progress

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/internal/syncbuf"
	"github.com/LLeMbas/lembas-check/internal/term"
)

// clock makes a Printer's line say how long it has run.
func clock() func(bool) string {
	start := time.Now()
	return func(final bool) string {
		s := fmt.Sprintf("at %s", time.Since(start).Round(time.Second))
		if final {
			s += " (final)"
		}
		return s
	}
}

// A job that ends before After (2 s unless set) prints nothing: a Printer's on a terminal, and
// a Bar's (which draws through a Printer) in a log.
func TestAQuickJobPrintsNothing(t *testing.T) {
	for name, job := range map[string]func(w io.Writer){
		"printer on a terminal": func(w io.Writer) {
			p := &Printer{W: w, Terminal: true, Line: clock()}
			p.Start()
			time.Sleep(1900 * time.Millisecond)
			p.Next(func() {})
			p.Stop()
		},
		"bar in a log": func(w io.Writer) {
			b := New(w, "x")
			b.Start()
			b.Phase("", 2, "requests")
			b.Set(2, "")
			time.Sleep(time.Second)
			b.Stop()
		},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var out syncbuf.Buffer
				job(&out)
				if out.String() != "" {
					t.Fatalf("printed %q", out.String())
				}
			})
		})
	}
}

func TestOnATerminalTheLineIsRewrittenThenKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b syncbuf.Buffer
		p := &Printer{W: &b, Terminal: true, Every: time.Second, Line: clock()}
		p.Start()
		time.Sleep(3500 * time.Millisecond)
		synctest.Wait()
		p.Stop()
		want := "\r\x1b[Kat 2s\r\x1b[Kat 3s\r\x1b[Kat 4s (final)\n"
		if got := b.String(); got != want {
			t.Errorf("%q, want %q", got, want)
		}
	})
}

func TestInALogALineEveryFiveSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b syncbuf.Buffer
		p := &Printer{W: &b, Line: clock()}
		p.Start()
		time.Sleep(12500 * time.Millisecond)
		synctest.Wait()
		p.Stop()
		if got := strings.Split(strings.TrimSpace(b.String()), "\n"); fmt.Sprint(got) != "[at 2s at 7s at 12s at 13s (final)]" {
			t.Errorf("%q", got)
		}
	})
}

// Next ends the step's line before the next step draws: on a terminal it is kept and the next
// starts below it.
func TestNextKeepsTheLineOfTheStepDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b syncbuf.Buffer
		step := "reading"
		p := &Printer{W: &b, Terminal: true, Every: time.Second, Line: func(final bool) string {
			if final {
				return step + " done"
			}
			return step
		}}
		p.Start()
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		p.Next(func() { step = "replaying" })
		time.Sleep(time.Second)
		synctest.Wait()
		p.Stop()
		want := "\r\x1b[Kreading\r\x1b[Kreading done\n\r\x1b[Kreplaying\r\x1b[Kreplaying done\n"
		if got := b.String(); got != want {
			t.Errorf("%q, want %q", got, want)
		}
	})
}

// On a terminal a line wider than the terminal is cut to fit its one row (issue 27: a 110-column
// line on a 100-column terminal wrapped, and each redraw left the wrapped row behind), the width
// asked at each redraw, so a resize is followed.
func TestOnATerminalTheLineFitsTheWidth(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b syncbuf.Buffer
		line := strings.Repeat("x", 105) + "·12345" // 111 columns
		var width atomic.Int64                      // the printer's goroutine asks it while the test resizes
		width.Store(100)
		p := &Printer{W: &b, Terminal: true, Every: time.Second, Line: func(bool) string { return line }, Width: func() int { return int(width.Load()) }}
		p.Start()
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		width.Store(40) // resized
		time.Sleep(time.Second)
		synctest.Wait()
		p.Stop()
		draws := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\r")[1:]
		want := []int{100, 40, 40}
		if len(draws) != len(want) || strings.Count(b.String(), "\n") != 1 {
			t.Fatalf("%q", b.String())
		}
		for i, d := range draws {
			text, ok := strings.CutPrefix(d, "\x1b[K")
			if !ok || !strings.HasSuffix(text, "…") || term.DisplayWidth(text) != want[i] {
				t.Errorf("draw %d: %q (%d columns), want %d ending …", i, d, term.DisplayWidth(text), want[i])
			}
		}
	})
}

// A line that fits is drawn whole; in a log nothing is cut (each line stands on its own row and
// is never redrawn).
func TestALineThatFitsOrALogLineIsWhole(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		line := strings.Repeat("y", 110)
		for _, c := range []struct {
			terminal bool
			width    int
			want     string
		}{
			// Drawn at 2 s, then a last time by Stop.
			{true, 110, "\r\x1b[K" + line + "\r\x1b[K" + line + "\n"},
			{false, 10, line + "\n" + line + "\n"},
		} {
			var b syncbuf.Buffer
			p := &Printer{W: &b, Terminal: c.terminal, Line: func(bool) string { return line }, Width: func() int { return c.width }}
			p.Start()
			time.Sleep(2100 * time.Millisecond)
			synctest.Wait()
			p.Stop()
			if got := b.String(); got != c.want {
				t.Errorf("terminal %v: %q", c.terminal, got)
			}
		}
	})
}

// What is printed while the line shows goes above it: the line erased, the text written, the
// line drawn again, so a terminal keeps one line of progress (issue 27).
func TestPrintGoesAboveTheLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b syncbuf.Buffer
		p := &Printer{W: &b, Terminal: true, Every: time.Second, Line: clock()}
		p.Print(&b, []byte("before\n"))
		p.Start()
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		p.Print(&b, []byte("--- FAIL: x\n"))
		p.Stop()
		want := "before\n\r\x1b[Kat 2s\r\x1b[K--- FAIL: x\n\r\x1b[Kat 3s\r\x1b[Kat 3s (final)\n"
		if got := b.String(); got != want {
			t.Errorf("%q, want %q", got, want)
		}
	})
}
