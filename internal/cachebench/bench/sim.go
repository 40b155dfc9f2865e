package bench

import (
	"fmt"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

// Sim is what `bench --sim` benches against: the fake provider, in-process on loopback, as a
// simulated llama-server — the llama.cpp dialect, its cache the simulator, serving the models the
// recording names — so the whole path runs with no model.
type Sim struct {
	*fakeprovider.Server
	Cache *cachesim.Cache
}

// StartSim starts a simulator of slots slots for the recordings, counting prompts with tok (nil:
// tiktoken): the tokenizer it is given, as the prediction counts with the same.
func StartSim(recs []Recording, slots int, tok tokens.Tokenizer) (*Sim, error) {
	o := cachesim.Options{Prompter: tok}
	if t, ok := tok.(*tokens.Tiktoken); ok {
		o.Tokenizer, o.Prompter = t, nil
	}
	cache, err := cachesim.NewWith(slots, o)
	if err != nil {
		return nil, err
	}
	var models []string
	seen := map[string]bool{}
	for _, r := range recs {
		_, ms, _ := r.scan() // a damaged recording: the models before the damage (the count says it)
		for _, m := range ms {
			if !seen[m] {
				seen[m] = true
				models = append(models, m)
			}
		}
	}
	srv, err := fakeprovider.Start(fakeprovider.Config{
		Script:  &script.Script{Name: "bench --sim", Default: &script.Policy{Answer: "ok"}},
		Models:  models,
		Dialect: usage.LlamaCpp,
		Cache:   cache,
		// The order the requests took the slots in, for the prediction to follow (Order).
		KeepSlotOrder: true,
	})
	if err != nil {
		return nil, fmt.Errorf("starting the fake provider: %w", err)
	}
	return &Sim{Server: srv, Cache: cache}, nil
}

// Reset empties the simulator before a run (Options.Reset) and says so.
func (s *Sim) Reset() string {
	s.Cache.EraseAll()
	return fmt.Sprintf("simulator emptied (%d slot(s))", s.Cache.Slots())
}

// Order is Options.ServerOrder for the simulator: when each request took its slot and gave it
// back, as ticks of the fake's one counter.
func (s *Sim) Order(requestID string) (began, ended time.Duration, ok bool) {
	t, r, ok := s.Server.SlotOrder(requestID)
	return time.Duration(t), time.Duration(r), ok
}

// Name is the server as a report names it.
func (s *Sim) Name() string {
	return fmt.Sprintf("simulator via the fake provider (%d slot(s))", s.Cache.Slots())
}
