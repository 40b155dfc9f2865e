package fakeprovider

import (
	"sync"

	"github.com/LLeMbas/lembas-check/cachesim"
)

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

// SimCache is the cache simulator (cachesim: llama-server's slots, least recently used
// evicted, longest common token prefix, tiktoken's o200k_base from the binary) as a Cache.
func SimCache(c *cachesim.Cache) Cache { return &simCache{c: c, counts: map[string]int{}} }

type simCache struct {
	c *cachesim.Cache
	// counts remembers the token counts of replies: a script sends the same few texts again and
	// again, and tokenizing them is the fake's largest cost after the network.
	mu     sync.Mutex
	counts map[string]int
}

// Memo bounds: texts longer than this are counted each time; past this many, nothing is added.
const (
	memoText    = 64 << 10
	memoEntries = 4096
)

func (s *simCache) Serve(body []byte) (int, int, error) {
	r, err := s.c.Serve(body)
	return r.PromptTokens, r.CachedTokens, err
}

func (s *simCache) Count(text string) int {
	if text == "" {
		return 0
	}
	s.mu.Lock()
	n, ok := s.counts[text]
	s.mu.Unlock()
	if ok {
		return n
	}
	n = s.c.Count(text)
	if len(text) <= memoText {
		s.mu.Lock()
		if len(s.counts) < memoEntries {
			s.counts[text] = n
		}
		s.mu.Unlock()
	}
	return n
}
