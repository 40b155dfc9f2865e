package refagent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// methodNotFound is JSON-RPC's code for a method the peer does not have.
const methodNotFound = -32601

// asksLembas says whether plans and questions go to the client as _lembas/plan and
// _lembas/question: acp.md gives them only to a client that said _meta.lembas with protocol 2 or
// later, and treats one that answered either with method-not-found as protocol 1 for the rest of
// the link (then session/request_permission puts the plan, and nobody can be asked a question).
func (a *Agent) asksLembas() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lembas && a.clientProtocol >= 2 && a.conn != nil
}

// askClient sends one of those requests; ok is false where the client has no such method, and the
// link is then protocol 1 from now on.
func (a *Agent) askClient(ctx context.Context, method string, params any) (raw json.RawMessage, ok bool, err error) {
	raw, err = a.connection().CallExtension(ctx, method, params)
	var re *sdk.RequestError
	if errors.As(err, &re) && re.Code == methodNotFound {
		a.mu.Lock()
		a.clientProtocol = 1
		a.mu.Unlock()
		return nil, false, nil
	}
	return raw, err == nil, err
}

// planAnswer is a client's answer to _lembas/plan as this agent reads it. The seed names the
// answer's reader (planReplyFrom(answer, maxMode)) but not its fields: these are lembas-check's,
// docs/live.md, The LLeMbas extensions.
type planAnswer struct {
	Approved bool   `json:"approved"`
	Mode     string `json:"mode"`     // where the approval leaves the session ("": approvedMode)
	Feedback string `json:"feedback"` // why not, told to the model
}

// approvePlan puts the plan to the person: _lembas/plan to a LLeMbas client (its params carry
// the plan, `_meta.lembas.plan` as capability plan_state says), else an approval card
// (session/request_permission). Approved, it says the mode the session moves to.
func (s *session) approvePlan(ctx context.Context, id string) (approved bool, mode, feedback string) {
	if s.a.asksLembas() {
		s.mu.Lock()
		plan := s.plan
		s.mu.Unlock()
		raw, ok, err := s.a.askClient(ctx, spec.Text("acp.method.plan"), map[string]any{"sessionId": s.id,
			"toolCallId": id, "plan": plan, "_meta": map[string]any{"lembas": map[string]any{"plan": plan}}})
		if err != nil {
			return false, "", "The plan could not be put to the person: " + err.Error()
		}
		if ok {
			var r planAnswer
			json.Unmarshal(raw, &r)
			if !r.Approved {
				return false, "", r.Feedback
			}
			return true, modeOf(r.Mode), ""
		}
	}
	s.mu.Lock()
	ahead := s.planAnswer
	s.mu.Unlock()
	if ahead != nil && s.a.connection() == nil {
		// Over A2A the client cannot be asked: its answer was given ahead (_lembas/configure).
		if !ahead.Approved {
			return false, "", ahead.Feedback
		}
		return true, modeOf(ahead.Mode), ""
	}
	resp, err := s.a.permit(ctx, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(s.id),
		ToolCall:  sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(id), Title: sdk.Ptr("Approve the plan")},
		Options: []sdk.PermissionOption{
			{OptionId: "approve", Name: "Approve the plan", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "reject", Name: "Keep planning", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	})
	if err != nil || resp.Outcome.Selected == nil || resp.Outcome.Selected.OptionId != "approve" {
		return false, "", ""
	}
	return true, approvedMode, ""
}

// nobodyToAsk is ask_user's result where no client takes _lembas/question (the seed's
// NOBODY_TO_ASK is not in it: lembas-check's words).
const nobodyToAsk = "Nobody can be asked in this session: decide yourself, and say what you assumed."

// modeOf is the mode an approval names, approvedMode where it names none the session offers.
func modeOf(m string) string {
	if !slices.Contains(Modes, m) {
		return approvedMode
	}
	return m
}

// askUser is the ask_user tool: the question goes to a LLeMbas client as _lembas/question (params
// `{sessionId, toolCallId, question, options, recommended}`, answer `{answer}` — lembas-check's
// fields, the seed naming only questionParams and questionReplyFrom) and its answer is the result.
func (s *session) askUser(ctx context.Context, id string, raw json.RawMessage) string {
	var q struct {
		Question    string   `json:"question"`
		Options     []string `json:"options"`
		Recommended string   `json:"recommended"`
	}
	json.Unmarshal(raw, &q)
	if q.Question == "" {
		return s.output(id, "ask_user", raw, "ask_user needs the question")
	}
	if !s.a.asksLembas() {
		return s.output(id, "ask_user", raw, nobodyToAsk)
	}
	params := map[string]any{"sessionId": s.id, "toolCallId": id, "question": q.Question,
		"options": append([]string{}, q.Options...), "recommended": q.Recommended}
	ans, ok, err := s.a.askClient(ctx, spec.Text("acp.method.question"), params)
	switch {
	case err != nil:
		return s.output(id, "ask_user", raw, "The question could not be put to the person: "+err.Error())
	case !ok:
		return s.output(id, "ask_user", raw, nobodyToAsk)
	}
	var r struct {
		Answer *string `json:"answer"`
	}
	if json.Unmarshal(ans, &r); r.Answer == nil {
		return s.output(id, "ask_user", raw, "The person gave no answer.")
	}
	return s.output(id, "ask_user", raw, *r.Answer)
}
