package acp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The client answers a LLeMbas agent's _lembas/plan by the session's plan answer (approved by
// default, not with Reject) and _lembas/question by the recommended option, else the first; any
// other request of the agent is method-not-found. It sends _lembas/steer to a LLeMbas agent only.
func TestAskedAndSteer(t *testing.T) {
	for _, reject := range []bool{false, true} {
		cl, a := startAgent(t, Options{Dir: t.TempDir(), Lembas: true, Reject: reject},
			func(a *agent, id json.RawMessage, m string, params json.RawMessage) {
				switch m {
				case "initialize":
					a.answer(id, map[string]any{"protocolVersion": 1, "authMethods": []any{},
						"_meta": map[string]any{"lembas": map[string]any{"protocol": 3, "capabilities": []any{"plan_state"}}}})
				case "_lembas/steer":
					a.answer(id, map[string]any{"id": "m1"})
				default:
					basic(a, id, m, params)
				}
			})
		s := open(t, cl)
		plan := func() string {
			return string(a.ask("_lembas/plan", map[string]any{"sessionId": s.ID, "toolCallId": "#0001", "plan": "# P"}))
		}
		if got, want := plan(), map[bool]string{false: `{"approved":true}`, true: `{"approved":false}`}[reject]; got != want {
			t.Errorf("reject %v: the default plan answer %s, want %s", reject, got, want)
		}
		cl.AnswerPlans(s.ID, PlanAnswer{Approved: true, Mode: "auto"})
		if got := plan(); got != `{"approved":true,"mode":"auto"}` {
			t.Errorf("the plan answered %s", got)
		}
		for params, want := range map[string]string{
			`{"sessionId":"s1","question":"Q?","options":["a","b"],"recommended":"b"}`: `{"answer":"b"}`,
			`{"sessionId":"s1","question":"Q?","options":["a","b"]}`:                   `{"answer":"a"}`,
		} {
			if got := string(a.ask("_lembas/question", json.RawMessage(params))); got != want {
				t.Errorf("%s answered %s, want %s", params, got, want)
			}
		}
		if got := string(a.ask("_lembas/show", map[string]any{"sessionId": s.ID})); !strings.Contains(got, "-32601") {
			t.Errorf("an unknown request answered %s", got)
		}
		asked := cl.Asked()
		if len(asked) != 4 || asked[1].Plan != "# P" || asked[1].ToolCallID != "#0001" || asked[2].Question != "Q?" {
			t.Errorf("asked: %+v", asked)
		}
		if err := cl.Steer(context.Background(), s, "m1", "also b"); err != nil ||
			string(a.params["_lembas/steer"]) != `{"id":"m1","sessionId":"s1","text":"also b"}` {
			t.Errorf("steer: %v %s", err, a.params["_lembas/steer"])
		}
	}
	plain, _ := startAgent(t, Options{Dir: t.TempDir()}, func(a *agent, id json.RawMessage, m string, params json.RawMessage) {
		basic(a, id, m, params)
	})
	var u *Unsupported
	if err := plain.Steer(context.Background(), open(t, plain), "m1", "x"); !errors.As(err, &u) ||
		!strings.Contains(err.Error(), "_lembas/steer") {
		t.Errorf("steer on a plain agent: %v", err)
	}
}
