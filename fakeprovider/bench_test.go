package fakeprovider_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/replay"
)

// The fake must not be what slows a harness test down: streamed replies from it are measured
// side by side with a bare net/http handler writing the same bytes (one write and flush per
// event), 64 clients at once.

// benchRequest is an agent's request: a system prompt, tools, a few turns.
var benchRequest = func() string {
	sys := strings.Repeat("You are a coding agent. Follow the rules. ", 40)
	return `{"model":"fake-model","stream":true,"stream_options":{"include_usage":true},"messages":[` +
		`{"role":"system","content":"` + sys + `"},{"role":"user","content":"Summarise README.md"}],` +
		`"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}},` +
		`{"type":"function","function":{"name":"bash","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}}]}`
}()

const benchScript = "rules:\n  - when: {tool_result: false}\n    reply: {text: \"The README describes a checker for harness implementations: it runs conformance cases against a reference, records sessions through a fake model server, and measures how much prompt cache each session keeps.\"}\n"

// captureEvents asks the fake once and splits its stream into events, the bytes the bare
// handler replays.
func captureEvents(tb testing.TB, url string) [][]byte {
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(benchRequest))
	if err != nil {
		tb.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var out [][]byte
	for _, ev := range bytes.SplitAfter(b, []byte("\n\n")) {
		if len(ev) > 0 {
			out = append(out, ev)
		}
	}
	return out
}

func bareHandler(events [][]byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		f := w.(http.Flusher)
		for _, ev := range events {
			w.Write(ev)
			f.Flush()
		}
	})
}

type result struct {
	reqPerSec, p50, p99 float64 // p50 and p99 in µs
}

// clients is 64 clients' connections to a server, opened before any timing so that dialling
// (64 connections at once) is not measured.
func clients(tb testing.TB, url string) *http.Client {
	tr := &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64, DisableCompression: true}
	tb.Cleanup(tr.CloseIdleConnections)
	c := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := c.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(benchRequest)); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	return c
}

// drive runs b.N streamed requests from 64 concurrent clients and reports throughput and latency.
func drive(b *testing.B, client *http.Client, url string) result {
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism((64 + 1) / 2) // 64 goroutines on 2 cores; RunParallel multiplies by GOMAXPROCS
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			resp, err := client.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(benchRequest))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[int(p*float64(len(lat)-1))].Microseconds())
	}
	r := result{reqPerSec: float64(len(lat)) / elapsed.Seconds(), p50: q(0.50), p99: q(0.99)}
	b.ReportMetric(r.reqPerSec, "req/s")
	b.ReportMetric(r.p50, "p50-µs")
	b.ReportMetric(r.p99, "p99-µs")
	return r
}

// BenchmarkStream: bare and fake, in one run. Compare req/s (the fake's should be at least half
// the bare handler's) and p99-µs (the fake may add under 1000).
func BenchmarkStream(b *testing.B) {
	s := mustParse(b, benchScript)
	fake, err := fakeprovider.Start(fakeprovider.Config{Script: s})
	if err != nil {
		b.Fatal(err)
	}
	defer fake.Close()
	bare := httptest.NewServer(bareHandler(captureEvents(b, fake.URL)))
	defer bare.Close()
	cb, cf := clients(b, bare.URL), clients(b, fake.URL)
	b.Run("bare", func(b *testing.B) { drive(b, cb, bare.URL) })
	b.Run("fake", func(b *testing.B) { drive(b, cf, fake.URL) })
}

// BenchmarkStreamRecorded is the fake with every exchange recorded to a file.
func BenchmarkStreamRecorded(b *testing.B) {
	s := mustParse(b, benchScript)
	fake := newRecordedFake(b, s)
	c := clients(b, fake.URL)
	b.Run("fake+record", func(b *testing.B) { drive(b, c, fake.URL) })
}

// TestStreamThroughput checks the done-when figures against the bare handler, when asked
// (LEMBAS_PERF=1): timing tests on a shared machine are for a quiet one.
func TestStreamThroughput(t *testing.T) {
	if os.Getenv("LEMBAS_PERF") == "" {
		t.Skip("set LEMBAS_PERF=1 to measure the fake against a bare handler (BenchmarkStream shows the same figures)")
	}
	fake := fakeprovider.New(t, mustParse(t, benchScript))
	bare := httptest.NewServer(bareHandler(captureEvents(t, fake.URL)))
	defer bare.Close()
	cb, cf := clients(t, bare.URL), clients(t, fake.URL)
	measure := func(c *http.Client, url string) result {
		var r result
		testing.Benchmark(func(b *testing.B) { r = drive(b, c, url) })
		return r
	}
	var rb, rf result
	for round := 0; round < 3; round++ {
		// Alternate, and keep each side's best round: noise only ever slows a run.
		if r := measure(cb, bare.URL); r.reqPerSec > rb.reqPerSec {
			rb = r
		}
		if r := measure(cf, fake.URL); r.reqPerSec > rf.reqPerSec {
			rf = r
		}
	}
	t.Logf("bare: %.0f req/s, p50 %.0fµs, p99 %.0fµs", rb.reqPerSec, rb.p50, rb.p99)
	t.Logf("fake: %.0f req/s, p50 %.0fµs, p99 %.0fµs", rf.reqPerSec, rf.p50, rf.p99)
	if rf.reqPerSec < rb.reqPerSec/2 {
		t.Errorf("the fake serves %.0f req/s, under half the bare handler's %.0f", rf.reqPerSec, rb.reqPerSec)
	}
	if added := rf.p99 - rb.p99; added >= 1000 {
		t.Errorf("the fake adds %.0fµs at p99 (bare %.0f, fake %.0f); the bound is 1000", added, rb.p99, rf.p99)
	}
}

func newRecordedFake(b *testing.B, s *script.Script) *fakeprovider.Server {
	w, err := replay.Create(filepath.Join(b.TempDir(), "rec.jsonl"), replay.Header{Source: "fake"})
	if err != nil {
		b.Fatal(err)
	}
	srv, err := fakeprovider.Start(fakeprovider.Config{Script: s, Record: w})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close(); w.Close() })
	return srv
}
