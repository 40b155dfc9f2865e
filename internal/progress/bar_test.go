package progress

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/internal/syncbuf"
)

func TestLine(t *testing.T) {
	for _, c := range []struct {
		s    State
		want string
	}{
		{State{Label: "lembas-check bench r.jsonl", Phase: "baseline: replaying", Done: 6, Total: 24, Unit: "requests", Elapsed: 1500 * time.Millisecond, Note: "cached 10"},
			"lembas-check bench r.jsonl: baseline: replaying [#####...............] 6/24 requests  25 % · 1.5s · 4.0 requests/s · ETA 4.5s · cached 10"},
		{State{Label: "lembas-check audit big.jsonl", Phase: "tokenizing", Done: 12_100_000, Total: 36_000_000, Unit: Bytes, Elapsed: 3 * time.Second},
			"lembas-check audit big.jsonl: tokenizing [######..............] 12.1/36.0 MB  34 % · 3s · 4.0 MB/s · ETA 5.9s"},
		// Done: no ETA; the clock is the phase's.
		{State{Label: "lembas-check run", Done: 114, Total: 114, Unit: "cases", Elapsed: 72 * time.Second, Note: "110 pass, 4 fail", Final: true},
			"lembas-check run: [####################] 114/114 cases 100 % · 1m12s · 1.6 cases/s · 110 pass, 4 fail"},
		// No total: a count, no bar, no ETA.
		{State{Label: "lembas-check audit -", Phase: "tokenizing", Done: 3_500, Unit: Bytes, Elapsed: time.Second}, "lembas-check audit -: tokenizing 3.5 kB · 1s · 3.5 kB/s"},
		{State{Label: "x", Done: 0, Total: 9, Unit: "cases"}, "x: [....................] 0/9 cases   0 % · 0s"},
	} {
		if got := c.s.Line(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// Each phase is shown (issue 16: bench showed nothing for 16 s before its first bar), its line
// ends with its last state when the next starts, and a finished bar's clock stops (issue 16: it
// ran on until the next run started).
func TestBarPhases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out syncbuf.Buffer
		b := New(&out, "lembas-check bench r.jsonl")
		b.Start()
		var offset atomic.Int64
		b.Phase("reading", 1000, Bytes)
		b.Poll(offset.Load)
		offset.Store(500)
		time.Sleep(2500 * time.Millisecond) // one line at 2 s
		synctest.Wait()
		offset.Store(1000)
		b.Phase("baseline: replaying", 4, "requests")
		b.Set(1, "request 3")
		time.Sleep(5 * time.Second) // one line at 7 s
		synctest.Wait()
		b.Set(4, "request 9")
		b.Stop()
		time.Sleep(time.Minute)
		synctest.Wait()
		want := []string{
			"lembas-check bench r.jsonl: reading [##########..........] 0.5/1.0 kB  50 % · 2s · 250 B/s · ETA 2s",
			"lembas-check bench r.jsonl: reading [####################] 1.0/1.0 kB 100 % · 2.5s · 400 B/s",
			"lembas-check bench r.jsonl: baseline: replaying [#####...............] 1/4 requests  25 % · 4.5s · 0.2 requests/s · ETA 14s · request 3",
			"lembas-check bench r.jsonl: baseline: replaying [####################] 4/4 requests 100 % · 5s · 0.8 requests/s · request 9",
		}
		if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// A file's size counts its bytes; a folder or a missing file is not known (0).
func TestFileSize(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("12345"), 0o644)
	if FileSize(p) != 5 || FileSize(dir) != 0 || FileSize(filepath.Join(dir, "none")) != 0 {
		t.Errorf("%d %d %d", FileSize(p), FileSize(dir), FileSize(filepath.Join(dir, "none")))
	}
}
