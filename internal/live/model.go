package live

import (
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
)

// Served are the models the fake serves a scenario's agent: the one it asks for (ModelOf), and
// every model a step moves the session to — a model the fake did not serve answered 404 (issue
// 21: a scenario's model step could not be tested live).
func Served(sc *Scenario, model string) []string {
	out := []string{model}
	for _, s := range sc.Steps {
		if s.Model != "" && !contains(out, s.Model) {
			out = append(out, s.Model)
		}
	}
	return out
}

// OfferedModel is the id among the models an agent offers (session/set_model, a model config
// option) that names model: the same, or ending in "/model" (opencode names them after their
// provider: fake/fake-model-2).
func OfferedModel(offered []string, model string) (string, bool) {
	for _, m := range offered {
		if m == model || strings.HasSuffix(m, "/"+model) {
			return m, true
		}
	}
	return "", false
}

// ModelMoves names each request the audit found going to another model than the one it
// continues, and the rule that allows what changed there: context.md §10 rule 1 makes the system
// prompt again when the session moves to another model, and the audit reads nothing past the
// model (another model's cache holds nothing of the prompt).
func ModelMoves(rep *audit.Report) []string {
	var out []string
	for _, q := range rep.Requests {
		if q.Cause != audit.ModelChanged || q.Change == nil {
			continue
		}
		out = append(out,
			fmt.Sprintf("request %d: model %s → %s, allowed by the model-change rule (context.md §10 rule 1: the "+
				"system prompt is made again on a move to another model)", q.Seq, q.Change.Old, q.Change.New))
	}
	return out
}
