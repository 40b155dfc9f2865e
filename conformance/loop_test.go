package conformance

import (
	"encoding/json"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/jobs"
	"github.com/LLeMbas/lembas-check/harness/loop"
)

// TestLoopCasesCatchABrokenReference plays the loop cases against references each with one of
// loop.json's numbers off by one: every such reference must fail some case, so no number is
// unchecked (an implementation reading max 5 instead of 4 fails the suite).
func TestLoopCasesCatchABrokenReference(t *testing.T) {
	cases, err := EmbeddedCases("loop")
	if err != nil {
		t.Fatal(err)
	}
	jl, pl, wait := jobs.DefaultLimits(), loop.DefaultLimits(), loop.MCPWaitMS()
	broken := map[string]func(){
		"parallel.max+1":             func() { pl.Max++ },
		"parallel.max-1":             func() { pl.Max-- },
		"jobs.running_max+1":         func() { jl.RunningMax++ },
		"jobs.running_max-1":         func() { jl.RunningMax-- },
		"jobs.finished_kept+1":       func() { jl.FinishedKept++ },
		"jobs.finished_kept-1":       func() { jl.FinishedKept-- },
		"jobs.note_tail_chars+1":     func() { jl.NoteTailChars++ },
		"jobs.note_tail_chars-1":     func() { jl.NoteTailChars-- },
		"jobs.subagent_steps+1":      func() { jl.SubagentSteps++ },
		"jobs.subagent_steps-1":      func() { jl.SubagentSteps-- },
		"context.mcp_wait_ms+1":      func() { wait++ },
		"context.mcp_wait_ms-1":      func() { wait-- },
		"context.mcp_wait_ms (none)": func() { wait = 0 },
	}
	for name, breakIt := range broken {
		jl, pl, wait = jobs.DefaultLimits(), loop.DefaultLimits(), loop.MCPWaitMS()
		breakIt()
		ref := loopReference(jl, pl, wait)
		failed := 0
		for _, c := range cases {
			dc, err := c.Decode()
			if err != nil {
				t.Fatal(err)
			}
			got, err := ref(dc.(loopCase))
			if err != nil {
				t.Fatalf("%s: %s: %v", name, c.ID, err)
			}
			b, _ := json.Marshal(got)
			if Diff(c.Expect, b) != "" {
				failed++
			}
		}
		if failed == 0 {
			t.Errorf("a reference with %s passes every loop case", name)
		}
	}
}

func TestLoopRefusesMalformedCases(t *testing.T) {
	for _, c := range []struct{ name, json, field, want string }{
		{"bad op", `{"op": "sleep"}`, "op", "want wrap_up"},
		{"no limit", `{"op": "wrap_up", "tools": []}`, "limit", "missing"},
		{"other op's field", `{"op": "parallel", "step": [{"tool": "read"}], "limit": "x"}`, "limit",
			"not an op parallel case's"},
		{"empty step", `{"op": "parallel", "step": []}`, "step", "missing"},
		{"unknown connection", `{"op": "capacity", "connections": {}, "prompt": {"connection": "a", "model": "m"},
			"start": {"connection": "a", "model": "m"}}`, "connections", `has no "a"`},
		{"no start", `{"op": "capacity", "connections": {}, "prompt": {"connection": "a", "model": "m"}}`, "start",
			"missing"},
		{"bad event", `{"op": "jobs", "events": [{"op": "start", "kind": "command"}, {"op": "nap"}]}`,
			"events[1].op", "want start"},
		{"bad kind", `{"op": "jobs", "events": [{"op": "start", "kind": "cron"}]}`, "events[0].kind", "want command"},
		{"no job", `{"op": "jobs", "events": [{"op": "finish"}]}`, "events[0].job", "missing"},
		{"event field", `{"op": "jobs", "events": [{"op": "list", "job": "job1"}]}`, "events[0].job",
			"not a list event's"},
		{"steps without n", `{"op": "jobs", "events": [{"op": "steps", "job": "job1"}]}`, "events[0].n", "missing"},
		{"bad exit", `{"op": "jobs", "events": [{"op": "exit", "text": "later"}]}`, "events[0].text", "want one of"},
	} {
		_, err := Loop.Decode(json.RawMessage(c.json))
		wantField(t, c.name, err, c.field, c.want)
	}
	for _, c := range []struct{ json, field, want string }{
		{`{}`, "", "exactly one of"},
		{`{"start": true, "results": []}`, "", "exactly one of"},
	} {
		_, err := Loop.DecodeAnswer(json.RawMessage(c.json))
		wantField(t, c.json, err, c.field, c.want)
	}
}
