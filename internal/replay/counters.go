package replay

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
)

// CacheCounters are a server's own /metrics counters of its prompt cache, each summed over its
// labels (models, engines): vLLM's prefix-cache queries and hits, SGLang's prompt and cached
// tokens, llama-server's prompt tokens read and taken from the cache. The bench reads them before
// and after a run and sets their difference beside what the answers reported.
type CacheCounters struct {
	// Source is whose names they are: "vllm", "sglang" or "llama.cpp".
	Source string `json:"source"`
	// Prompt is the prompt tokens the server counted (vLLM: queried of its prefix cache); Cached
	// those it took from its cache.
	Prompt float64 `json:"prompt_tokens"`
	Cached float64 `json:"cached_tokens"`
	// PromptSeconds is llama-server's time reading prompts (prompt_seconds_total), 0 elsewhere.
	PromptSeconds float64 `json:"prompt_seconds,omitempty"`
}

// Sub is c less an earlier reading of the same counters.
func (c CacheCounters) Sub(before CacheCounters) CacheCounters {
	return CacheCounters{Source: c.Source, Prompt: c.Prompt - before.Prompt, Cached: c.Cached - before.Cached,
		PromptSeconds: c.PromptSeconds - before.PromptSeconds}
}

// CacheCounters reads the server's /metrics; nil when it has none of the counters (or no
// /metrics: llama-server without --metrics).
func (s *Sender) CacheCounters(ctx context.Context) *CacheCounters {
	c, _ := s.ReadCacheCounters(ctx)
	return c
}

// ReadCacheCounters is CacheCounters and, when there are none, why, for the report: a report
// whose server counters are missing says so rather than leaving them out.
func (s *Sender) ReadCacheCounters(ctx context.Context) (*CacheCounters, string) {
	b, code, err := s.get(ctx, http.MethodGet, s.base()+"/metrics")
	switch {
	case err != nil:
		return nil, "GET /metrics: " + err.Error()
	case code == http.StatusNotImplemented:
		return nil, "GET /metrics: " + statusText(code,
			nil) + " (llama-server serves it only when started with --metrics)"
	case code != http.StatusOK:
		return nil, "GET /metrics: " + statusText(code, nil)
	}
	if c := ParseCacheCounters(b); c != nil {
		return c, ""
	}
	if bytes.Contains(b, []byte("llamacpp:prompt_tokens_total")) {
		return nil, "/metrics has no llamacpp:prompt_tokens_cached_total (a llama-server older than that counter)"
	}
	return nil, "/metrics has no prompt-cache counters of llama-server, vLLM or SGLang (docs/bench.md)"
}

// ParseCacheCounters reads the counters from a Prometheus text exposition; nil when it has none.
func ParseCacheCounters(text []byte) *CacheCounters {
	sums := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		name, v, ok := sample(sc.Text())
		if ok {
			sums[name] += v
		}
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if _, ok := sums[n]; !ok {
				return false
			}
		}
		return true
	}
	switch {
	case has("vllm:prefix_cache_queries_total", "vllm:prefix_cache_hits_total"):
		return &CacheCounters{Source: "vllm", Prompt: sums["vllm:prefix_cache_queries_total"],
			Cached: sums["vllm:prefix_cache_hits_total"]}
	case has("sglang:prompt_tokens_total", "sglang:cached_tokens_total"):
		return &CacheCounters{Source: "sglang", Prompt: sums["sglang:prompt_tokens_total"],
			Cached: sums["sglang:cached_tokens_total"]}
	case has("llamacpp:prompt_tokens_total", "llamacpp:prompt_tokens_cached_total"):
		// llama-server's prompt_tokens_total leaves out the cached tokens.
		cached := sums["llamacpp:prompt_tokens_cached_total"]
		return &CacheCounters{Source: "llama.cpp", Prompt: sums["llamacpp:prompt_tokens_total"] + cached,
			Cached: cached, PromptSeconds: sums["llamacpp:prompt_seconds_total"]}
	}
	return nil
}

// sample reads one sample line of the text format: `name{labels} value [timestamp]`.
func sample(line string) (name string, v float64, ok bool) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return "", 0, false
	}
	end := strings.IndexAny(line, "{ \t")
	if end <= 0 {
		return "", 0, false
	}
	name, rest := line[:end], line[end:]
	if rest[0] == '{' {
		// Label values are quoted and may hold `}` escaped or not: find the closing brace
		// outside quotes.
		in, esc, close := false, false, -1
		for i := 1; i < len(rest) && close < 0; i++ {
			switch c := rest[i]; {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = !in
			case c == '}' && !in:
				close = i
			}
		}
		if close < 0 {
			return "", 0, false
		}
		rest = rest[close+1:]
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return "", 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return name, v, err == nil
}
