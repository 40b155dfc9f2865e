package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Sessions at once against a simulated llama-server of fewer slots than sessions: requests wait
// for a slot (their TTFT counts the wait), evict each other's prompts, and the prediction — the
// same simulator, fed the requests in the order the bench sent them and the answers as they came
// — agrees with what the server reported, request for request. Time is synctest's: exact.
func TestConcurrencyAgreesWithTheSimulator(t *testing.T) {
	t.Setenv("COLUMNS", "400") // the cells whole, as they come: a test of what they say, not of the layout
	for _, c := range []struct {
		slots, sessions int
		rate            float64
	}{
		{1, 3, 10}, // sessions 100 ms apart, each request holding the one slot 70 ms
		{2, 4, 10},
		{4, 4, 0}, // as many slots as sessions, all at once: each keeps its own
	} {
		t.Run(fmt.Sprintf("%d slots %d sessions", c.slots, c.sessions), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tok := tiktoken(t)
				cache, err := cachesim.NewWith(c.slots, cachesim.Options{Tokenizer: tok})
				if err != nil {
					t.Fatal(err)
				}
				srv, err := fakeprovider.NewInProcess(fakeprovider.Config{Dialect: usage.LlamaCpp, Cache: cache, Models: []string{"qwen3-coder"},
					Script: &script.Script{Name: "slow", Rules: []script.Rule{{Reply: script.Reply{Text: "ok", Delay: 70 * time.Millisecond}}}}})
				if err != nil {
					t.Fatal(err)
				}
				snd := replay.Sender{URL: "http://fake", Client: srv.Client()}
				sim := &Sim{Server: srv, Cache: cache}
				res, err := Bench(context.Background(), opener(clean), Options{Sender: snd, Reset: sim.Reset, Tokenizer: tok, Concurrency: c.sessions, Rate: c.rate,
					Predictor: predictor(t, PredictorConfig{Slots: c.slots, Tokenizer: tok})})
				if err != nil {
					t.Fatal(err)
				}
				run := res.Runs[0]
				if res.Sessions != c.sessions || len(run.Sessions) != c.sessions || run.Totals.Requests != 6*c.sessions {
					t.Fatalf("%d sessions, %d requests", len(run.Sessions), run.Totals.Requests)
				}
				if run.Totals.Exact != run.Totals.Compared || run.Totals.Compared != run.Totals.Requests {
					for _, r := range run.Rows {
						t.Logf("session %d request %d: cached %v predicted %v %s", r.Session, r.N, *r.Usage.CachedTokens, *r.Predicted, r.Detail)
					}
					t.Errorf("%d of %d exact", run.Totals.Exact, run.Totals.Compared)
				}
				slowest := time.Duration(0)
				for _, r := range run.Rows {
					slowest = max(slowest, r.TTFT)
				}
				// With a slot per session nothing waits; with fewer, some request waits its turn.
				if c.slots >= c.sessions && slowest != 70*time.Millisecond || c.slots < c.sessions && slowest <= 70*time.Millisecond {
					t.Errorf("slowest TTFT %v", slowest)
				}
				for _, s := range run.Sessions {
					if s.Totals.Requests != 6 || s.TTFT.N != 6 || s.TTFT.P50 < 70 {
						t.Errorf("session %d: %+v", s.Session, s)
					}
				}
				var out strings.Builder
				if err := Write(&out, res, "table", false); err != nil || !strings.Contains(out.String(), "TTFT ms p50 / p90 / p99") || !strings.Contains(out.String(), "│ baseline │ all") {
					t.Errorf("%v\n%s", err, out.String())
				}
			})
		})
	}
}

// Copies after the first are their own conversations from the first user message on: the system
// prompt and tools are the recording's, shared.
func TestCopiesShareTheSystemPromptNotTheConversation(t *testing.T) {
	b := []byte(`{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"user","content":"again"}]}`)
	got, err := MarkSession(3, b)
	if err != nil || string(got) != `{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":[{"type":"text","text":"Session 3.\n\nhi"}]},{"role":"user","content":"again"}]}` {
		t.Errorf("%s %v", got, err)
	}
	if _, err := MarkSession(2, []byte(`{"messages":[{"role":"system","content":"S"}]}`)); err == nil {
		t.Error("no user message, yet marked")
	}
}
