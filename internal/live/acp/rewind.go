package acp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Rewind asks a LLeMbas agent to take back the session's newest turns (_lembas/session/rewind,
// capability rewind) and returns how many it took back (`{ reverted: <turns> }`). acp.md's hunk
// gives the result, not the params: lembas-check sends `{ sessionId, turns }`. Unsupported where
// the agent does not advertise the capability.
func (c *Client) Rewind(ctx context.Context, s Session, turns int) (int, error) {
	if !c.has(spec.Text("acp.capability.rewind")) {
		return 0, &Unsupported{What: "a turn taken back (an undo, a rewind)",
			Why: "the agent does not advertise _lembas/session/rewind (capability rewind in its initialize " +
				"answer's _meta.lembas.capabilities)"}
	}
	raw, err := c.extension(ctx, spec.Text("acp.method.rewind"), map[string]any{"sessionId": s.ID, "turns": turns})
	if err != nil {
		return 0, err
	}
	var r struct {
		Reverted *int `json:"reverted"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Reverted == nil {
		return 0, &Fault{Kind: Malformed, Detail: fmt.Sprintf("%s answered %s: want {\"reverted\": <turns>}",
			spec.Text("acp.method.rewind"), raw)}
	}
	return *r.Reverted, nil
}
