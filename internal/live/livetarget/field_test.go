package livetarget

import (
	"bytes"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/live"
	"github.com/LLeMbas/lembas-check/runner"
)

// The field report counts what was played and passed per area, never a skip, and the played
// cases that kept each universal rule; its second table says so per agent.
func TestFieldCounts(t *testing.T) {
	res := func(id string, v runner.Verdict) runner.Result {
		return runner.Result{Case: conformance.Case{Label: conformance.Label{ID: id, Area: strings.Split(id, "/")[0]}}, Verdict: v}
	}
	rep := &runner.Report{Results: []runner.Result{
		res("context/a", runner.Fail), res("context/b", runner.Pass), res("context/c", runner.Skip),
		res("prefix/d", runner.Crashed), res("jobs/e", runner.Pass),
	}}
	kept := []Kept{
		{ID: "context/a", Requests: 2, Broke: map[string]string{}},
		{ID: "context/b", Requests: 3, Broke: map[string]string{RulePrompt: "request 3 sends another system prompt than request 2"}},
	}
	c := Count(rep, kept)
	got := map[string]live.CaseCount{}
	for _, x := range append(c.Areas, c.Universal...) {
		got[x.Name] = x
	}
	for name, want := range map[string]live.CaseCount{
		"context":     {Name: "context", Held: 1, Of: 2, First: "context/a (fail)"},
		"prefix":      {Name: "prefix", Held: 0, Of: 1, First: "prefix/d (crashed)"},
		"fs_access":   {Name: "fs_access"},
		RulePrompt:    {Name: RulePrompt, Held: 1, Of: 2, First: "context/b: request 3 sends another system prompt than request 2"},
		RuleRewritten: {Name: RuleRewritten, Held: 2, Of: 2},
	} {
		if got[name] != want {
			t.Errorf("%s: %+v, want %+v", name, got[name], want)
		}
	}
	if !strings.Contains(c.Note, "1 cases crashed") {
		t.Errorf("note %q", c.Note)
	}
	var b bytes.Buffer
	if err := live.WriteFieldReport(&b, []live.FieldRow{{Agent: "someagent", Cases: c}}, "test"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"## The conformance cases on each agent",
		"| Agent | context | fs_access | instructions | jobs | modules | prefix | search | workspace | " +
			"system prompt held | tool list held | nothing rewritten |",
		"| someagent | ❌ 1/2 | ➖ | ➖ | ✅ 1/1 | ➖ | ❌ 0/1 | ➖ | ➖ | ❌ 1/2 | ✅ 2/2 | ✅ 2/2 |",
		"  - context: context/a (fail)\n",
		"  - system prompt held: context/b: request 3 sends another system prompt than request 2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}
