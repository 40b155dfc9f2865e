package livetarget

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/runner"
)

// settingsCases are the prefix cases whose session starts with, or is changed to, a plan, a
// memory, a personality, an MCP server's instructions or what it meets, by the person, and nothing the live
// target cannot carry (instruction texts by heading, a wrap-up, the model's own change).
func settingsCases(t *testing.T) []conformance.Case {
	t.Helper()
	var out []conformance.Case
	for _, c := range liveCases(t) {
		if c.Area != "prefix" {
			continue
		}
		cs, err := decoded[conformance.PrefixCase](c)
		if err != nil {
			t.Fatal(err)
		}
		st := cs.Start
		has := st.Plan.V != "" || st.Memory.V != "" || st.Personality.V != "" || len(st.MCP.V) > 0 || st.Met.Set ||
			len(st.Files.V) > 0
		for _, s := range *cs.Steps {
			has = has || s.Plan.Set || s.Memory.Set || s.Personality.Set || s.MCP.Set || s.Met.Set || s.Files.Set
		}
		if has {
			if _, err := planPrefix(profile(t, "reference"), c); err == nil {
				out = append(out, c)
			}
		}
	}
	if len(out) < 2 {
		t.Fatalf("%d prefix cases start with or change the person's settings and can be planned, want at least 2", len(out))
	}
	return out
}

// The person's settings reach a LLeMbas harness by _lembas/configure: the reference agent passes
// each such case; a plain ACP agent skips it, naming the extension that would carry it.
func TestSettingsByConfigure(t *testing.T) {
	cases := settingsCases(t)
	for _, mode := range []string{"reference", "plain"} {
		rep := run(t, profile(t, mode), runner.CaseItems(cases), never)
		for _, r := range rep.Results {
			switch {
			case mode == "reference" && r.Verdict != runner.Pass:
				t.Errorf("reference: %s: %s: %s%s", r.Case.ID, r.Verdict, r.Message, r.Diff)
			case mode == "plain" && (r.Verdict != runner.Skip || !strings.Contains(r.Message, "_lembas/configure")):
				t.Errorf("plain: %s: %s: %q, want a skip naming _lembas/configure", r.Case.ID, r.Verdict, r.Message)
			}
		}
	}
}

// The fs_access and instructions cases one access level cannot tell reach a LLeMbas harness's
// view by _lembas/configure's grants, floor and mounts: the reference agent passes each; a plain
// ACP agent skips it, naming the extension and what one level answers.
func TestPermissionRulesByConfigure(t *testing.T) {
	var cases []conformance.Case
	for _, c := range liveCases(t) {
		if c.Area != "fs_access" && c.Area != "instructions" {
			continue
		}
		if pl, err := planCase(profile(t, "reference"), c); err == nil && len(pl.turns[0].before) > 0 {
			cases = append(cases, c)
		}
	}
	if len(cases) < 10 {
		t.Fatalf("%d fs_access and instructions cases are given their rules by configure, want at least 10", len(cases))
	}
	for _, mode := range []string{"reference", "plain"} {
		rep := run(t, profile(t, mode), runner.CaseItems(cases), never)
		for _, r := range rep.Results {
			switch {
			case mode == "reference" && r.Verdict != runner.Pass:
				t.Errorf("reference: %s: %s: %s%s", r.Case.ID, r.Verdict, r.Message, r.Diff)
			case mode == "plain" && (r.Verdict != runner.Skip || !strings.Contains(r.Message, "_lembas/configure") || !strings.Contains(r.Message, "the reference answers")):
				t.Errorf("plain: %s: %s: %q, want a skip naming _lembas/configure and the one-level answer", r.Case.ID, r.Verdict, r.Message)
			}
		}
	}
}

// A context case's own cap (limits) reaches a LLeMbas harness by _lembas/configure's cap: the
// reference agent passes each such case; a plain ACP agent skips it, naming the extension.
func TestCapByConfigure(t *testing.T) {
	var cases []conformance.Case
	for _, c := range liveCases(t) {
		if c.Area == "context" && usesConfigure(t, c) {
			cases = append(cases, c)
		}
	}
	if len(cases) < 3 {
		t.Fatalf("%d context cases give their cap by configure, want at least 3", len(cases))
	}
	for _, mode := range []string{"reference", "plain"} {
		rep := run(t, profile(t, mode), runner.CaseItems(cases), never)
		for _, r := range rep.Results {
			switch {
			case mode == "reference" && r.Verdict != runner.Pass:
				t.Errorf("reference: %s: %s: %s%s", r.Case.ID, r.Verdict, r.Message, r.Diff)
			case mode == "plain" && (r.Verdict != runner.Skip || !strings.Contains(r.Message, "_lembas/configure") || !strings.Contains(r.Message, "limits")):
				t.Errorf("plain: %s: %s: %q, want a skip naming the cap and _lembas/configure", r.Case.ID, r.Verdict, r.Message)
			}
		}
	}
}

// The model's own plan change is its plan_write call in the turn running: the case is planned
// with that call, and the reference agent passes it.
func TestModelsPlanChangeIsPlanWrite(t *testing.T) {
	var items []runner.Item
	for _, c := range liveCases(t) {
		if c.Area != "prefix" {
			continue
		}
		cs, err := decoded[conformance.PrefixCase](c)
		if err != nil {
			t.Fatal(err)
		}
		byModel := false
		for _, s := range *cs.Steps {
			byModel = byModel || s.Op == "set" && s.By.V == "model" && s.Plan.Set
		}
		pl, err := planPrefix(profile(t, "reference"), c)
		if !byModel || err != nil {
			continue
		}
		calls := 0
		for _, tn := range pl.turns {
			for _, s := range tn.slots {
				for _, tc := range s.reply.ToolCalls {
					if tc.Name == "plan_write" {
						calls++
					}
				}
			}
		}
		if calls == 0 {
			t.Errorf("%s: the model's plan change makes no plan_write call", c.ID)
		}
		items = append(items, runner.Item{Case: c})
	}
	if len(items) == 0 {
		t.Fatal("no prefix case with the model's own plan change is planned")
	}
	for _, r := range run(t, profile(t, "reference"), items, never).Results {
		if r.Verdict != runner.Pass {
			t.Errorf("%s: %s: %s%s", r.Case.ID, r.Verdict, r.Message, r.Diff)
		}
	}
}

// A job's end and a search's index reach a LLeMbas harness by _lembas/configure's job and index:
// the reference agent passes every such case but a message to a subagent (it runs none); a plain
// ACP agent skips each, naming the extension.
func TestJobsAndSearchByConfigure(t *testing.T) {
	var cases []conformance.Case
	for _, c := range liveCases(t) {
		// A grep case is skipped before any play (no play makes a grep): planSearch's own test.
		if (c.Area == "jobs" || c.Area == "search") && !strings.Contains(string(c.Input), `"grep":`) {
			cases = append(cases, c)
		}
	}
	for _, mode := range []string{"reference", "plain"} {
		rep := run(t, profile(t, mode), runner.CaseItems(cases), never)
		passed := 0
		for _, r := range rep.Results {
			switch {
			case r.Verdict == runner.Skip && strings.Contains(r.Message, "runs no subagent"):
			case mode == "reference" && r.Verdict == runner.Pass:
				passed++
			case mode == "reference":
				t.Errorf("reference: %s: %s: %s%s", r.Case.ID, r.Verdict, r.Message, r.Diff)
			case r.Verdict != runner.Skip || !strings.Contains(r.Message, "_lembas/configure"):
				t.Errorf("plain: %s: %s: %q, want a skip naming _lembas/configure", r.Case.ID, r.Verdict, r.Message)
			}
		}
		if mode == "reference" && passed < len(cases)-1 {
			t.Errorf("reference: %d of %d jobs and search cases passed", passed, len(cases))
		}
	}
}
