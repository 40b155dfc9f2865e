package livetarget

import (
	"fmt"
	"slices"
)

// The rules every harness can be held to whatever its texts: checked over the requests of each
// case it played, in any area (the field report's universal rules).
const (
	// RulePrompt: context.md §10 rule 1, the system prompt is the same bytes on every request,
	// but after a compaction or a move to another model.
	RulePrompt = "system prompt held"
	// RuleTools: rule 4, the tool list is the same bytes all session.
	RuleTools = "tool list held"
	// RuleRewritten: rule 5 and the one rule, each request sends every message of the one
	// before as it was, but after a compaction.
	RuleRewritten = "nothing rewritten"
)

// Universal are those rules, in the field report's order.
var Universal = []string{RulePrompt, RuleTools, RuleRewritten}

// Kept is what one played case's requests say of the universal rules: for each rule broken,
// where.
type Kept struct {
	ID, Area string
	// Requests is how many of the case's requests came.
	Requests int
	Broke    map[string]string
}

// kept checks the universal rules over a case's requests in the order they came.
func kept(id, area string, pl *plan) Kept {
	k := Kept{ID: id, Area: area, Broke: map[string]string{}}
	var prev *slot
	for _, tn := range pl.turns {
		for _, s := range tn.slots {
			if s.req == nil {
				continue
			}
			k.Requests++
			if prev != nil {
				n := k.Requests
				if s.remade == 0 && s.req.raw != prev.req.raw && k.Broke[RulePrompt] == "" {
					k.Broke[RulePrompt] = fmt.Sprintf("request %d sends another system prompt than request %d", n, n-1)
				}
				if s.req.rawTools != prev.req.rawTools && k.Broke[RuleTools] == "" {
					k.Broke[RuleTools] = fmt.Sprintf("request %d offers other tools than request %d", n, n-1)
				}
				if !s.reset && k.Broke[RuleRewritten] == "" {
					if i := rewritten(prev.req.msgs, s.req.msgs); i >= 0 {
						k.Broke[RuleRewritten] = fmt.Sprintf("request %d changes message %d of request %d", n, i+1, n-1)
					}
				}
			}
			prev = s
		}
	}
	return k
}

// rewritten is the first message of before that after does not send as it was, or -1.
func rewritten(before, after []msg) int {
	for i, m := range before {
		if i >= len(after) || after[i].role != m.role || after[i].text != m.text || after[i].callID != m.callID || !slices.Equal(after[i].calls, m.calls) {
			return i
		}
	}
	return -1
}

// Kept is what the cases played so far say of the universal rules, in the order they ran.
func (t *Target) Kept() []Kept {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Kept(nil), t.kept...)
}
