package chat

import (
	"fmt"
	"testing"
)

// A message's turns in each API's shape: a result's text and the call it answers, an assistant's
// calls, Anthropic's and Gemini's results each a turn before the message's own words, Gemini's
// "model" the assistant, a Responses input given as one string the person's words.
func TestTurns(t *testing.T) {
	for _, c := range []struct {
		raw  string
		part Part
		want string
	}{
		{raw: `{"role":"tool","tool_call_id":"c1","content":"[#0001]\nx"}`, want: `[{tool [#0001]
x c1 []}]`},
		{raw: `{"role":"tool","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
			want: "[{tool a\nb  []}]"},
		{raw: `{"role":"assistant","content":null,"tool_calls":[{"id":"c1"},{"id":"c2"}]}`,
			want: `[{assistant   [c1 c2]}]`},
		{raw: `{"type":"function_call_output","call_id":"c1","output":"r"}`, want: `[{tool r c1 []}]`},
		{raw: `{"type":"function_call","call_id":"c1","name":"read"}`, want: `[{assistant   [c1]}]`},
		{raw: `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"r1"},` +
			`{"type":"tool_result","tool_use_id":"u","content":[{"type":"text","text":"r2"}]},{"type":"text","text":"w"}]}`,
			want: `[{tool r1 t []} {tool r2 u []} {user w  []}]`},
		{raw: `{"role":"assistant","content":[{"type":"text","text":"t"},{"type":"tool_use","id":"t1"}]}`,
			want: `[{assistant t  [t1]}]`},
		{raw: `{"role":"user","parts":[{"functionResponse":{"id":"g1","response":{"output":"r"}}},` +
			`{"functionResponse":{"response":{"content":"c"}}},{"functionResponse":{"response":{"n":1}}}]}`,
			want: `[{tool r g1 []} {tool c  []} {tool {"n":1}  []}]`},
		{raw: `{"role":"model","parts":[{"text":"t"},{"functionCall":{"id":"f1","name":"read"}}]}`,
			want: `[{assistant t  [f1]}]`},
		{raw: `{"role":"user","content":"[#0001]\nx"}`, want: "[{user [#0001]\nx  []}]"},
		{raw: `"words"`, part: Part{Field: "input", Index: -1}, want: `[{user words  []}]`},
	} {
		p := c.part
		p.Raw = []byte(c.raw)
		if got := fmt.Sprint(Turns(p)); got != c.want {
			t.Errorf("%s: %q, want %q", c.raw, got, c.want)
		}
	}
}
