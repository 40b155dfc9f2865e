package fakeprovider_test

import (
	"bufio"
	"context"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// No goroutine outlives 10,000 requests whose clients hang up mid-stream (half by cancelling
// the request, half by closing the body), and every one of them is recorded. Each stream stalls
// for good after its first event, so only noticing the hang-up ends its handler: the count is
// checked while the server still runs, and again after it stopped.
func TestNoGoroutineLeak(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	before := runtime.NumGoroutine()
	s := mustParse(t, "rules:\n  - when: {tool_result: false}\n    reply: {text: \"a b c\", fault: {stall: forever, stall_after: 1}}\n")
	path, w := recording(t, replay.Header{Source: "fake"})
	srv, err := fakeprovider.Start(fakeprovider.Config{Script: s, Record: w})
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	client := &http.Client{Transport: tr}
	var next, midStream atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(n) {
					return
				}
				ctx, cancel := context.WithCancel(context.Background())
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.BaseURL()+"/chat/completions", strings.NewReader(streamHello))
				resp, err := client.Do(req)
				if err != nil {
					cancel()
					t.Error(err)
					return
				}
				// Read the first event, then go away.
				line, _ := bufio.NewReader(resp.Body).ReadString('\n')
				if strings.HasPrefix(line, "data: {") {
					midStream.Add(1)
				}
				if i%2 == 0 {
					cancel()
					resp.Body.Close()
				} else {
					resp.Body.Close()
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	if midStream.Load() != int64(n) {
		t.Errorf("%d of %d clients got a first event", midStream.Load(), n)
	}
	tr.CloseIdleConnections()
	// Every handler records its exchange once it has noticed its client left: wait for all of
	// them before stopping the server. (Stopping earlier would wake a stall that is still
	// waiting, and counting goroutines alone cannot tell it is there: another goroutine counted
	// in `before` may have ended meanwhile.)
	waitExchanges(t, path, n)
	// The server's accept loop is the one goroutine it keeps while it runs.
	waitGoroutines(t, before+1)
	if err := srv.Shutdown(context.Background()); err != nil { // no bound of its own: go test's -timeout
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	waitGoroutines(t, before)
	if srv.Requests() != n {
		t.Errorf("%d requests served, want %d", srv.Requests(), n)
	}
	es, _, err := replay.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	// Most notice the hang-up during the stall; one whose client left as its first chunk was
	// flushed notices it there. Either way, after 1 chunk.
	hungUp, other := 0, map[string]int{}
	for _, e := range es {
		if strings.HasPrefix(e.Exchange.Error, "the client hung up after 1 chunks") {
			hungUp++
		} else {
			other[e.Exchange.Error]++
		}
	}
	if len(es) != n || hungUp != n {
		t.Errorf("recorded %d exchanges, %d of them hung up after 1 chunk; want %d, all; others: %v", len(es), hungUp, n, other)
	}
}

// waitGoroutines waits until at most max goroutines run. A poll, not a bound: go test's -timeout
// catches goroutines that never end, and its dump shows them.
func waitGoroutines(t *testing.T, max int) {
	t.Helper()
	for runtime.NumGoroutine() > max {
		time.Sleep(20 * time.Millisecond)
	}
}
