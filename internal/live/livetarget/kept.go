package livetarget

import (
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/live"
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

// kept checks the universal rules over a case's requests in the order they came: the one judge
// of them, live.Held, which `live` judges its scenarios by too, with the session the plan knows
// (its requests, and where a compaction or a move to another model came before one). Every
// break of a rule is named, not the first.
func kept(id, area string, pl *plan) Kept {
	k := Kept{ID: id, Area: area, Broke: map[string]string{}}
	var sent []live.Sent
	for _, tn := range pl.turns {
		for _, s := range tn.slots {
			if s.req == nil || s.aside {
				continue
			}
			k.Requests++
			r, err := chat.Parse(s.body)
			if err != nil {
				continue // s.req was read from the same bytes by chat.Parse: never here
			}
			sent = append(sent, live.Sent{Seq: k.Requests, Req: r, Remade: s.remade > 0, Reset: s.reset})
		}
	}
	rules := map[string]string{live.RuleSystemPrompt: RulePrompt, live.RuleTools: RuleTools,
		live.RuleRewritten: RuleRewritten}
	for _, b := range live.Held(sent) {
		rule := rules[b.Rule]
		k.Broke[rule] = strings.TrimPrefix(k.Broke[rule]+"; "+b.String(), "; ")
	}
	return k
}

// Kept is what the cases played so far say of the universal rules, in the order they ran.
func (t *Target) Kept() []Kept {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Kept(nil), t.kept...)
}
