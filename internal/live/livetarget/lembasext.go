package livetarget

import (
	"context"
	"fmt"
	"slices"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
)

// planAnswerer tells the harness how the person answers its next plan.
type planAnswerer func(ctx context.Context, a acp.PlanAnswer) error

// putsPlans says how the harness can be told the person's answer to the model's plan, whose
// approval names the mode it sets: a LLeMbas agent over ACP that lists plan_state ("`_meta.lembas.plan`
// … on `_lembas/plan`"; acp.md gives the method to a client of protocol 2 or later, which the live
// target is) asks it by _lembas/plan; over A2A, which has no request from agent to client, a
// LLeMbas server is given the answer ahead by _lembas/configure's plan_answer. Else why not.
func putsPlans(h harness) (planAnswerer, string) {
	if a, ok := h.(*a2aHarness); ok {
		if !a.c.Lembas() {
			return nil, "A2A has no request from agent to client, and the agent card offers no LLeMbas extension " +
				"whose _lembas/configure would give the answer ahead"
		}
		return func(ctx context.Context, p acp.PlanAnswer) error {
			return a.Configure(ctx, map[string]any{"plan_answer": p})
		}, ""
	}
	ah, ok := h.(*acpHarness)
	switch {
	case !ok:
		return nil, "the harness is driven neither over ACP, where _lembas/plan is the agent's request to the " +
			"client, nor over A2A"
	case !ah.lembas:
		return nil, "the agent is not a LLeMbas agent (no _meta.lembas in its initialize answer), so it puts no plan " +
			"to the client with " + spec.Text("acp.method.plan")
	case !slices.Contains(ah.c.Info().Capabilities, spec.Text("acp.capability.plan_state")):
		return nil, "the agent does not list " + spec.Text("acp.capability.plan_state") + " (the plan on " +
			spec.Text("acp.method.plan") + ") in its initialize answer's _meta.lembas"
	}
	return func(_ context.Context, p acp.PlanAnswer) error {
		ah.c.AnswerPlans(ah.s.ID, p)
		return nil
	}, ""
}

// answerPlan makes the person approve the session's next plan so that it leaves the session in
// mode, by _lembas/plan's answer, where the harness can be told; else it approves by its own rule
// (session/request_permission).
func answerPlan(mode string) action {
	return action{what: "the plan approved to mode " + mode + " by " + spec.Text("acp.method.plan"),
		do: func(ctx context.Context, e *env) error {
			if tell, _ := putsPlans(e.h); tell != nil {
				return tell(ctx, acp.PlanAnswer{Approved: true, Mode: mode})
			}
			return nil
		}}
}

// needPlans is the case's skip, before anything is played, where its step (1-based) has the
// model move to mode by an approval only _lembas/plan's answer can name.
func needPlans(step int, mode string) action {
	return action{what: "the harness puts plans to the client by " + spec.Text("acp.method.plan"),
		do: func(_ context.Context, e *env) error {
			if _, why := putsPlans(e.h); why != "" {
				return &acp.Unsupported{What: fmt.Sprintf("step %d: the model's own move to mode %s by "+
					"plan_submit's approval, which only the person's answer can name", step, mode), Why: why}
			}
			return nil
		}}
}

// refusePlan makes the person keep the session planning at its next plan (_lembas/plan's answer
// not approved), where the harness can be told; another approves by its own rule.
func refusePlan() action {
	return action{what: "the plan not approved by " + spec.Text("acp.method.plan"),
		do: func(ctx context.Context, e *env) error {
			if tell, _ := putsPlans(e.h); tell != nil {
				return tell(ctx, acp.PlanAnswer{})
			}
			return nil
		}}
}
