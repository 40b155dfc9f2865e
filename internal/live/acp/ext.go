package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// PlanAnswer is how the client answers a LLeMbas agent's _lembas/plan (its plan_submit put to the
// person): approved or not, the mode the approval leaves the session in ("": the agent's own
// choice), and why not. The seed names the agent's reader of the answer (planReplyFrom(answer,
// maxMode)), not its fields: `{approved, mode?, feedback?}` is lembas-check's (docs/live.md).
type PlanAnswer struct {
	Approved bool   `json:"approved"`
	Mode     string `json:"mode,omitempty"`
	Feedback string `json:"feedback,omitempty"`
}

// Asked is one _lembas/plan or _lembas/question the agent sent, and the answer it was given.
type Asked struct {
	Method, SessionID, ToolCallID string
	// Plan is the plan put to the person; Question, Options and Recommended the question.
	Plan, Question, Recommended string
	Options                     []string
	// Answer is what the client answered: a PlanAnswer, or the question's answer.
	Answer any
}

// AnswerPlans sets how the session's next plans are answered (default: approved, the mode the
// agent's own, or not approved with Options.Reject).
func (c *Client) AnswerPlans(sessionID string, a PlanAnswer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plans == nil {
		c.plans = map[string]PlanAnswer{}
	}
	c.plans[sessionID] = a
}

// Asked are the plans and questions the agent put to the client, in order.
func (c *Client) Asked() []Asked {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Asked(nil), c.asked...)
}

// HandleExtensionMethod answers what a LLeMbas agent asks the client (acp.md: to a client that
// said _meta.lembas protocol 2 or later): _lembas/plan by the session's plan answer, and
// _lembas/question by the option the agent recommends, else its first, as a headless run's
// `unattended: recommended` takes it. Any other method is not found.
func (h handler) HandleExtensionMethod(_ context.Context, method string, params json.RawMessage) (any, error) {
	var p struct {
		SessionID   string   `json:"sessionId"`
		ToolCallID  string   `json:"toolCallId"`
		Plan        string   `json:"plan"`
		Question    string   `json:"question"`
		Options     []string `json:"options"`
		Recommended string   `json:"recommended"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	rec := Asked{Method: method, SessionID: p.SessionID, ToolCallID: p.ToolCallID}
	var answer any
	c := h.c
	c.mu.Lock()
	defer c.mu.Unlock()
	switch method {
	case spec.Text("acp.method.plan"):
		a, ok := c.plans[p.SessionID]
		if !ok {
			a = PlanAnswer{Approved: !c.o.Reject}
		}
		rec.Plan, rec.Answer, answer = p.Plan, a, a
	case spec.Text("acp.method.question"):
		pick := p.Recommended
		if pick == "" && len(p.Options) > 0 {
			pick = p.Options[0]
		}
		rec.Question, rec.Options, rec.Recommended, rec.Answer = p.Question, p.Options, p.Recommended, pick
		answer = map[string]any{"answer": pick}
	default:
		return nil, sdk.NewMethodNotFound(method)
	}
	c.asked = append(c.asked, rec)
	return answer, nil
}

// Steer sends the person's words into the session's running turn (_lembas/steer, `{sessionId,
// text, id}` — the seed fixes the name and that each message has an id, not the params:
// lembas-check's, docs/live.md); the agent takes them in at its next step. Unsupported for an agent
// that is not a LLeMbas one.
func (c *Client) Steer(ctx context.Context, s Session, id, text string) error {
	if !c.lembas() {
		return &Unsupported{What: "a message into the running turn",
			Why: "the agent is not a LLeMbas agent (no _meta.lembas in its initialize answer), so it offers no " +
				spec.Text("acp.method.steer")}
	}
	_, err := c.extension(ctx, spec.Text("acp.method.steer"), map[string]any{"sessionId": s.ID, "id": id, "text": text})
	return err
}

// Info is what the agent said of itself in initialize.
func (c *Client) Info() Info {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}
