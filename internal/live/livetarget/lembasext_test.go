package livetarget

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
	"github.com/LLeMbas/lembas-check/runner"
)

// approvalCases are the prefix cases whose model moves the mode by a plan approval the live target
// makes it submit (no plan_submit step just before): only _lembas/plan's answer names that mode.
func approvalCases(t *testing.T) []conformance.Case {
	t.Helper()
	var out []conformance.Case
	for _, c := range liveCases(t) {
		if c.Area != "prefix" {
			continue
		}
		if pl, err := planPrefix(profile(t, "reference"), c); err == nil &&
			strings.Contains(pl.turns[0].before[0].what, "puts plans to the client") {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatal("no prefix case moves the mode by an approval the live target makes")
	}
	return out
}

// The model's own mode change by plan approval is played by _lembas/plan: the reference agent
// passes each such case; a plain ACP agent (no _meta.lembas) skips it, naming the extension; an
// agent that stays in plan mode after the approval fails it, where plan_submit was to be refused.
func TestPlanApprovalByLembasPlan(t *testing.T) {
	cases := approvalCases(t)
	for _, tc := range []struct {
		mode, brk string
		want      runner.Verdict
		says      string
	}{
		{"reference", "", runner.Pass, ""},
		{"plain", "", runner.Skip, "step 9: the model's own move to mode edit"},
		{"reference", refagent.BreakApprovalKeepsPlan, runner.Fail, "Not in plan mode"},
	} {
		rep := run(t, profile(t, tc.mode, "LIVETARGET_TEST_BREAK", tc.brk), runner.CaseItems(cases), never)
		for _, r := range rep.Results {
			named := r.Verdict != runner.Skip || strings.Contains(r.Message, "_lembas/plan")
			if r.Verdict != tc.want || !strings.Contains(r.Message+r.Diff, tc.says) || !named {
				t.Errorf("%s %s: %s: %s: %s%s, want %s naming %q", tc.mode, tc.brk, r.Case.ID, r.Verdict, r.Message,
					r.Diff, tc.want, tc.says)
			}
		}
	}
}

// The model's own memory change is its memory call in the running turn: the reference agent
// passes each case that has one (and that the live target plays); an agent that notes that change
// as the person's fails it, its note showing where none is due.
func TestOwnMemoryByTheMemoryTool(t *testing.T) {
	var cases []conformance.Case
	for _, c := range liveCases(t) {
		if c.Area != "prefix" || !strings.Contains(string(c.Input), `"by":"model"`) {
			continue
		}
		cs, err := decoded[conformance.PrefixCase](c)
		if err != nil {
			t.Fatal(err)
		}
		own := false
		for _, s := range *cs.Steps {
			own = own || s.By.V == "model" && s.Memory.Set
		}
		if _, err := planPrefix(profile(t, "reference"), c); own && err == nil {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatal("no prefix case the live target plays has the model change its memory")
	}
	for brk, want := range map[string]runner.Verdict{"": runner.Pass, refagent.BreakOwnMemoryNoted: runner.Fail} {
		rep := run(t, profile(t, "reference", "LIVETARGET_TEST_BREAK", brk), runner.CaseItems(cases), never)
		for _, r := range rep.Results {
			if r.Verdict != want || want == runner.Fail && !strings.Contains(r.Diff, "remembered") {
				t.Errorf("%q: %s: %s: %s%s, want %s", brk, r.Case.ID, r.Verdict, r.Message, r.Diff, want)
			}
		}
	}
}
