package fakeprovider

import (
	"context"
	"net/http"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/prometheus/client_golang/prometheus"
)

// In the vllm dialect the fake plays vLLM's OpenAI-compatible server: its prefix cache is a pool
// of KV blocks (cachesim.Blocks, 16 tokens a block), the usage carries
// prompt_tokens_details.cached_tokens, /metrics has vLLM's prefix-cache counters, and POST
// /reset_prefix_cache empties the cache (vLLM serves it with VLLM_SERVER_DEV_MODE=1).

// vllmBlocks is how many blocks the fake's pool holds: a million tokens.
const vllmBlocks = 1 << 16

// vllmMetrics are vLLM's counters, labelled by model as vLLM labels them.
type vllmMetrics struct {
	queries, hits, prompt, generation *prometheus.CounterVec
}

func newVLLMMetrics(reg *prometheus.Registry) *vllmMetrics {
	model := []string{"model_name"}
	m := &vllmMetrics{
		queries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "vllm:prefix_cache_queries_total",
			Help: "Prefix cache queries, in terms of number of queried tokens."}, model),
		hits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "vllm:prefix_cache_hits_total",
			Help: "Prefix cache hits, in terms of number of cached tokens."}, model),
		prompt: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "vllm:prompt_tokens_total",
			Help: "Number of prefill tokens processed."}, model),
		generation: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "vllm:generation_tokens_total",
			Help: "Number of generation tokens processed."}, model),
	}
	reg.MustRegister(m.queries, m.hits, m.prompt, m.generation)
	return m
}

// serveBlocks is the vllm dialect's cache: the request's prompt against the block pool.
func (s *Server) serveBlocks(ctx context.Context, body []byte, model string) (cachesim.Result, error) {
	r, err := chat.Parse(body)
	if err != nil {
		return cachesim.Result{}, err
	}
	p, err := s.cache.Prompt(ctx, body, r)
	if err != nil {
		return cachesim.Result{}, err
	}
	res := s.blocks.Serve(p)
	s.vllm.queries.WithLabelValues(model).Add(float64(res.PromptTokens))
	s.vllm.hits.WithLabelValues(model).Add(float64(res.CachedTokens))
	s.vllm.prompt.WithLabelValues(model).Add(float64(res.PromptTokens))
	return res, nil
}

func (s *Server) handleResetPrefixCache(w http.ResponseWriter, r *http.Request) {
	s.blocks.Reset()
	w.WriteHeader(http.StatusOK)
}

// vllmModels makes every model's counters exist at 0 from the start, as vLLM's do.
func (s *Server) vllmModels() {
	for _, m := range s.models {
		for _, c := range []*prometheus.CounterVec{s.vllm.queries, s.vllm.hits, s.vllm.prompt, s.vllm.generation} {
			c.WithLabelValues(m)
		}
	}
}
