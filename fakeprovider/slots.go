package fakeprovider

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/LLeMbas/lembas-check/fakeprovider/wire"
)

// llama-server's slot endpoints, served in the llama.cpp dialect over the cache simulator: the
// bench lists the slots and erases each before a run, to start from a cold cache.

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
			Message: fmt.Sprintf("No slot %q: this server has slots 0 to %d (GET /slots lists them).", r.PathValue("id"), len(info)-1)})
		return
	}
	if a := r.URL.Query().Get("action"); a != "erase" {
		writeError(w, &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest, Code: "invalid_action",
			Message: fmt.Sprintf("Action %q is not served here: the fake erases slots (POST /slots/%d?action=erase) and keeps nothing to save or restore.", a, id)})
		return
	}
	s.cache.Erase(id)
	writeJSON(w, http.StatusOK, wire.SlotErasedBody(id, info[id].PromptTokens))
}
