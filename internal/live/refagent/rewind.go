package refagent

import (
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"
)

// Turns taken back (_lembas/session/rewind, capability rewind): the newest turns leave the
// history, and their results the request being built (harness/results Rewind), so a file they
// read is read in full again and the next compaction's table has no row of theirs (context.md §2,
// §7). Files are not touched (acp.md: "what the turns changed on disk stays"); ids keep counting.

// beginTurn marks where the person's next message starts a turn, and begins that turn's results
// where a turn is not already begun (the session's start, a compaction, a rewind). Called with mu
// held, before the message is added to the history.
func (s *session) beginTurn() {
	if !s.fresh {
		s.results.Turn()
	}
	s.fresh = false
	s.starts = append(s.starts, len(s.history))
}

// rewind takes back the session's newest n turns; the turns before its last compaction are in the
// summary, and are not there to take back.
func (s *session) rewind(n int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy {
		return 0, errBusy
	}
	if n < 1 || n > len(s.starts) {
		return 0, sdk.NewInvalidParams(map[string]any{"sessionId": s.id, "error": fmt.Sprintf(
			"turns %d: the session has %d turns since its start or its last compaction", n, len(s.starts))})
	}
	if err := s.results.Rewind(n); err != nil {
		return 0, err
	}
	s.history = s.history[:s.starts[len(s.starts)-n]]
	s.starts = s.starts[:len(s.starts)-n]
	s.fresh = true
	return n, nil
}

// rewindMethod answers _lembas/session/rewind: params {sessionId, turns}, result {reverted}.
func (a *Agent) rewindMethod(params json.RawMessage) (any, error) {
	var p struct {
		SessionID string `json:"sessionId"`
		Turns     *int   `json:"turns"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.Turns == nil {
		return nil, sdk.NewInvalidParams(map[string]any{"error": "want {sessionId, turns}"})
	}
	s, err := a.session(sdk.SessionId(p.SessionID))
	if err != nil {
		return nil, err
	}
	n, err := s.rewind(*p.Turns)
	if errors.Is(err, errBusy) {
		return nil, sdk.NewInvalidParams(map[string]any{"sessionId": s.id, "error": err.Error()})
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"reverted": n}, nil
}
