package fakeprovider

import (
	"context"
	"net/http"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/metrics"
)

// In the vllm dialect the fake plays vLLM's OpenAI-compatible server: its prefix cache is a pool
// of KV blocks (cachesim.Blocks, 16 tokens a block), the usage carries
// prompt_tokens_details.cached_tokens, /metrics has vLLM's prefix-cache counters, and POST
// /reset_prefix_cache empties the cache (vLLM serves it with VLLM_SERVER_DEV_MODE=1).

// vllmBlocks is how many blocks the fake's pool holds: a million tokens.
const vllmBlocks = 1 << 16

// vllmMetrics are vLLM's counters, labelled by model as vLLM labels them.
type vllmMetrics struct {
	queries, hits, prompt, generation metrics.CounterVec
}

func newVLLMMetrics(reg *metrics.Registry) *vllmMetrics {
	const model = "model_name"
	return &vllmMetrics{
		queries: reg.CounterVec("vllm:prefix_cache_queries_total",
			"Prefix cache queries, in terms of number of queried tokens.", model),
		hits: reg.CounterVec("vllm:prefix_cache_hits_total",
			"Prefix cache hits, in terms of number of cached tokens.", model),
		prompt:     reg.CounterVec("vllm:prompt_tokens_total", "Number of prefill tokens processed.", model),
		generation: reg.CounterVec("vllm:generation_tokens_total", "Number of generation tokens processed.", model),
	}
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
	s.vllm.queries.With(model).Add(float64(res.PromptTokens))
	s.vllm.hits.With(model).Add(float64(res.CachedTokens))
	s.vllm.prompt.With(model).Add(float64(res.PromptTokens))
	return res, nil
}

func (s *Server) handleResetPrefixCache(w http.ResponseWriter, r *http.Request) {
	s.blocks.Reset()
	w.WriteHeader(http.StatusOK)
}

// vllmModels makes every model's counters exist at 0 from the start, as vLLM's do.
func (s *Server) vllmModels() {
	for _, m := range s.models {
		for _, c := range []metrics.CounterVec{s.vllm.queries, s.vllm.hits, s.vllm.prompt, s.vllm.generation} {
			c.With(m)
		}
	}
}
