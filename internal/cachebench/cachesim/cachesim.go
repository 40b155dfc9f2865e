// Package cachesim simulates a model server's prompt cache, as llama.cpp's llama-server keeps one with
// `-np N` slots: each slot holds the tokens of the last prompt it served; a request goes to the
// idle slot whose prompt shares the longest common token prefix with it (when that prefix is more
// than a fraction of the request, `--slot-prompt-similarity`), else to the least recently used
// slot (an empty one first); the tokens of that common prefix are taken from the cache, the rest
// are read; then the slot holds the new prompt. Prompts are rendered and tokenized as package
// tokens says (docs/bench.md). The simulator knows nothing of time: it answers in tokens.
package cachesim

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
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
	// FromRAM is the length of the prompt the slot took from the RAM prompt cache before serving
	// (llama-server's --cache-ram), 0 when it took none.
	FromRAM int `json:"from_ram,omitempty"`
	// Refused: the prompt does not fit the slot's context (llama-server's
	// exceed_context_size_error); nothing was cached or read.
	Refused bool `json:"refused,omitempty"`
}

// Cache is a simulated server's slots. Safe for concurrent use: requests are served one at a time
// (tokenizing happens outside the lock).
type Cache struct {
	tok        *tokens.Tiktoken
	prompter   tokens.Tokenizer
	similarity float32
	context    int
	ram        *ram
	idleSlots  bool
	unified    bool
	mu         sync.Mutex
	slots      []slot
	clock      int64
	// order ticks as requests take slots and give them back (Ticket.Span).
	order   int64
	queue   []*Ticket // requests waiting for a free slot, in the order they came
	fromRAM int       // what pick took from RAM for the request it picked for
	unknown uint32    // the next id for a generated token the caller does not know
	// counts remembers the token counts of replies (Count): a fake provider's script sends the
	// same few texts again and again, and tokenizing them is its largest cost after the network.
	// Read-locked: every request reads it, and a mutex here was a queue of 64 streams.
	countMu sync.RWMutex
	counts  map[string]int
}

// Count's memo bounds: texts longer than this are counted each time; past this many, nothing is
// added.
const (
	memoText    = 64 << 10
	memoEntries = 4096
)

type slot struct {
	// prompt is what the slot holds: the last prompt it served and what it generated after it.
	prompt tokens.Prompt
	used   int64 // 0: never used
	busy   *Ticket
}

// Options tune a Cache beyond its number of slots. The zero value is llama-server started with
// `--cache-ram 0` and no context limit.
type Options struct {
	// Similarity is the share of a request that must match a slot's prompt for that slot to be
	// chosen by similarity (llama-server `--slot-prompt-similarity`); 0 means DefaultSimilarity,
	// a negative value turns the rule off (always the least recently used slot).
	Similarity float64
	// Tokenizer shares a tokenizer (and its cache) with the caller; nil makes one.
	Tokenizer *tokens.Tiktoken
	// Prompter tokenizes the prompts Serve is given instead of Tokenizer (a llama.cpp server's
	// own: `bench --sim --tokenizer URL`); Count still uses Tokenizer.
	Prompter tokens.Tokenizer
	// Context is each slot's context in tokens (llama-server's n_ctx per slot): a prompt of as
	// many tokens or more is refused. 0: no limit.
	Context int
	// RAM models llama-server's prompt cache in RAM (`--cache-ram`, on by default at 8 GiB; its
	// size limit is not modelled): a slot's prompt is kept there when the slot goes to another
	// conversation, and a slot takes the best one back from there when that saves more (ram.go).
	RAM bool
	// IdleSlots, with RAM, also keeps every idle slot's prompt there as each request starts
	// (llama-server's --cache-idle-slots, on by default); Unified then empties them (a unified KV
	// cache: llama-server's -np auto).
	IdleSlots, Unified bool
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
	c := &Cache{tok: tok, prompter: o.Prompter, similarity: float32(sim), context: o.Context, slots: make([]slot, n),
		counts: map[string]int{}, idleSlots: o.RAM && o.IdleSlots, unified: o.Unified, unknown: math.MaxUint32}
	if o.RAM {
		c.ram = &ram{}
	}
	return c, nil
}

// Slots is the number of slots.
func (c *Cache) Slots() int { return len(c.slots) }

// Context is each slot's context in tokens (0: no limit).
func (c *Cache) Context() int { return c.context }

// Serve serves one request body (OpenAI chat completions, Responses, or Anthropic messages).
func (c *Cache) Serve(body []byte) (Result, error) {
	return c.ServeContext(context.Background(), body)
}

// ServeContext is Serve with a context for a tokenizer that asks a server.
func (c *Cache) ServeContext(ctx context.Context, body []byte) (Result, error) {
	r, err := chat.Parse(body)
	if err != nil {
		return Result{}, fmt.Errorf("simulated server: %v", err)
	}
	return c.ServeParsed(ctx, body, r)
}

// ServeParsed is ServeContext of a body already cut by chat.Parse (r).
func (c *Cache) ServeParsed(ctx context.Context, body []byte, r *chat.Request) (Result, error) {
	p, err := c.Prompt(ctx, body, r)
	if err != nil {
		return Result{}, fmt.Errorf("simulated server: %v", err)
	}
	return c.ServePrompt(p), nil
}

// Prompt tokenizes a request as this cache does (Options.Prompter, else tiktoken).
func (c *Cache) Prompt(ctx context.Context, body []byte, r *chat.Request) (tokens.Prompt, error) {
	if c.prompter != nil {
		return c.prompter.Prompt(ctx, body, r)
	}
	return c.tok.Of(r), nil
}

// ServePrompt serves a prompt already tokenized, generating nothing after it. It waits while every
// slot is busy with a request begun and not ended.
func (c *Cache) ServePrompt(p tokens.Prompt) Result {
	t := &Ticket{prompt: p, ready: make(chan struct{}), whole: true}
	c.mu.Lock()
	c.queue = append(c.queue, t)
	c.assign()
	c.mu.Unlock()
	c.Wait(context.Background(), t)
	res, _ := t.Result()
	return res
}

// Ticket is one request in the simulated server, from Begin to End: waiting for a slot, then
// holding it while its answer is generated.
type Ticket struct {
	prompt   tokens.Prompt
	res      Result
	assigned bool
	ended    bool
	ready    chan struct{}
	// taken and released are ticks of Cache.order: when the request took its slot and gave it
	// back.
	taken, released int64
	// whole: the request generates nothing, and gives its slot back as it takes it (ServePrompt).
	// Held from Begin to End with the lock let go between, a slot was busy for no simulated time,
	// and under 64 streams the others queued for it, each woken in turn (58 s of waiting in a
	// block profile of 20,000 requests).
	whole bool
}

// Span is when the request took its slot and when it gave it back, as ticks of the cache's one
// counter (0: not yet): only their order means anything, and it is the order the slots were
// taken and given back in, which timings read from outside cannot always tell. Read it after End.
func (t *Ticket) Span() (taken, released int64) { return t.taken, t.released }

// Result is what serving the request did; ok is false while it still waits for a slot.
func (t *Ticket) Result() (Result, bool) { return t.res, t.assigned }

// Ready is closed once the request has a slot (or was refused).
func (t *Ticket) Ready() <-chan struct{} { return t.ready }

// Begin takes a request: it gets a slot now if one is idle, else it waits for one, in the order
// requests came (llama-server defers a task no slot can take, and gives a freed slot to the
// first deferred). The slot stays busy until End.
func (c *Cache) Begin(p tokens.Prompt) *Ticket {
	t := &Ticket{prompt: p, ready: make(chan struct{})}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queue = append(c.queue, t)
	c.assign()
	return t
}

// Wait blocks until the request has a slot, or ctx ends.
func (c *Cache) Wait(ctx context.Context, t *Ticket) error {
	select {
	case <-t.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// End ends a request: its slot now holds its prompt and what it generated after it — gen when
// the caller knows those tokens, else n tokens nothing will match — less the last (llama-server
// samples it but does not decode it), and goes to the next waiting request. A request still
// waiting is taken out of the queue.
func (c *Cache) End(t *Ticket, gen []uint32, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.ended {
		return
	}
	t.ended = true
	if !t.assigned {
		for i, q := range c.queue {
			if q == t {
				c.queue = append(c.queue[:i], c.queue[i+1:]...)
				break
			}
		}
		return
	}
	if c.slots[t.res.Slot].busy != t {
		return // refused: the slot was released at once
	}
	c.release(t, gen, n)
	c.assign()
}

// release gives t's slot back: it now holds t's prompt and what t generated after it (as End).
// Called with c.mu held; the caller gives the slot to the next.
func (c *Cache) release(t *Ticket, gen []uint32, n int) {
	t.ended = true
	s := &c.slots[t.res.Slot]
	if gen == nil && n > 0 {
		gen = make([]uint32, n)
		for i := range gen {
			gen[i] = c.unknown
			c.unknown--
		}
	}
	if len(gen) > 1 {
		s.prompt = appendTokens(s.prompt, gen[:len(gen)-1])
	}
	c.clock++
	s.used, s.busy = c.clock, nil
	c.order++
	t.released = c.order // before assign gives the slot to the next
}

// appendTokens is p followed by toks, as a prompt of its own (p's pieces are shared, not changed).
func appendTokens(p tokens.Prompt, toks []uint32) tokens.Prompt {
	// The piece is named by its tokens: LCP takes pieces of the same name as equal.
	h := sha256.New()
	h.Write([]byte("generated\x00"))
	var b [4]byte
	for _, t := range toks {
		binary.LittleEndian.PutUint32(b[:], t)
		h.Write(b[:])
	}
	pc := tokens.Piece{Tokens: append([]uint32(nil), toks...)}
	h.Sum(pc.Sum[:0])
	pieces := append(append([]tokens.Piece(nil), p.Pieces...), pc)
	return tokens.Prompt{Pieces: pieces, N: p.N + len(toks)}
}

// assign gives idle slots to waiting requests, the first first. Called with c.mu held.
func (c *Cache) assign() {
	for len(c.queue) > 0 {
		i := c.pick(c.queue[0].prompt)
		if i < 0 {
			return
		}
		t := c.queue[0]
		c.queue = c.queue[1:]
		c.launch(i, t)
		if t.whole && c.slots[i].busy == t {
			c.release(t, nil, 0)
		}
	}
}

// pick is llama-server's get_available_slot: among idle slots, the one whose prompt shares the
// longest common prefix with p, when that is more than the similarity share of p; else the least
// recently used (of equals, the last). On a slot taken by the second rule, or by the first when
// it keeps less than half of what the slot held, the RAM prompt cache is consulted (ram.go).
// -1: every slot is busy.
func (c *Cache) pick(p tokens.Prompt) int {
	best, bestSim := -1, float32(0)
	if c.similarity > 0 && p.N > 0 {
		for i := range c.slots {
			s := &c.slots[i]
			if s.busy != nil || s.prompt.N == 0 {
				continue
			}
			sim := float32(tokens.LCP(p, s.prompt)) / float32(p.N)
			if sim > bestSim && sim > c.similarity {
				best, bestSim = i, sim
			}
		}
	}
	update := false
	if best >= 0 {
		keep := bestSim * float32(p.N) / float32(c.slots[best].prompt.N)
		update = keep < 0.5
	} else {
		last := int64(-1)
		for i := range c.slots {
			if c.slots[i].busy != nil {
				continue
			}
			if best < 0 || c.slots[i].used <= last {
				best, last = i, c.slots[i].used
			}
		}
		update = best >= 0
	}
	if best >= 0 && update && c.ram != nil {
		c.ram.save(c.slots[best].prompt)
		if loaded, ok := c.ram.load(c.slots[best].prompt, p); ok {
			c.slots[best].prompt = loaded
			c.fromRAM = loaded.N
		}
	}
	return best
}

// launch starts request t on slot i: the idle slots are kept in RAM (IdleSlots), then the prompt
// is checked against the context and served from what the slot holds. Called with c.mu held.
func (c *Cache) launch(i int, t *Ticket) {
	s := &c.slots[i]
	s.busy = t
	t.assigned = true
	t.res = Result{PromptTokens: t.prompt.N, Slot: i, FromRAM: c.fromRAM}
	c.fromRAM = 0
	if c.idleSlots {
		for j := range c.slots {
			if c.slots[j].busy == nil {
				c.ram.save(c.slots[j].prompt)
				if c.unified {
					c.slots[j].prompt = tokens.Prompt{}
				}
			}
		}
	}
	defer close(t.ready)
	c.order++
	t.taken = c.order
	if c.context > 0 && t.prompt.N >= c.context {
		t.res.Refused = true
		c.order++
		t.released = c.order
		c.clock++
		s.used, s.busy = c.clock, nil
		return
	}
	cached := tokens.LCP(t.prompt, s.prompt)
	// llama-server reads at least the last token of a prompt again, to have logits to sample from.
	if cached >= t.prompt.N && t.prompt.N > 0 {
		cached = t.prompt.N - 1
	}
	t.res.CachedTokens = cached
	s.prompt = t.prompt
}

// Erase empties one slot (llama-server `POST /slots/{id}?action=erase`); false for no such slot.
// The RAM prompt cache keeps what it holds, as llama-server's does.
func (c *Cache) Erase(id int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id < 0 || id >= len(c.slots) {
		return false
	}
	c.slots[id].prompt = tokens.Prompt{}
	return true
}

// EraseAll empties every slot: a cold cache, but for the RAM prompt cache (EraseRAM).
func (c *Cache) EraseAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.slots {
		c.slots[i].prompt = tokens.Prompt{}
	}
}

// EraseRAM empties the RAM prompt cache (llama-server has no endpoint for it: only a restart).
func (c *Cache) EraseRAM() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ram != nil {
		c.ram.states = nil
	}
}

// SlotInfo is what `GET /slots` says of one slot.
type SlotInfo struct {
	ID           int  `json:"id"`
	PromptTokens int  `json:"n_prompt_tokens"`
	Processing   bool `json:"is_processing"`
}

// Info lists the slots and the length of the prompt each holds.
func (c *Cache) Info() []SlotInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]SlotInfo, len(c.slots))
	for i, s := range c.slots {
		out[i] = SlotInfo{ID: i, PromptTokens: s.prompt.N, Processing: s.busy != nil}
	}
	return out
}

// Count is the length in tokens of a text on its own (a reply's completion tokens), with the
// simulator's tokenizer.
func (c *Cache) Count(text string) int {
	if text == "" {
		return 0
	}
	c.countMu.RLock()
	n, ok := c.counts[text]
	c.countMu.RUnlock()
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
