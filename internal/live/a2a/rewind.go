package a2a

import (
	"context"
	"fmt"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
)

// Rewind takes back the conversation's newest turns with _lembas/session/rewind (params
// `{ sessionId, turns }`, result `{ reverted }`, as over ACP), where the card offers ExtLembas.
func (c *Client) Rewind(ctx context.Context, turns int) (int, error) {
	if !c.Lembas() {
		return 0, noLembas("a turn taken back (an undo, a rewind)")
	}
	if c.Context == "" {
		return 0, &acp.Unsupported{What: "a turn taken back", Why: "no message was sent: there is no turn"}
	}
	var r struct {
		Reverted *int `json:"reverted"`
	}
	if err := c.Call(ctx, spec.Text("acp.method.rewind"), map[string]any{"sessionId": c.Context, "turns": turns},
		&r); err != nil {
		return 0, err
	}
	if r.Reverted == nil {
		return 0, &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("%s answered no reverted",
			spec.Text("acp.method.rewind"))}
	}
	return *r.Reverted, nil
}
