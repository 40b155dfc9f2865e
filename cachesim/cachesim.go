// Package cachesim simulates a model server's prompt cache, as llama.cpp's llama-server keeps one with
// `-np N` slots: each slot holds the tokens of the last prompt it served; a request goes to the
// idle slot whose prompt shares the longest common token prefix with it (when that prefix is more
// than a fraction of the request, `--slot-prompt-similarity`), else to the least recently used
// slot (an empty one first); the tokens of that common prefix are taken from the cache, the rest
// are read; then the slot holds the new prompt. Prompts are rendered and tokenized as package
// tokens says (docs/bench.md). The simulator knows nothing of time: it answers in tokens.
package cachesim

import (
	"fmt"
	"sync"

	"github.com/LLeMbas/lembas-check/replay/chat"
	"github.com/LLeMbas/lembas-check/tokens"
)

// DefaultSimilarity is llama-server's default `--slot-prompt-similarity`.
const DefaultSimilarity = 0.1

// Result is what serving one request did.
type Result struct {
	// PromptTokens is the prompt's length; CachedTokens the part of it taken from the slot's cache
	// (llama.cpp's timings.cache_n); the rest (PromptTokens-CachedTokens, timings.prompt_n) was read.
	PromptTokens int `json:"prompt_tokens"`
	CachedTokens int `json:"cached_tokens"`
	// Slot is the slot that served it, from 0.
	Slot int `json:"slot"`
}

// Cache is a simulated server's slots. Safe for concurrent use: requests are served one at a time
// (tokenizing happens outside the lock).
type Cache struct {
	tok        *tokens.Tiktoken
	similarity float64
	mu         sync.Mutex
	slots      []slot
	clock      int64
	// counts remembers the token counts of replies (Count): a fake provider's script sends the
	// same few texts again and again, and tokenizing them is its largest cost after the network.
	countMu sync.Mutex
	counts  map[string]int
}

// Count's memo bounds: texts longer than this are counted each time; past this many, nothing is
// added.
const (
	memoText    = 64 << 10
	memoEntries = 4096
)

type slot struct {
	prompt tokens.Prompt
	used   int64 // 0: never used
}

// Options tune a Cache beyond its number of slots.
type Options struct {
	// Similarity is the share of a request that must match a slot's prompt for that slot to be
	// chosen by similarity (llama-server `--slot-prompt-similarity`); 0 means DefaultSimilarity,
	// a negative value turns the rule off (always the least recently used slot).
	Similarity float64
	// Tokenizer shares a tokenizer (and its cache) with the caller; nil makes one.
	Tokenizer *tokens.Tiktoken
}

// New makes a cache of n slots (n < 1 counts as 1) with llama-server's defaults. It panics only if
// the tokenizer compiled into the binary cannot be loaded.
func New(n int) *Cache {
	c, err := NewWith(n, Options{})
	if err != nil {
		panic(err)
	}
	return c
}

// NewWith makes a cache of n slots with options.
func NewWith(n int, o Options) (*Cache, error) {
	if n < 1 {
		n = 1
	}
	tok := o.Tokenizer
	if tok == nil {
		var err error
		if tok, err = tokens.NewTiktoken(); err != nil {
			return nil, err
		}
	}
	sim := o.Similarity
	if sim == 0 {
		sim = DefaultSimilarity
	}
	return &Cache{tok: tok, similarity: sim, slots: make([]slot, n), counts: map[string]int{}}, nil
}

// Slots is the number of slots.
func (c *Cache) Slots() int { return len(c.slots) }

// Serve serves one request body (OpenAI chat completions, Responses, or Anthropic messages).
func (c *Cache) Serve(body []byte) (Result, error) {
	r, err := chat.Parse(body)
	if err != nil {
		return Result{}, fmt.Errorf("simulated server: %v", err)
	}
	return c.ServePrompt(c.tok.Of(r)), nil
}

// ServePrompt serves a prompt already tokenized.
func (c *Cache) ServePrompt(p tokens.Prompt) Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	best, bestLCP := -1, 0
	lcps := make([]int, len(c.slots))
	for i := range c.slots {
		if c.slots[i].used == 0 {
			continue
		}
		lcps[i] = tokens.LCP(p, c.slots[i].prompt)
		if p.N > 0 && c.similarity >= 0 && float64(lcps[i])/float64(p.N) > c.similarity && lcps[i] > bestLCP {
			best, bestLCP = i, lcps[i]
		}
	}
	if best < 0 {
		best = 0
		for i := range c.slots {
			if c.slots[i].used < c.slots[best].used {
				best = i
			}
		}
	}
	cached := lcps[best]
	// llama-server reads at least the last token of a prompt again, to have logits to sample from.
	if cached >= p.N && p.N > 0 {
		cached = p.N - 1
	}
	c.clock++
	c.slots[best] = slot{prompt: p, used: c.clock}
	return Result{PromptTokens: p.N, CachedTokens: cached, Slot: best}
}

// Erase empties one slot (llama-server `POST /slots/{id}?action=erase`); false for no such slot.
func (c *Cache) Erase(id int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id < 0 || id >= len(c.slots) {
		return false
	}
	c.slots[id] = slot{}
	return true
}

// EraseAll empties every slot: a cold cache.
func (c *Cache) EraseAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.slots {
		c.slots[i] = slot{}
	}
}

// SlotInfo is what `GET /slots` says of one slot.
type SlotInfo struct {
	ID           int `json:"id"`
	PromptTokens int `json:"n_prompt_tokens"`
}

// Info lists the slots and the length of the prompt each holds.
func (c *Cache) Info() []SlotInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]SlotInfo, len(c.slots))
	for i, s := range c.slots {
		out[i] = SlotInfo{ID: i, PromptTokens: s.prompt.N}
	}
	return out
}

// Count is the length in tokens of a text on its own (a reply's completion tokens), with the
// simulator's tokenizer.
func (c *Cache) Count(text string) int {
	if text == "" {
		return 0
	}
	c.countMu.Lock()
	n, ok := c.counts[text]
	c.countMu.Unlock()
	if ok {
		return n
	}
	n = c.tok.Count(text)
	if len(text) <= memoText {
		c.countMu.Lock()
		if len(c.counts) < memoEntries {
			c.counts[text] = n
		}
		c.countMu.Unlock()
	}
	return n
}

// Tokenizer is the simulator's tokenizer, for the provider rule sets that serve beside it.
func (c *Cache) Tokenizer() *tokens.Tiktoken { return c.tok }
