package progress

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/internal/syncbuf"
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
		want := "\rat 2s\x1b[K\rat 3s\x1b[K\rat 4s (final)\x1b[K\n"
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
		want := "\rreading\x1b[K\rreading done\x1b[K\n\rreplaying\x1b[K\rreplaying done\x1b[K\n"
		if got := b.String(); got != want {
			t.Errorf("%q, want %q", got, want)
		}
	})
}
