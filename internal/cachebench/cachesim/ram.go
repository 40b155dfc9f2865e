package cachesim

import "github.com/LLeMbas/lembas-check/internal/cachebench/tokens"

// ram is llama-server's prompt cache in RAM (`--cache-ram`, server_prompt_cache): prompts kept
// apart from the slots, which a slot saves its prompt to when it goes to another conversation and
// takes the best match back from. Its size limit (8 GiB by default) is not modelled: at a few
// kilobytes a token it holds hundreds of thousands of tokens.
type ram struct {
	states []tokens.Prompt // oldest first
}

// save keeps a slot's prompt (server_prompt_cache::alloc): not when empty or already held whole
// by a state; states it holds whole are dropped.
func (r *ram) save(p tokens.Prompt) {
	if p.N == 0 {
		return
	}
	for _, s := range r.states {
		if tokens.LCP(s, p) == p.N {
			return
		}
	}
	kept := r.states[:0]
	for _, s := range r.states {
		if tokens.LCP(s, p) != s.N {
			kept = append(kept, s)
		}
	}
	r.states = append(kept, p)
}

// load finds the state that serves the new prompt better than what the slot holds
// (server_prompt_cache::load): it must keep at least a quarter of itself, and beat the slot both
// in the share of itself kept and in the share of the new prompt covered. The state leaves RAM
// for the slot.
func (r *ram) load(slot, p tokens.Prompt) (tokens.Prompt, bool) {
	if p.N == 0 {
		return tokens.Prompt{}, false
	}
	lcp := tokens.LCP(slot, p)
	keepBest := float32(-1) // an empty slot: any state wins
	if slot.N > 0 {
		keepBest = float32(lcp) / float32(slot.N)
	}
	simBest := float32(lcp) / float32(p.N)
	best := -1
	for i, s := range r.states {
		n := tokens.LCP(s, p)
		keep := float32(n) / float32(s.N)
		sim := float32(n) / float32(p.N)
		if keep < 0.25 {
			continue
		}
		if keepBest < keep && simBest < sim {
			keepBest, simBest, best = keep, sim, i
		}
	}
	if best < 0 {
		return tokens.Prompt{}, false
	}
	out := r.states[best]
	r.states = append(r.states[:best], r.states[best+1:]...)
	return out, true
}
