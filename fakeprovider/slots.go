package fakeprovider

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
)

// llama-server's slot endpoints, served in the llama.cpp dialect over the cache simulator: the
// bench lists the slots and erases each before a run, to start from a cold cache. In that dialect
// a request also holds its slot as llama-server's does (hold).

// slotOrder is when each request took its slot and gave it back (cachesim.Ticket.Span), by the
// request's id (X-Request-Id): Config.KeepSlotOrder.
type slotOrder struct {
	mu    sync.Mutex
	spans map[string][2]int64
}

func (o *slotOrder) keep(id string, taken, released int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.spans == nil {
		o.spans = map[string][2]int64{}
	}
	o.spans[id] = [2]int64{taken, released}
}

// keepSpan keeps when the request id took its slot and gave it back, for SlotOrder, once it has.
func (s *Server) keepSpan(id string, t *cachesim.Ticket) {
	if s.cfg.KeepSlotOrder {
		taken, released := t.Span()
		s.slotOrder.keep(id, taken, released)
	}
}

// SlotOrder says when the request the fake answered with X-Request-Id id took its slot and when
// it gave it back, as ticks of one counter (taken < released, and a request that waited for a
// slot took it after the one before gave it back); ok is false for a request that held no slot
// or when the server was not made with Config.KeepSlotOrder.
func (s *Server) SlotOrder(id string) (taken, released int64, ok bool) {
	s.slotOrder.mu.Lock()
	defer s.slotOrder.mu.Unlock()
	sp, ok := s.slotOrder.spans[id]
	return sp[0], sp[1], ok && sp[1] > 0
}

// held is a request holding a slot of the simulated llama-server.
type held struct {
	ticket     *cachesim.Ticket
	result     cachesim.Result
	completion int // the tokens generated, for the slot to keep (counted: nothing matches them)
}

// hold takes a slot for a request in the llama.cpp dialect, from before its first byte to its
// last: while every slot is busy the request waits, as llama-server defers it; a prompt longer
// than the slot's context is refused with llama-server's 400. It returns nil and true in the
// other dialects (or when the simulator cannot read the request: usage then says so), and false
// when the request was answered (refused) or the client went away. parts is the body as its
// decoding cut it (nil: cut here); id is the answer's X-Request-Id.
func (s *Server) hold(ctx context.Context, w http.ResponseWriter, body []byte, parts *chat.Request,
	id string) (*held, bool) {
	if s.cfg.Dialect != usage.LlamaCpp {
		return nil, true
	}
	r := parts
	if r == nil {
		var err error
		if r, err = chat.Parse(body); err != nil {
			return nil, true
		}
	}
	p, err := s.cache.Prompt(ctx, body, r)
	if err != nil {
		return nil, true
	}
	t := s.cache.Begin(p)
	if err := s.cache.Wait(ctx, t); err != nil {
		s.cache.End(t, nil, 0)
		fail(ctx, "the client hung up while the request waited for a slot")
		return nil, false
	}
	res, _ := t.Result()
	if res.Refused {
		s.cache.End(t, nil, 0)
		s.keepSpan(id, t) // it took the slot, and gave it back at once
		w.Header().Set("X-Request-Id", id)
		writeJSON(w, http.StatusBadRequest, wire.ContextRefusalBody(res.PromptTokens, s.cache.Context()))
		return nil, false
	}
	return &held{ticket: t, result: res}, true
}

func (s *Server) handleSlots(w http.ResponseWriter, r *http.Request) {
	info := s.cache.Info()
	prompts := make([]int, len(info))
	for i, si := range info {
		prompts[i] = si.PromptTokens
	}
	writeJSON(w, http.StatusOK, wire.SlotsBody(prompts))
}

func (s *Server) handleSlotAction(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	info := s.cache.Info()
	if err != nil || id < 0 || id >= len(info) {
		writeError(w, &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest, Code: "invalid_slot",
			Message: fmt.Sprintf("No slot %q: this server has slots 0 to %d (GET /slots lists them).",
				r.PathValue("id"), len(info)-1)})
		return
	}
	if a := r.URL.Query().Get("action"); a != "erase" {
		writeError(w, &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest, Code: "invalid_action",
			Message: fmt.Sprintf("Action %q is not served here: the fake erases slots (POST /slots/%d?action=erase) "+
				"and keeps nothing to save or restore.", a, id)})
		return
	}
	s.cache.Erase(id)
	writeJSON(w, http.StatusOK, wire.SlotErasedBody(id, info[id].PromptTokens))
}
