package fakeprovider

import (
	"bytes"
	"encoding/json"
	"sync"
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

// byteCache is a stand-in simulator: slots holding the last prompt each served, the prompt
// rendered as bytes (system messages, tools, the other messages), a token taken as 4 bytes. A
// request goes to the slot sharing its longest prefix, else to the least recently used one.
type byteCache struct {
	mu    sync.Mutex
	slots [][]byte
	used  []int64
	clock int64
}

func newByteCache(n int) *byteCache {
	if n < 1 {
		n = 1
	}
	return &byteCache{slots: make([][]byte, n), used: make([]int64, n)}
}

func (c *byteCache) Serve(body []byte) (int, int, error) {
	p := renderBytes(body)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clock++
	best, bestLen := -1, 0
	for i, s := range c.slots {
		if n := lcp(s, p); n > bestLen {
			best, bestLen = i, n
		}
	}
	if best < 0 {
		best = 0
		for i := range c.slots {
			if c.used[i] < c.used[best] {
				best = i
			}
		}
	}
	c.slots[best] = p
	c.used[best] = c.clock
	return (len(p) + 3) / 4, bestLen / 4, nil
}

func lcp(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// renderBytes lays a request out in the order a server reads its prompt: system messages (and
// Responses `instructions`), tools, then the other messages (or `input`).
func renderBytes(body []byte) []byte {
	var r struct {
		Instructions json.RawMessage   `json:"instructions"`
		System       json.RawMessage   `json:"system"`
		Tools        json.RawMessage   `json:"tools"`
		Messages     []json.RawMessage `json:"messages"`
		Input        json.RawMessage   `json:"input"`
	}
	if json.Unmarshal(body, &r) != nil {
		return body
	}
	var out bytes.Buffer
	out.Write(r.Instructions)
	out.Write(r.System)
	var rest [][]byte
	for _, m := range r.Messages {
		var role struct {
			Role string `json:"role"`
		}
		_ = json.Unmarshal(m, &role)
		if role.Role == "system" || role.Role == "developer" {
			out.Write(m)
		} else {
			rest = append(rest, m)
		}
	}
	out.Write(r.Tools)
	for _, m := range rest {
		out.Write(m)
	}
	out.Write(r.Input)
	return out.Bytes()
}
