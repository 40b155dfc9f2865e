package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Against vLLM (the fake in its dialect): the cache is emptied by POST /reset_prefix_cache, the
// cached tokens come from OpenAI's field, whole blocks at a time, and the server's own
// prefix-cache counters over the run agree with the sums of what its answers said — with several
// sessions at once too.
func TestVLLMIsMeasuredAsItIs(t *testing.T) {
	srv := okFake(t, fakeprovider.Config{Models: []string{"qwen3-coder"}, Dialect: usage.VLLM})
	for _, sessions := range []int{1, 3} {
		res, err := Bench(context.Background(), opener(clean), Options{Sender: replay.Sender{URL: srv.URL}, Cold: true, Concurrency: sessions})
		if err != nil {
			t.Fatal(err)
		}
		run := res.Runs[0]
		if run.Cold != "emptied (POST /reset_prefix_cache)" || !strings.HasPrefix(run.ColdCheck, "cold:") {
			t.Errorf("%d sessions: cold %q, %q", sessions, run.Cold, run.ColdCheck)
		}
		if run.Totals.Reported != 6*sessions || run.Totals.Cached == 0 || res.Predictor != "" || run.Totals.Compared != 0 {
			t.Errorf("%d sessions: totals %+v, predictor %q", sessions, run.Totals, res.Predictor)
		}
		for _, r := range run.Rows {
			if r.Usage.Dialect != usage.OpenAI || *r.Usage.CachedTokens%16 != 0 {
				t.Errorf("request %d: %+v", r.N, r.Usage)
			}
		}
		c := run.Counters
		if c == nil || c.Source != "vllm" || int64(c.Cached) != run.Totals.Cached || int64(c.Prompt) != run.Totals.Prompt {
			t.Errorf("%d sessions: counters %+v, totals %+v", sessions, c, run.Totals)
		}
		var out strings.Builder
		Write(&out, res, "table", false)
		if !strings.Contains(out.String(), "cached tokens (server's /metrics)") {
			t.Errorf("the table lacks the server's counters:\n%s", out.String())
		}
	}
}
