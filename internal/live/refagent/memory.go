package refagent

import (
	"encoding/json"

	"github.com/LLeMbas/lembas-check/harness/prefix"
)

// remember is the memory tool: the model writes what is remembered, whole (entries between
// "\n§\n", as prefix.json's cases write them). Its result says the memory as it is now, so the
// change is the model's own and no note says it again (context.md §10 rule 3). The seed shows
// tools/memory.json only in part: its parameters here are lembas-check's (tools.json).
func (s *session) remember(id string, raw json.RawMessage) string {
	var a struct {
		Content *string `json:"content"`
	}
	json.Unmarshal(raw, &a)
	s.mu.Lock()
	defer s.mu.Unlock()
	if a.Content == nil {
		return s.outputLocked(id, "memory", raw, "memory needs the content, the whole of what is to be remembered")
	}
	if err := s.prefix.Set(prefix.Change{ByModel: !s.a.broken(BreakOwnMemoryNoted), Memory: a.Content}); err != nil {
		return s.outputLocked(id, "memory", raw, err.Error())
	}
	s.memory = *a.Content
	shown := s.memory
	if shown == "" {
		shown = "(nothing)"
	}
	return s.outputLocked(id, "memory", raw, "Remembered. The memory is now:\n"+shown)
}
