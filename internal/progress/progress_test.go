package progress

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func line(d time.Duration) string { return fmt.Sprintf("at %s", d.Round(time.Second)) }

func TestAQuickJobPrintsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b lockedBuffer
		p := &Printer{W: &b, Terminal: true, Keep: true, Line: line}
		p.Start()
		time.Sleep(1900 * time.Millisecond)
		p.Stop()
		if b.String() != "" {
			t.Fatalf("printed %q", b.String())
		}
	})
}

func TestOnATerminalTheLineIsRewrittenThenClearedOrKept(t *testing.T) {
	for _, keep := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			var b lockedBuffer
			p := &Printer{W: &b, Terminal: true, Every: time.Second, Keep: keep, Line: line}
			p.Start()
			time.Sleep(3500 * time.Millisecond)
			synctest.Wait()
			p.Stop()
			want := "\rat 2s\x1b[K\rat 3s\x1b[K"
			if keep {
				want += "\rat 4s\x1b[K\n"
			} else {
				want += "\r\x1b[K"
			}
			if got := b.String(); got != want {
				t.Errorf("keep %v: %q, want %q", keep, got, want)
			}
		})
	}
}

func TestInALogALineEveryFiveSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b lockedBuffer
		p := &Printer{W: &b, Line: line}
		p.Start()
		time.Sleep(12500 * time.Millisecond)
		synctest.Wait()
		p.Stop()
		if got := strings.Split(strings.TrimSpace(b.String()), "\n"); fmt.Sprint(got) != "[at 2s at 7s at 12s]" {
			t.Errorf("%q", got)
		}
	})
}
