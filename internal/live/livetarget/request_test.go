package livetarget

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each API's request is read alike: the system prompt's text, the tools' names, and its messages
// with the tool results answering their calls.
func TestParseRequest(t *testing.T) {
	for _, tc := range []struct {
		api, body, system string
		tools             []string
		msgs              []msg
	}{
		{"chat.completions",
			`{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"R"}],"tools":[{"type":"function","function":{"name":"read"}}]}`,
			"S", []string{"read"}, []msg{{role: "user", text: "hi"}, {role: "assistant", calls: []string{"c1"}}, {role: "tool", text: "R", callID: "c1"}}},
		{"responses",
			`{"model":"m","instructions":"S","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]},{"type":"function_call","call_id":"c1","name":"read","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"R"}],"tools":[{"type":"function","name":"read"}]}`,
			"S", []string{"read"}, []msg{{role: "user", text: "hi"}, {role: "assistant", calls: []string{"c1"}}, {role: "tool", text: "R", callID: "c1"}}},
		{"anthropic",
			`{"model":"m","system":[{"type":"text","text":"S"}],"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"c1","name":"read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":[{"type":"text","text":"R"}]},{"type":"text","text":"more"}]}],"tools":[{"name":"read","input_schema":{}}],"max_tokens":10}`,
			"S", []string{"read"}, []msg{{role: "user", text: "hi"}, {role: "assistant", text: "ok", calls: []string{"c1"}}, {role: "tool", text: "R", callID: "c1"}, {role: "user", text: "more"}}},
		{"anthropic, the fake's ids", // the fake sends call_a001 as toolu_a001
			`{"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"toolu_a001","name":"read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a001","content":"R"}]}],"tools":[{"name":"read","input_schema":{}}],"max_tokens":10}`,
			"", []string{"read"}, []msg{{role: "assistant", calls: []string{"call_a001"}}, {role: "tool", text: "R", callID: "call_a001"}}},
		{"gemini",
			`{"systemInstruction":{"parts":[{"text":"S"}]},"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"read","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"read","response":{"output":"R"}}}]}],"tools":[{"functionDeclarations":[{"name":"read"}]}]}`,
			"S", []string{"read"}, []msg{{role: "user", text: "hi"}, {role: "assistant", calls: []string{""}}, {role: "tool", text: "R"}}},
	} {
		q, err := parseRequest([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.api, err)
		}
		if q.system != tc.system || !cmp.Equal(q.tools, tc.tools) {
			t.Errorf("%s: system %q, tools %v", tc.api, q.system, q.tools)
		}
		if d := cmp.Diff(tc.msgs, q.msgs, cmp.AllowUnexported(msg{})); d != "" {
			t.Errorf("%s: messages (-want +got):\n%s", tc.api, d)
		}
		call := "c1"
		if strings.Contains(tc.api, "fake") {
			call = "call_a001"
		}
		if r, ok := q.result(call); !ok || r != "R" {
			t.Errorf("%s: the result of c1 is %q, %v", tc.api, r, ok)
		}
	}
}

// A message's text parts are read a line apart in every API, a Gemini thought left out.
func TestParseRequestTextParts(t *testing.T) {
	for api, body := range map[string]string{
		"chat.completions": `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"b"}]}]}`,
		"responses":        `{"model":"m","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]}]}`,
		"anthropic":        `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","source":{}},{"type":"text","text":"b"}]}],"max_tokens":10}`,
		"gemini":           `{"contents":[{"role":"user","parts":[{"text":"a"},{"text":"why","thought":true},{"text":"b"}]}]}`,
	} {
		q, err := parseRequest([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v", api, err)
		}
		if d := cmp.Diff([]msg{{role: "user", text: "a\nb"}}, q.msgs, cmp.AllowUnexported(msg{})); d != "" {
			t.Errorf("%s: messages (-want +got):\n%s", api, d)
		}
	}
}

// A request body of any shape is read or refused, never a panic.
func FuzzParseRequest(f *testing.F) {
	f.Add([]byte(`{"messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"input":"hi","instructions":"S"}`))
	f.Add([]byte(`{"contents":[{"role":"model","parts":[{"functionResponse":{"response":1}}]}]}`))
	f.Add([]byte(`{"system":"S","messages":[{"role":"user","content":[{"type":"tool_result","content":3}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := parseRequest(b)
		if err == nil {
			q.result("c1")
			q.lastUser()
			q.afterCalls()
			q.all()
		}
	})
}
