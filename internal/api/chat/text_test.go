package chat

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// The cases each reader that ContentText replaced handled: the answer's (replay), the live
// target's, the fake's (which refuses what is not content) and the Anthropic and Gemini blocks
// the live target and the fake read.
func TestContentText(t *testing.T) {
	for _, c := range []struct {
		content, sep, want string
		ok                 bool
	}{
		{`"plain"`, "\n", "plain", true},
		{`null`, "", "", true},
		{``, "", "", true},
		{` "spaced" `, "", "spaced", true},
		// chat completions' parts: an image's part has no text
		{`[{"type":"text","text":"a"},{"type":"image_url"},{"type":"text","text":"b"}]`, "\n", "a\nb", true},
		{`[{"type":"text","text":"read "},{"type":"image_url"},{"type":"text","text":"it"}]`, "", "read it", true},
		// Responses: an answer's output_text parts are one text
		{`[{"type":"output_text","text":"a"},{"type":"output_text","text":"b"}]`, "", "ab", true},
		{`[{"type":"input_text","text":"go"},{"type":"input_image","image_url":"x"}]`, "\n", "go", true},
		// Anthropic: tool_use and tool_result blocks carry no text of the message's own
		{`[{"type":"tool_result","tool_use_id":"t","content":"out"},{"type":"text","text":"a"},{"type":"tool_use","id":"u","name":"r","input":{}},{"type":"text","text":"b"}]`, "\n", "a\nb", true},
		// Gemini: a thought is left out, as are calls, responses and empty texts
		{`[{"text":"a"},{"text":"why","thought":true},{"functionCall":{"name":"f","args":{}}},{"text":""},{"functionResponse":{"name":"f","response":{}}},{"text":"b"}]`, "\n", "a\nb", true},
		{`[{"text":"a","thought":false}]`, "", "a", true},
		{`[]`, "\n", "", true},
		{`[null,{"text":null}]`, "\n", "", true},
		// not content: refused, what was readable still read
		{`{"text":"a"}`, "", "", false},
		{`3`, "", "", false},
		{`["a"]`, "", "", false},
		{`[{"text":1},{"text":"a"}]`, "", "a", false},
		{`[{"text":"a"`, "", "", false},
	} {
		got, ok := ContentText([]byte(c.content), c.sep)
		if got != c.want || ok != c.ok {
			t.Errorf("ContentText(%s, %q) = %q, %v; want %q, %v", c.content, c.sep, got, ok, c.want, c.ok)
		}
	}
}

func FuzzContentText(f *testing.F) {
	f.Add([]byte(`[{"type":"text","text":"a"},{"text":"b","thought":true}]`))
	f.Add([]byte(`"s"`))
	f.Add([]byte(`[{"text":1}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		text, ok := ContentText(b, "\n")
		var s string
		if json.Unmarshal(b, &s) == nil && (!ok || text != s) {
			t.Fatalf("a JSON string %q read as %q, %v", s, text, ok)
		}
		if ok && len(text) > 0 && !json.Valid(b) {
			t.Fatalf("%q is not JSON, read as %q", b, text)
		}
	})
}

// IsToolResult is the one rule the audit (isToolResult) and the bench's prune-results
// (isResponsesOutput, isAnthropicResult) each wrote. Both agreed on every row but two, where both
// were wrong: a custom_tool_call_output (codex's apply_patch result) was no result, and a user
// message whose text is the word tool_result was one.
func TestIsToolResult(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`{"role":"tool","tool_call_id":"c","content":"out"}`, true},
		{`{"type":"function_call_output","call_id":"c","output":"out"}`, true},
		{`{"type":"custom_tool_call_output","call_id":"c","output":"out"}`, true},
		{`{"role":"user","content":[{"type":"tool_result","tool_use_id":"u","content":"out"}]}`, true},
		{`{"role":"user","content":[{"type":"text","text":"see the \"tool_result\" above"}]}`, false},
		{`{"role":"user","content":"tool_result"}`, false},
		{`{"role":"assistant","content":[{"type":"tool_use","id":"u","name":"f","input":{}}]}`, false},
		{`{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}`, false},
		{`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`, false},
		{`{"role":"system","content":"tool"}`, false},
	} {
		if got := IsToolResult([]byte(c.raw)); got != c.want {
			t.Errorf("%s: %v, want %v", c.raw, got, c.want)
		}
	}
}

// InputItems is the one reading of a Responses input as items, which the fake's DecodeResponses
// and the reader's continuations (replay's inputItems) each wrote; they differed in one byte
// sequence: the reader escaped <, > and & (\u003c) where the fake kept them as sent.
func TestInputItems(t *testing.T) {
	for _, c := range []struct {
		raw, want string
		ok        bool
	}{
		{`"a < b & c"`, `[{"content":"a < b & c","role":"user","type":"message"}]`, true},
		{`null`, `[{"content":"","role":"user","type":"message"}]`, true},
		{`[{"type":"message","role":"user","content":"x"},{"type":"function_call_output","call_id":"c","output":"o"}]`, `[{"type":"message","role":"user","content":"x"},{"type":"function_call_output","call_id":"c","output":"o"}]`, true},
		{`[]`, `[]`, true},
		{`{"role":"user"}`, `null`, false},
		{`7`, `null`, false},
	} {
		items, ok := InputItems([]byte(c.raw))
		got := "null"
		if items != nil {
			var b bytes.Buffer
			for i, it := range items {
				if i > 0 {
					b.WriteByte(',')
				}
				b.Write(it)
			}
			got = "[" + b.String() + "]"
		}
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %s %v, want %s %v", c.raw, got, ok, c.want, c.ok)
		}
	}
}

// Continuation is the one writing of a continued Responses request as the model sees it, which
// the fake (wire.WithInput) and the recording's reader (replay's chains) each wrote: this is the
// fake's, byte for byte (the reader's kept the type and conversation members, put input in name
// order and made \u003c of <).
func TestContinuation(t *testing.T) {
	top := map[string]json.RawMessage{"model": json.RawMessage(`"gpt-5"`), "previous_response_id": json.RawMessage(`"resp_1"`), "conversation": json.RawMessage(`null`),
		"type": json.RawMessage(`"response.create"`), "input": json.RawMessage(`[]`), "tools": json.RawMessage("[ {\"type\": \"function\", \"name\": \"a<b\"} ]"),
		"instructions": json.RawMessage(`"x & y"`), "bad": json.RawMessage(`{oops`)}
	items := []json.RawMessage{json.RawMessage("{ \"role\": \"user\", \"content\": \"<hi>\" }"), json.RawMessage(`{"type":"function_call_output","output":"o"}`)}
	want := `{"bad":{oops,"instructions":"x & y","model":"gpt-5","tools":[{"type":"function","name":"a<b"}],"input":[{"role":"user","content":"<hi>"},{"type":"function_call_output","output":"o"}]}`
	if got := string(Continuation(top, items)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := string(Continuation(map[string]json.RawMessage{"input": json.RawMessage(`"q"`)}, nil)); got != `{"input":[]}` {
		t.Errorf("nothing but input: %s", got)
	}
}

// A message's texts come apart, block by block, in the order the model reads them, in each of
// the four shapes: a note in block 0 stays before the words in block 1.
func TestMessageTexts(t *testing.T) {
	for _, c := range []struct {
		name, raw string
		want      []string
	}{
		{"chat completions string", `{"role":"user","content":"words\n\nnote"}`, []string{"words\n\nnote"}},
		{"chat completions parts", `{"role":"user","content":[{"type":"text","text":"note"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"words"}]}`, []string{"note", "words"}},
		{"responses item", `{"type":"message","role":"user","content":[{"type":"input_text","text":"note"},{"type":"input_text","text":"words"}]}`, []string{"note", "words"}},
		{"responses input string", `"words"`, []string{"words"}},
		{"responses call output", `{"type":"function_call_output","call_id":"c","output":"x"}`, nil},
		{"anthropic blocks", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"r"},{"type":"text","text":"note"},{"type":"text","text":"words","cache_control":{"type":"ephemeral"}}]}`, []string{"note", "words"}},
		{"gemini parts", `{"role":"user","parts":[{"text":"thinking","thought":true},{"text":"note"},{"text":"words"}]}`, []string{"note", "words"}},
		{"null content", `{"role":"assistant","content":null}`, nil},
	} {
		if got := MessageTexts([]byte(c.raw)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
