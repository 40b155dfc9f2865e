package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// lastFirst is a llama-server of one slot that, of the requests waiting for its slot, takes the
// one that came last: another order than the bench sent them in, as a real server's HTTP threads
// and deferred tasks can. Each request holds the slot 50 ms (20 reading the prompt, 30
// generating), and its answer's timings say so, as llama-server's do.
type lastFirst struct {
	cache   *cachesim.Cache
	mu      sync.Mutex
	waiting []chan cachesim.Result
	bodies  [][]byte
	wake    chan struct{}
}

func (s *lastFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	done := make(chan cachesim.Result, 1)
	s.mu.Lock()
	s.waiting, s.bodies = append(s.waiting, done), append(s.bodies, body)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	res := <-done
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"ok"}}],"usage":{"prompt_tokens":%d,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":%d}},"timings":{"cache_n":%d,"prompt_n":%d,"prompt_ms":20,"predicted_n":1,"predicted_ms":30}}`,
		res.PromptTokens, res.CachedTokens, res.CachedTokens, res.PromptTokens-res.CachedTokens)
}

// serve takes the last request waiting, a millisecond after the first came (so that requests
// sent at once are all waiting), until ctx ends.
func (s *lastFirst) serve(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		time.Sleep(time.Millisecond)
		for {
			s.mu.Lock()
			n := len(s.waiting)
			if n == 0 {
				s.mu.Unlock()
				break
			}
			done, body := s.waiting[n-1], s.bodies[n-1]
			s.waiting, s.bodies = s.waiting[:n-1], s.bodies[:n-1]
			s.mu.Unlock()
			res, _ := s.cache.Serve(body)
			time.Sleep(50 * time.Millisecond)
			done <- res
		}
	}
}

// recorderTransport calls a handler in-process and answers with what it wrote.
type recorderTransport struct{ h http.Handler }

func (t recorderTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, req)
	return rec.Result(), nil
}

// With sessions at once, the prediction follows the order in which the server took the
// requests, read from its answers' timings, not the order the bench sent them: against a server
// that takes the last waiting first, every request is predicted exactly.
func TestPredictionFollowsTheServersOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tok := tiktoken(t)
		cache, err := cachesim.NewWith(1, cachesim.Options{Tokenizer: tok})
		if err != nil {
			t.Fatal(err)
		}
		srv := &lastFirst{cache: cache, wake: make(chan struct{}, 1)}
		ctx, stop := context.WithCancel(context.Background())
		served := make(chan struct{})
		go func() { srv.serve(ctx); close(served) }()
		defer func() { stop(); <-served }()
		snd := replay.Sender{URL: "http://last-first", Client: &http.Client{Transport: recorderTransport{srv}}}
		res, err := Bench(context.Background(), opener(clean), Options{Sender: snd, Tokenizer: tok, Concurrency: 3,
			Predictor: predictor(t, PredictorConfig{Slots: 1, Tokenizer: tok})})
		if err != nil {
			t.Fatal(err)
		}
		run := res.Runs[0]
		if run.Totals.Requests != 18 || run.Totals.Exact != run.Totals.Compared || run.Totals.Compared != run.Totals.Requests {
			for _, r := range run.Rows {
				t.Logf("session %d request %d: cached %v predicted %v %s", r.Session, r.N, *r.Usage.CachedTokens, r.Predicted, r.Detail)
			}
			t.Errorf("%d of %d exact, of %d requests", run.Totals.Exact, run.Totals.Compared, run.Totals.Requests)
		}
	})
}

// Where the server says the order (the simulator's ticks), a request is placed by them, and one
// it never gave a slot goes after every other: the timings' milliseconds are not ticks.
func TestSpanOfFollowsTheServersTicks(t *testing.T) {
	row := Row{Sent: 5 * time.Millisecond, TTFT: time.Millisecond, Total: 2 * time.Millisecond}
	// Ticks past the timings' milliseconds, as a long run's come to be.
	ticks := map[string][2]time.Duration{"req_fake1": {3e9, 4e9}}
	order := func(id string) (time.Duration, time.Duration, bool) {
		sp, ok := ticks[id]
		return sp[0], sp[1], ok
	}
	if b, e := spanOf(row, replay.Sent{RequestID: "req_fake1"}, order); b != 3e9 || e != 4e9 {
		t.Errorf("with ticks: %v–%v, want 3e9–4e9", b, e)
	}
	if b, e := spanOf(row, replay.Sent{RequestID: "req_fake2"}, order); b <= 4e9 || e < b {
		t.Errorf("without ticks: %v–%v, want after every tick", b, e)
	}
	if b, e := spanOf(row, replay.Sent{}, nil); b != 6*time.Millisecond || e != 7*time.Millisecond {
		t.Errorf("without an order: %v–%v, want the timings' 6ms–7ms", b, e)
	}
}
