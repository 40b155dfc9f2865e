package livetarget

import (
	"encoding/json"
	"strings"
	"testing"
)

// A result a later request carries otherwise than it was inserted is shown so (the one rule);
// one carried as it was is not; and a summary request whose compaction fails is left out of the
// universal rules, the request after it extending the one before it.
func TestContextRewrittenAndAside(t *testing.T) {
	body := func(results ...string) []byte {
		msgs := []map[string]any{{"role": "system", "content": "s"}, {"role": "user", "content": "go"}}
		for i, r := range results {
			id := "call_000" + string(rune('1'+i))
			msgs = append(msgs, map[string]any{"role": "assistant", "content": "", "tool_calls": []map[string]any{{
				"id": id, "type": "function", "function": map[string]string{"name": "read", "arguments": "{}"}}}},
				map[string]any{"role": "tool", "tool_call_id": id, "content": r})
		}
		b, _ := json.Marshal(map[string]any{"model": "fake-model", "messages": msgs})
		return b
	}
	slotOf := func(b []byte) *slot {
		q, err := parseRequest(b)
		if err != nil {
			t.Fatal(err)
		}
		return &slot{body: b, req: q}
	}
	pc := &contextPlay{at: map[int]*slot{}, later: map[int][]*slot{}}
	pc.add(0, slotOf(body("[#0001 a.md lines 1-1 of 1 sha 1]\n1: a")))
	pc.add(1, slotOf(body("[#0001 a.md lines 1-1 of 1 sha 1] (pruned)", "[#0002]\nb")))
	if got := pc.rewritten(0, "call_0001", "[#0001 a.md lines 1-1 of 1 sha 1]\n1: a"); !strings.Contains(got,
		"rewritten in a later request: [#0001 a.md lines 1-1 of 1 sha 1] (pruned)") {
		t.Errorf("a result pruned later: %q", got)
	}
	if got := pc.rewritten(1, "call_0002", "[#0002]\nb"); got != "" {
		t.Errorf("a result carried as it was: %q", got)
	}
	summary := slotOf(body("x", "y", "z"))
	summary.aside = true
	pl := &plan{turns: []*turn{{slots: []*slot{slotOf(body("x")), summary, slotOf(body("x", "w"))}}}}
	if k := kept("context/x", "context", pl); k.Broke[RuleRewritten] != "" || k.Requests != 2 {
		t.Errorf("a failed compaction's summary request in the rules: %+v", k)
	}
}
