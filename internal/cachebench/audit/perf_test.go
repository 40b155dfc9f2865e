package audit

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/gen"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// The benchmarks audit generated sessions two ways, side by side in one run:
//
//   - incremental: the audit as it is (each part tokenized once, by its SHA-256);
//   - read: only reading the recording, which any audit must do (its size is the sum of the
//     prompts' sizes);
//   - naive: the baseline a first attempt would write — every request's whole prompt rendered
//     and tokenized again, compared with the previous one token by token.
//
//	go test -run '^$' -bench . -benchtime 1x ./internal/cachebench/audit
//
// Figures are in docs/performance.md. The sessions are generated once into the temporary
// directory and reused.

var genMu sync.Mutex

// session writes (once) and returns a generated recording.
func session(b *testing.B, o gen.LargeOptions) string {
	b.Helper()
	genMu.Lock()
	defer genMu.Unlock()
	dir := filepath.Join(os.TempDir(), "lembas-check-bench")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, fmt.Sprintf("large-%d-%d-%d-%d.jsonl", o.Requests, o.Tokens, o.Step, o.Seed))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := gen.WriteLarge(w, o); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// peak samples the heap while f runs and returns its highest in-use bytes.
func peak(f func()) uint64 {
	runtime.GC()
	debug.FreeOSMemory()
	var hi uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			hi = max(hi, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return hi
}

type totals struct {
	requests         int
	prompt, reusable int64
	encoded          int64
}

func newTiktoken(b testing.TB) *tokens.Tiktoken {
	tk, err := tokens.NewTiktoken()
	if err != nil {
		b.Fatal(err)
	}
	return tk
}

// openSession opens a recording for one pass over it; done closes it.
func openSession(b testing.TB, path string) (r *replay.Reader, done func()) {
	r, f, err := replay.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	return r, func() { f.Close() }
}

func incremental(b testing.TB, path string) totals {
	tk := newTiktoken(b)
	r, done := openSession(b, path)
	defer done()
	rep, err := Run(context.Background(), r, Options{Tokenizer: tk}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return totals{rep.Totals.Requests, rep.Totals.PromptTokens, rep.Totals.ReusableTokens, tk.Encoded()}
}

// readOnly only reads the recording (every exchange, its body put back together and checked
// against its SHA-256): what any audit of the file must pay before its own work.
func readOnly(b testing.TB, path string) totals {
	r, done := openSession(b, path)
	defer done()
	var t totals
	for {
		if _, err := r.Next(); err != nil {
			break
		}
		t.requests++
	}
	return t
}

// lines reads the recording line by line and does nothing with them: the floor any reader of
// a JSON-lines file pays (reading the file alone).
func lines(b testing.TB, path string) totals {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for {
		if _, err := br.ReadSlice('\n'); err != nil && err != bufio.ErrBufferFull {
			return totals{}
		}
	}
}

// naive re-renders and re-tokenizes every request's whole prompt, with no cache.
func naive(b testing.TB, path string) totals {
	tk := newTiktoken(b)
	r, done := openSession(b, path)
	defer done()
	var t totals
	var prev []uint32
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		req, err := chat.Parse(e.Body)
		if err != nil {
			b.Fatal(err)
		}
		var flat []uint32
		for _, p := range req.Parts() {
			flat = append(flat, tk.Encode(p)...)
		}
		n := 0
		for n < len(flat) && n < len(prev) && flat[n] == prev[n] {
			n++
		}
		t.requests++
		t.prompt += int64(len(flat))
		t.reusable += int64(n)
		t.encoded += int64(len(flat))
		prev = flat
	}
	return t
}

func run(b *testing.B, path string, how func(testing.TB, string) totals) {
	var t totals
	var hi uint64
	start, cpu := time.Now(), cpuTime()
	for b.Loop() {
		hi = peak(func() { t = how(b, path) })
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "s-cpu/audit")
	b.ReportMetric(float64(t.requests), "requests")
	b.ReportMetric(float64(t.prompt)/1e6, "Mtok-cumulative")
	b.ReportMetric(float64(t.encoded)/1e6, "Mtok-encoded")
	if t.prompt > 0 {
		b.ReportMetric(float64(t.reusable)/float64(t.prompt)*100, "%reusable")
	}
	b.ReportMetric(float64(hi)/(1<<20), "MB-peak-heap")
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/audit")
}

// The session: 2,000 requests, about 40 million cumulative prompt tokens (with
// compactions, as a long session has them), as `go run ./internal/cachebench/cmd/gen -large 2000` makes it.
func BenchmarkAudit2000(b *testing.B) {
	path := session(b, gen.LargeOptions{Requests: 2000, Tokens: 40_000_000, Seed: 1})
	b.Run("read", func(b *testing.B) { run(b, path, readOnly) })
	b.Run("incremental", func(b *testing.B) { run(b, path, incremental) })
	b.Run("naive", func(b *testing.B) { run(b, path, naive) })
}

// BenchmarkAuditFile reads and audits the recording $LEMBAS_AUDIT_FILE, side by side in one run
// (scripts/bench-audit.sh): its lines alone (the baseline), the reader alone, the audit.
func BenchmarkAuditFile(b *testing.B) {
	path := os.Getenv("LEMBAS_AUDIT_FILE")
	if path == "" {
		b.Skip("set LEMBAS_AUDIT_FILE to a recording (scripts/bench-audit.sh makes one)")
	}
	b.Run("lines", func(b *testing.B) { run(b, path, lines) })
	b.Run("read", func(b *testing.B) { run(b, path, readOnly) })
	b.Run("incremental", func(b *testing.B) { run(b, path, incremental) })
}

// Sessions that only grow (no compaction), twice as long each time: the cumulative tokens grow
// with the square of the length, the new tokens with the length.
func BenchmarkAuditGrowth(b *testing.B) {
	for _, n := range []int{125, 250, 500} {
		path := session(b, gen.LargeOptions{Requests: n, Step: 100, Seed: 2})
		b.Run(fmt.Sprintf("read/n=%d", n), func(b *testing.B) { run(b, path, readOnly) })
		b.Run(fmt.Sprintf("incremental/n=%d", n), func(b *testing.B) { run(b, path, incremental) })
		b.Run(fmt.Sprintf("naive/n=%d", n), func(b *testing.B) { run(b, path, naive) })
	}
}

// The two ways agree: on a session that keeps the prefix (each request continues the one before),
// the audit's reusable tokens are the naive comparison's.
func TestIncrementalAgreesWithNaive(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a session")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	f, _ := os.Create(path)
	w := bufio.NewWriter(f)
	if err := gen.WriteLarge(w, gen.LargeOptions{Requests: 120, Tokens: 1_500_000, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	f.Close()
	inc, nv := incremental(t, path), naive(t, path)
	if inc.prompt != nv.prompt || inc.reusable != nv.reusable || inc.requests != nv.requests {
		t.Errorf("incremental %+v, naive %+v", inc, nv)
	}
	if inc.encoded*5 > nv.encoded {
		t.Errorf("incremental encoded %d tokens, naive %d: the cache is not working", inc.encoded, nv.encoded)
	}
}

// The audit costs a few reads of the recording, not the square of its length: on a generated
// session, its CPU time is within auditReads times the reader's alone, measured in the same
// process one after the other, best of two (CPU, not wall: it holds on a loaded machine). The audit
// costs about 2 reads (3.8 with regexp2's pre-tokenizer, before 2026-12-01); re-tokenizing every
// prompt (naive) some 30 (docs/performance.md), which is what the bound is there to catch. The
// reader itself is held within readerLines times reading the file's lines and nothing more.
func TestAuditCostsAFewReads(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a session and times it (-short skips it)")
	}
	if raceEnabled {
		t.Skip("the race detector's cost is not the audit's")
	}
	const auditReads = 4
	// The reader against the file's lines read and dropped (lines): 12–19 line reads measured
	// (2026-12-02, loaded); the bound leaves room for a loaded machine's noise.
	const readerLines = 30
	path := filepath.Join(t.TempDir(), "s.jsonl")
	f, _ := os.Create(path)
	w := bufio.NewWriter(f)
	if err := gen.WriteLarge(w, gen.LargeOptions{Requests: 400, Tokens: 400 * 20000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	f.Close()
	newTiktoken(t) // the tables, loaded once per process, are no part of either
	best := func(f func()) time.Duration {
		lo := time.Duration(1 << 62)
		for range 2 {
			c := cpuTime()
			f()
			lo = min(lo, cpuTime()-c)
		}
		return lo
	}
	floor := best(func() { lines(t, path) })
	read := best(func() { readOnly(t, path) })
	aud := best(func() { incremental(t, path) })
	if read == 0 || floor == 0 {
		t.Skip("no CPU time to compare on this OS (getrusage)")
	}
	t.Logf("lines %v, reader %v, audit %v of CPU: the reader %.1f line reads, the audit %.1f reads", floor, read, aud,
		float64(read)/float64(floor), float64(aud)/float64(read))
	if read > readerLines*floor {
		t.Errorf("the reader took %v of CPU, %.1f times reading the file's lines alone (%v): over %d", read,
			float64(read)/float64(floor), floor, readerLines)
	}
	if aud > auditReads*read {
		t.Errorf("the audit took %v of CPU, %.1f times the reader's %v: over %d", aud, float64(aud)/float64(read), read, auditReads)
	}
}
