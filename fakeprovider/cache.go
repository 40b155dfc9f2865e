package fakeprovider

import "github.com/LLeMbas/lembas-check/cachebench/sim"

// Cache is the prompt cache the fake reports cached tokens from: it serves a request body and
// says how long its prompt is and how much of it was already cached, in tokens.
type Cache interface {
	Serve(body []byte) (promptTokens, cachedTokens int, err error)
}

// Counter counts the tokens of a reply's text; a Cache that is also a Counter counts completions
// with its own tokenizer, else wire.CountWords estimates them.
type Counter interface {
	Count(text string) int
}

// SimCache is the cache simulator (cachebench/sim: llama-server's slots, least recently used
// evicted, longest common token prefix, tiktoken's o200k_base from the binary) as a Cache.
func SimCache(c *sim.Cache) Cache { return simCache{c} }

type simCache struct{ c *sim.Cache }

func (s simCache) Serve(body []byte) (int, int, error) {
	r, err := s.c.Serve(body)
	return r.PromptTokens, r.CachedTokens, err
}

func (s simCache) Count(text string) int { return s.c.Count(text) }
