package bench

import (
	"context"
	"fmt"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Predictor predicts what a llama-server caches for each request the bench sends, by serving
// the same requests, in the order they are sent, to the cache simulator configured like that
// server: its slots and context (GET /props), its tokens (POST /apply-template and /tokenize),
// llama-server's slot rules (cachesim), one model whatever a request names. A second simulator
// beside it keeps llama-server's RAM prompt cache (--cache-ram, on by default), so that a request
// the server took from there is named as such.
type Predictor struct {
	tok tokens.Tokenizer
	// mu keeps the two simulators seeing requests in one order, with sessions at once.
	mu     sync.Mutex
	cache  *cachesim.Cache
	shadow *cachesim.Cache // with the RAM prompt cache, when cache has none
	// ramSeen: the server showed it keeps prompts in RAM; the shadow predicts from then on.
	ramSeen, justErased bool
	// ram: the server keeps prompts in RAM, as the probe found.
	ram bool
	// About says how it is configured, for the report.
	About string
}

// PredictorConfig is what a predictor is configured with.
type PredictorConfig struct {
	// Slots and Context are the server's (-np, n_ctx per slot; 0: no limit).
	Slots, Context int
	// Similarity is --slot-prompt-similarity (0: llama-server's default).
	Similarity float64
	// RAM: the server keeps prompts in RAM (--cache-ram), as ProbeRAMCache found. Without it the
	// prediction assumes --cache-ram 0 (as docs/bench.md asks) and follows a simulator with the
	// RAM cache once the server shows one. RAMSaid is how it is known, for the report ("probed";
	// empty: assumed).
	RAM     bool
	RAMSaid string
	// Tokenizer counts the prompts: the server's own.
	Tokenizer tokens.Tokenizer
}

// NewPredictor makes a predictor.
func NewPredictor(c PredictorConfig) (*Predictor, error) {
	tik, ok := c.Tokenizer.(*tokens.Tiktoken)
	o := cachesim.Options{Similarity: c.Similarity, Context: c.Context, RAM: c.RAM, IdleSlots: c.RAM,
		Prompter: c.Tokenizer}
	if ok {
		o.Tokenizer, o.Prompter = tik, nil
	}
	cache, err := cachesim.NewWith(c.Slots, o)
	if err != nil {
		return nil, err
	}
	p := &Predictor{tok: c.Tokenizer, cache: cache, ram: c.RAM}
	// A server the probe found keeping no prompt in RAM keeps none: the second simulator is for
	// one whose RAM prompt cache is only assumed away.
	if !c.RAM && c.RAMSaid == "" {
		o.RAM, o.IdleSlots = true, true
		if p.shadow, err = cachesim.NewWith(c.Slots, o); err != nil {
			return nil, err
		}
	}
	sim := c.Similarity
	if sim == 0 {
		sim = cachesim.DefaultSimilarity
	}
	ctxs := "no context limit"
	if c.Context > 0 {
		ctxs = fmt.Sprintf("a context of %d tokens each", c.Context)
	}
	said := c.RAMSaid
	if said == "" {
		said = "assumed"
	}
	ram := "no RAM prompt cache (--cache-ram 0, " + said + ")"
	if c.RAM {
		ram = "the RAM prompt cache (--cache-ram, " + said + ")"
	}
	p.About = fmt.Sprintf("the cache simulator as llama-server: %d slot(s), %s, slot prompt similarity %.2f, %s, "+
		"tokens of %s", cache.Slots(), ctxs, sim, ram, c.Tokenizer.Name())
	return p, nil
}

// prediction is one request in the predictor, from before it is sent to its answer.
type prediction struct {
	prompt    tokens.Prompt
	t, shadow *cachesim.Ticket
	err       error
}

// begin takes a request as it is about to be sent: prepare, then admit.
func (p *Predictor) begin(ctx context.Context, path string, body []byte) *prediction {
	pd := p.prepare(ctx, path, body)
	p.admit(pd)
	return pd
}

// prepare tokenizes a request (as the server would) without giving it to the simulators yet:
// with sessions at once, admit comes after the run, in the order the server took the requests.
func (p *Predictor) prepare(ctx context.Context, path string, body []byte) *prediction {
	r, err := chat.ParsePath(path, body)
	if err != nil {
		return &prediction{err: err}
	}
	pr, err := p.tok.Prompt(ctx, body, r)
	if err != nil {
		return &prediction{err: fmt.Errorf("tokenizing: %v", err)}
	}
	return &prediction{prompt: pr}
}

// admit gives a prepared request to the simulators: it takes a slot now, or waits for one.
func (p *Predictor) admit(pd *prediction) {
	if pd.err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pd.t = p.cache.Begin(pd.prompt)
	if p.shadow != nil {
		pd.shadow = p.shadow.Begin(pd.prompt)
	}
}

// end takes the answer: the slot that served the request holds its prompt and the tokens the
// server generated (counted, not known: nothing later matches them).
func (p *Predictor) end(pd *prediction, s replay.Sent) {
	if pd.err != nil || pd.t == nil {
		return
	}
	gen := 0
	if u := s.Reply.TokenUsage(); u.CompletionTokens != nil && s.Error == "" {
		gen = *u.CompletionTokens
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cache.End(pd.t, nil, gen)
	if pd.shadow != nil {
		p.shadow.End(pd.shadow, nil, gen)
	}
}

// erase empties the simulated slots, as the bench erased the server's; the RAM prompt cache
// keeps what it holds, as the server's does.
func (p *Predictor) erase() {
	p.justErased = true
	p.cache.EraseAll()
	if p.shadow != nil {
		p.shadow.EraseAll()
	}
}

// results are what the simulators said of a request: ok false when the predictor could not
// predict it (err says why) or it never had a slot.
func (pd *prediction) results() (main, shadow cachesim.Result, ok bool, err error) {
	if pd.err != nil {
		return main, shadow, false, pd.err
	}
	main, ok = pd.t.Result()
	if pd.shadow != nil {
		shadow, _ = pd.shadow.Result()
	} else {
		shadow = main
	}
	return main, shadow, ok, nil
}
