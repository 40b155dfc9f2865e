package cachesim

import (
	"fmt"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

// Implicit is a provider's automatic prefix cache (OpenAI's prompt caching, Gemini's implicit
// caching): any earlier prompt alive in it lends the longest prefix it shares with a request, when
// that prefix is at least the model's minimum; OpenAI counts it in steps of 128 tokens past the
// first 1,024. An entry lives TTL from its last use. The model and the provider's own keys
// (OpenAI: prompt_cache_key, which routes the request) key it beside the bytes. The clock is the
// caller's. Safe for concurrent use.
type Implicit struct {
	Provider string
	// TTL is how long an entry lives after its last use.
	TTL time.Duration
	// Minimum is the shortest prefix read for a model; Step rounds what is read down (0: none).
	Minimum func(model string) int
	Step    int
	// Keys are the parameter paths that key the cache.
	Keys []string

	tok     *tokens.Tiktoken
	mu      sync.Mutex
	entries []*implicitEntry
}

// implicitEntries bounds what the cache holds: the prompts of the latest requests.
const implicitEntries = 64

type implicitEntry struct {
	model    string
	key      tokens.Sum
	keys     []chat.Param
	prompt   tokens.Prompt
	lastUsed time.Time
}

// NewImplicit is the rule set of a provider (ProviderOpenAI or ProviderGemini), with its default
// TTL unless ttl is set; tok nil makes its own tokenizer.
func NewImplicit(provider string, ttl time.Duration, tok *tokens.Tiktoken) (*Implicit, error) {
	c := &Implicit{Provider: provider, TTL: TTL5m, tok: tok}
	switch provider {
	case ProviderOpenAI:
		c.Minimum = func(string) int { return 1024 }
		c.Step = 128
		c.Keys = []string{chat.KeyPromptCacheKey}
	case ProviderGemini:
		c.Minimum = GeminiMinimum
	default:
		return nil, fmt.Errorf("no implicit cache rules for provider %q (there are %s and %s)", provider,
			ProviderOpenAI, ProviderGemini)
	}
	if ttl > 0 {
		c.TTL = ttl
	}
	if c.tok == nil {
		var err error
		if c.tok, err = tokens.NewTiktoken(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Serve serves one request body sent to path at a time.
func (c *Implicit) Serve(path string, body []byte, at time.Time) (Served, error) {
	r, err := chat.ParsePath(path, body)
	if err != nil {
		return Served{}, fmt.Errorf("simulated cache: %v", err)
	}
	return c.ServeRequest(r, c.tok.Of(r), at), nil
}

// ServeRequest serves a parsed request with its prompt.
func (c *Implicit) ServeRequest(r *chat.Request, p tokens.Prompt, at time.Time) Served {
	var keys []chat.Param
	for _, k := range r.Keys {
		for _, name := range c.Keys {
			if k.Path == name {
				keys = append(keys, k)
			}
		}
	}
	key := keySum(keys)
	minimum := c.Minimum(r.Model)
	out := Served{PromptTokens: p.N}
	c.mu.Lock()
	defer c.mu.Unlock()
	var best, held *implicitEntry
	bestN, heldN := 0, 0
	for _, e := range c.entries {
		if e.model != r.Model {
			continue
		}
		n := tokens.LCP(p, e.prompt)
		// The longest held, and among those the latest of the same keys.
		if n > heldN || n == heldN && n > 0 && (e.key == key || held.key != key) {
			held, heldN = e, n
		}
		if e.key == key && !at.After(e.lastUsed.Add(c.TTL)) && n > bestN {
			best, bestN = e, n
		}
	}
	read := c.round(bestN, minimum)
	if read > 0 {
		best.lastUsed = at
	}
	out.Read, out.Input = read, p.N-read
	out.Miss = c.why(held, heldN, read, key, keys, minimum, at)
	c.entries = append(c.entries, &implicitEntry{model: r.Model, key: key, keys: keys, prompt: p, lastUsed: at})
	if len(c.entries) > implicitEntries {
		c.entries = c.entries[1:]
	}
	return out
}

// round is what the provider reads of a shared prefix of n tokens: nothing under the minimum,
// else n in whole steps past the minimum.
func (c *Implicit) round(n, minimum int) int {
	if n < minimum || n == 0 {
		return 0
	}
	if c.Step > 0 {
		return minimum + (n-minimum)/c.Step*c.Step
	}
	return n
}

// why says why less was read than the longest prefix held (in any state, under any key).
func (c *Implicit) why(held *implicitEntry, heldN, read int, key tokens.Sum, keys []chat.Param, minimum int,
	at time.Time) *Miss {
	if held == nil || heldN <= read {
		return nil
	}
	m := &Miss{Tokens: heldN}
	switch {
	case heldN < minimum:
		m.Reason, m.Minimum = ReasonUnderMinimum, minimum
	case held.key != key:
		m.Reason = ReasonKey
		m.Path, m.Old, m.New = changedKey(held.keys, keys)
	case at.After(held.lastUsed.Add(c.TTL)):
		m.Reason, m.Idle, m.TTL = ReasonExpired, at.Sub(held.lastUsed), c.TTL
	default:
		return nil // the step's rounding: nothing to name
	}
	return m
}
