package bench

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

func rewriteAll(t *testing.T, v Variant, file string) []replay.Entry {
	t.Helper()
	entries, _, err := replay.ReadAll(file)
	if err != nil {
		t.Fatal(err)
	}
	v = v.Resolve(len(entries))
	for i := range entries {
		b, err := v.Rewrite(i+1, entries[i].Body)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b) {
			t.Fatalf("request %d: not JSON after the rewrite:\n%s", i+1, b)
		}
		entries[i].Body = b
	}
	return entries
}

func breaks(t *testing.T, entries []replay.Entry) []string {
	a, err := audit.New(audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		q, err := a.Add(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		if q.Break {
			out = append(out, q.Cause.Slug()+"@"+itoa(q.Seq)+" "+q.Path+" "+q.Clock)
		}
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Each variant of the clean session breaks the prefix where and how it says.
func TestVariantsOfTheCleanSession(t *testing.T) {
	const clean = "../../../testdata/recordings/clean.jsonl"
	for spec, want := range map[string]string{
		"date-in-system":   "system-prompt-changed@3 $.messages[0].content 2026-11-05 → 2026-11-06",
		"date-in-system:5": "system-prompt-changed@5 $.messages[0].content 2026-11-05 → 2026-11-06",
		"prune-results":    "earlier-message-rewritten@4 $.messages[3].content ",
		"tool-churn:2":     "tools-changed@2 $.tools[3] ",
	} {
		v, err := ParseVariant(spec)
		if err != nil {
			t.Fatal(err)
		}
		got := breaks(t, rewriteAll(t, v, clean))
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: breaks %q, want [%q]", spec, got, want)
		}
	}
}

func TestRewriteKeepsEveryOtherByte(t *testing.T) {
	body := []byte(`{"model":"m", "messages":[ {"role":"system","content":"S"}, {"role":"user","content":"u"} ],"tools":[{"type":"function","function":{"name":"a"}}] ,"x":1}`)
	v := Variant{Name: ToolChurn, At: 3}
	if b, _ := v.Rewrite(2, body); string(b) != string(body) {
		t.Errorf("before At the body changed: %s", b)
	}
	b, _ := v.Rewrite(3, body)
	if !strings.HasPrefix(string(b), `{"model":"m", "messages":[ {"role":"system","content":"S"}, {"role":"user","content":"u"} ],"tools":[{"type":"function","function":{"name":"a"}},{"type":"function","function":{"name":"mcp__churn__lookup"`) || !strings.HasSuffix(string(b), `}}}] ,"x":1}`) {
		t.Errorf("tool-churn: %s", b)
	}
	d, _ := Variant{Name: DateInSystem, At: 1}.Rewrite(1, body)
	if string(d) != strings.Replace(string(body), `"content":"S"`, `"content":"Today is 2026-11-06.\n\nS"`, 1) {
		t.Errorf("date-in-system: %s", d)
	}
}

func TestOtherShapes(t *testing.T) {
	for name, c := range map[string]struct {
		v          Variant
		body, want string
	}{
		"no system prompt": {Variant{Name: DateInSystem, At: 9}, `{"messages":[{"role":"user","content":"u"}]}`,
			`{"messages":[{"role":"system","content":"Today is 2026-11-05."},{"role":"user","content":"u"}]}`},
		"system blocks": {Variant{Name: DateInSystem, At: 1}, `{"messages":[{"role":"system","content":[{"type":"text","text":"S"}]}]}`,
			`{"messages":[{"role":"system","content":[{"type":"text","text":"Today is 2026-11-06.\n\nS"}]}]}`},
		"responses":       {Variant{Name: DateInSystem, At: 1}, `{"instructions":"I","input":"q"}`, `{"instructions":"Today is 2026-11-06.\n\nI","input":"q"}`},
		"responses, none": {Variant{Name: DateInSystem, At: 1}, `{"input":"q"}`, `{"input":"q","instructions":"Today is 2026-11-06."}`},
		// A null instructions is given the date in place (it was added again: two instructions).
		"responses, null": {Variant{Name: DateInSystem, At: 1}, `{"instructions":null,"input":"q"}`, `{"instructions":"Today is 2026-11-06.","input":"q"}`},
		"tools null": {Variant{Name: ToolChurn, At: 1}, `{"messages":[],"tools":null}`,
			`{"messages":[],"tools":[{"type":"function","function":{"name":"mcp__churn__lookup","description":"A tool an MCP server added in the middle of the session.","parameters":{"type":"object","properties":{}}}}]}`},
		"empty object": {Variant{Name: DateInSystem, At: 1}, `{ "input":"q" }`, `{ "input":"q" ,"instructions":"Today is 2026-11-06."}`},
		"no tools": {Variant{Name: ToolChurn, At: 1}, `{"messages":[]}`,
			`{"messages":[],"tools":[{"type":"function","function":{"name":"mcp__churn__lookup","description":"A tool an MCP server added in the middle of the session.","parameters":{"type":"object","properties":{}}}}]}`},
		"prune": {Variant{Name: PruneResults}, `{"messages":[{"role":"user","content":"a"},{"role":"tool","tool_call_id":"c","content":"long"},{"role":"user","content":"b"},{"role":"tool","tool_call_id":"d","content":"new"}]}`,
			`{"messages":[{"role":"user","content":"a"},{"role":"tool","tool_call_id":"c","content":"[Old tool result content cleared]"},{"role":"user","content":"b"},{"role":"tool","tool_call_id":"d","content":"new"}]}`},
		// Responses' results, a custom tool's too (its result was left whole); Anthropic's user
		// message of results is not the person speaking.
		"prune, responses": {Variant{Name: PruneResults}, `{"input":[{"role":"user","content":"a"},{"type":"function_call_output","call_id":"c","output":"long"},{"type":"custom_tool_call_output","call_id":"p","output":"patched"},{"role":"user","content":"b"},{"type":"function_call_output","call_id":"d","output":"new"}]}`,
			`{"input":[{"role":"user","content":"a"},{"type":"function_call_output","call_id":"c","output":"[Old tool result content cleared]"},{"type":"custom_tool_call_output","call_id":"p","output":"[Old tool result content cleared]"},{"role":"user","content":"b"},{"type":"function_call_output","call_id":"d","output":"new"}]}`},
		"prune, anthropic results": {Variant{Name: PruneResults}, `{"system":"s","messages":[{"role":"user","content":"a"},{"role":"tool","content":"long"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"u","content":"r"}]}]}`,
			`{"system":"s","messages":[{"role":"user","content":"a"},{"role":"tool","content":"long"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"u","content":"r"}]}]}`},
	} {
		got, err := c.v.Rewrite(1, []byte(c.body))
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %v\n got %s\nwant %s", name, err, got, c.want)
		}
	}
}

func TestParseVariant(t *testing.T) {
	for s, want := range map[string]string{"date-in-system": "date-in-system", "tool-churn:7": "tool-churn:7", "prune-results": "prune-results"} {
		v, err := ParseVariant(s)
		if err != nil || v.String() != want {
			t.Errorf("%s: %v %v", s, v, err)
		}
	}
	for _, bad := range []string{"date", "tool-churn:0", "tool-churn:x"} {
		if _, err := ParseVariant(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if v := (Variant{Name: ToolChurn}).Resolve(9); v.At != 5 {
		t.Errorf("middle of 9: %d", v.At)
	}
}

// FuzzRewrite: a rewrite of a valid request body is valid JSON, and never panics on any body.
func FuzzRewrite(f *testing.F) {
	f.Add([]byte(`{"messages":[{"role":"system","content":"S"},{"role":"tool","content":"x"},{"role":"user","content":"u"}],"tools":[]}`), uint8(0))
	f.Add([]byte(`{"instructions":null,"input":[{"type":"function_call_output","output":"o"},{"role":"user","content":"u"}]}`), uint8(1))
	f.Add([]byte(`{"system":"s","messages":[{"role":"user","content":[{"type":"tool_result","content":"r"}]}]}`), uint8(2))
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		v := Variant{Name: VariantNames[int(which)%len(VariantNames)], At: 1}
		out, err := v.Rewrite(1, body)
		if err == nil && json.Valid(body) && !json.Valid(out) {
			t.Fatalf("%s made invalid JSON:\n%s\n%s", v.Name, body, out)
		}
	})
}
