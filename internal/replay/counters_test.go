package replay_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

func TestParseCacheCounters(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       *replay.CacheCounters
	}{
		{"vllm", `# HELP vllm:prefix_cache_queries_total Prefix cache queries.
# TYPE vllm:prefix_cache_queries_total counter
vllm:prefix_cache_queries_total{engine="0",model_name="m"} 2639.0
vllm:prefix_cache_queries_total{engine="1",model_name="m"} 100
vllm:prefix_cache_hits_total{engine="0",model_name="m"} 2048.0
vllm:prefix_cache_hits_total{engine="1",model_name="m"} 0
vllm:prompt_tokens_total{model_name="m"} 2739
`, &replay.CacheCounters{Source: "vllm", Prompt: 2739, Cached: 2048}},
		{"sglang", `sglang:prompt_tokens_total{model_name="a {b}"} 8.128902e+06
sglang:cached_tokens_total{model_name="a {b}",cache_source="device"} 1e6
sglang:cached_tokens_total{model_name="a \"x\" }",cache_source="host"} 5e5 1700000000000
`, &replay.CacheCounters{Source: "sglang", Prompt: 8128902, Cached: 1.5e6}},
		{"llama.cpp", "llamacpp:prompt_tokens_total 580\nllamacpp:prompt_tokens_cached_total 2059\nllamacpp:prompt_seconds_total 1.5\n",
			&replay.CacheCounters{Source: "llama.cpp", Prompt: 2639, Cached: 2059, PromptSeconds: 1.5}},
		{"the fake's own", "lembas_fake_cached_tokens_total 5\n", nil},
		{"garbage", "vllm:prefix_cache_queries_total{model_name=\"m\" 3\nvllm:prefix_cache_hits_total x\n", nil},
	} {
		got := replay.ParseCacheCounters([]byte(c.text))
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	a := replay.CacheCounters{Source: "vllm", Prompt: 10, Cached: 4}
	if d := a.Sub(replay.CacheCounters{Source: "vllm", Prompt: 3, Cached: 1}); d.Prompt != 7 || d.Cached != 3 {
		t.Errorf("sub %+v", d)
	}
}

func FuzzParseCacheCounters(f *testing.F) {
	f.Add([]byte("vllm:prefix_cache_queries_total{a=\"b\"} 1\nvllm:prefix_cache_hits_total 0\n"))
	f.Add([]byte("llamacpp:prompt_tokens_total 5\nllamacpp:prompt_tokens_cached_total{x=\"}\\\"\"} 2 3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if c := replay.ParseCacheCounters(b); c != nil && c.Source == "" {
			t.Errorf("counters without a source: %+v", c)
		}
	})
}

// A server with no counters to read is said so, with what its /metrics answered: llama-server
// without --metrics (501), or one whose /metrics lacks the cached-tokens counter.
func TestMissingCountersSayWhy(t *testing.T) {
	for _, c := range []struct {
		code int
		body string
		want string
	}{
		{501, `{"error":{"code":501,"message":"This server does not support metrics endpoint. Start it with --metrics"}}`, "GET /metrics: 501 Not Implemented (llama-server serves it only when started with --metrics)"},
		{200, "llamacpp:prompt_tokens_total 10\nllamacpp:prompt_seconds_total 1\n", "/metrics has no llamacpp:prompt_tokens_cached_total (a llama-server older than that counter)"},
		{200, "go_goroutines 7\n", "/metrics has no prompt-cache counters of llama-server, vLLM or SGLang (docs/bench.md)"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(c.code)
			io.WriteString(w, c.body)
		}))
		s := replay.Sender{URL: srv.URL}
		if got, why := s.ReadCacheCounters(context.Background()); got != nil || why != c.want {
			t.Errorf("%d %q: %+v, %q", c.code, c.body, got, why)
		}
		srv.Close()
	}
}
