package runner

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// lockedBuffer is written by the printer's goroutine and read by the test.
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

func (l *lockedBuffer) Len() int { return len(l.String()) }

func TestProgressLine(t *testing.T) {
	got := ProgressLine("run", 57, 114, Counts{Pass: 50, Fail: 3, Skip: 4}, 12300*time.Millisecond)
	if want := "lembas-check run: 57/114 cases, 12s: 50 pass, 3 fail, 4 skip"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := ProgressLine("diff b", 0, 9, Counts{}, 0); got != "lembas-check diff b: 0/9 cases, 0s" {
		t.Errorf("%q", got)
	}
}

// In a log: nothing for a run shorter than 2 s, then a line every 5 s.
func TestProgressLog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b lockedBuffer
		p := &Progress{W: &b, Label: "run", Total: 10}
		p.Start()
		p.Add(Result{Verdict: Pass})
		time.Sleep(1900 * time.Millisecond)
		synctest.Wait()
		if b.Len() != 0 {
			t.Fatalf("progress before 2s: %q", b.String())
		}
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		p.Add(Result{Verdict: Timeout})
		time.Sleep(5 * time.Second)
		synctest.Wait()
		p.Stop()
		want := "lembas-check run: 1/10 cases, 2s: 1 pass\nlembas-check run: 2/10 cases, 7s: 1 pass, 1 timeout\n"
		if b.String() != want {
			t.Errorf("%q, want %q", b.String(), want)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		var b lockedBuffer
		p := &Progress{W: &b, Total: 1}
		p.Start()
		time.Sleep(time.Second)
		p.Stop()
		if b.Len() != 0 {
			t.Errorf("a short run printed %q", b.String())
		}
	})
}

// On a terminal: one line rewritten with \r, cleared at the end.
func TestProgressTerminal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var b lockedBuffer
		p := &Progress{W: &b, Label: "run", Total: 3, Terminal: true}
		p.Start()
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		p.Stop()
		s := b.String()
		if n := strings.Count(s, "\r"); n != 4 || strings.Contains(s, "\n") || !strings.HasSuffix(s, "\r\x1b[K") || !strings.HasPrefix(s, "\rlembas-check run: 0/3 cases, 2s\x1b[K") {
			t.Errorf("%d redraws: %q", n, s)
		}
	})
}
