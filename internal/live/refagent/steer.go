package refagent

import (
	"encoding/json"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"
)

// steerParams are _lembas/steer's params as this agent reads them: the seed fixes the method's
// name and that its messages have ids (the `steered` event: "the `_lembas/steer` message ids taken
// in at this step"), not the params; these are lembas-check's (docs/live.md).
type steerParams struct {
	SessionID string `json:"sessionId"`
	Text      string `json:"text"`
	ID        string `json:"id"`
}

// steered is a message the person sent while a turn runs, waiting for the next step.
type steered struct{ id, text string }

// steer takes the person's message into the running turn: it is the next request's last user
// message, after the results of the step running now (and any job note). With no turn running
// there is nothing to steer: -32602, and the client sends it as a prompt instead.
func (a *Agent) steer(params json.RawMessage) (any, error) {
	var p steerParams
	if err := json.Unmarshal(params, &p); err != nil || p.Text == "" {
		return nil, sdk.NewInvalidParams(map[string]any{"error": "_lembas/steer needs {sessionId, text, id?}"})
	}
	s, err := a.session(sdk.SessionId(p.SessionID))
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.busy {
		return nil, sdk.NewInvalidParams(map[string]any{"sessionId": s.id,
			"error": "no turn is running to steer: send the message as session/prompt"})
	}
	if p.ID == "" {
		p.ID = fmt.Sprintf("steer-%d", len(s.steers)+1)
	}
	s.steers = append(s.steers, steered{id: p.ID, text: p.Text})
	return map[string]any{"id": p.ID}, nil
}

// takeSteered are the steered messages due at this step boundary, one user message each. Called
// with mu held.
func (s *session) takeSteered() []message {
	var out []message
	for _, m := range s.steers {
		out = append(out, text("user", m.text))
	}
	s.steers = nil
	return out
}
