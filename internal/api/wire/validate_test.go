package wire

import (
	"strings"
	"testing"
)

// Strict mode answers what the API refuses with its 400, naming the param; what the API takes
// passes.
func TestValidate(t *testing.T) {
	const msgs = `"messages":[{"role":"user","content":"hi"}]`
	const tools = `"tools":[{"type":"function","function":{"name":"read","parameters":{}}}]`
	for _, c := range []struct {
		api, body   string
		param, code string
		msg         string
	}{
		{"chat", `{"model":"m",` + msgs + `,"temperature":"hot"}`, "temperature", "invalid_type", "expected a decimal, but got a string"},
		{"chat", `{"model":"m",` + msgs + `,"temperature":3}`, "temperature", "decimal_above_max_value", "<= 2"},
		{"chat", `{"model":"m",` + msgs + `,"top_p":-1}`, "top_p", "decimal_below_min_value", ">= 0"},
		{"chat", `{"model":"m","messages":[{"role":"wizard","content":"hi"}]}`, "messages[0].role", "invalid_value", "'wizard'"},
		{"chat", `{"model":"m",` + msgs + `,"colour":"red"}`, "", "", "Unrecognized request argument supplied: colour"},
		{"chat", `{"model":"m",` + msgs + `,"n":0}`, "n", "integer_below_min_value", ">= 1"},
		{"chat", `{"model":"m",` + msgs + `,"max_tokens":0}`, "max_tokens", "integer_below_min_value", ""},
		{"chat", `{"model":"m",` + msgs + `,"top_logprobs":2}`, "top_logprobs", "invalid_value", "'logprobs' must be set to true"},
		{"chat", `{"model":"m",` + msgs + `,"stop":["a","b","c","d","e"]}`, "stop", "array_above_max_length", ""},
		{"chat", `{"model":"m",` + msgs + `,"tool_choice":"required"}`, "tool_choice", "invalid_value", "only allowed when 'tools' are specified"},
		{"chat", `{"model":"m",` + msgs + `,` + tools + `,"tool_choice":{"type":"function","function":{"name":"bash"}}}`, "tool_choice", "invalid_value", "'bash' is not among"},
		{"chat", `{"model":"m",` + msgs + `,"tools":[{"type":"function","function":{"name":"a b"}}]}`, "tools[0].function.name", "invalid_value", "pattern"},
		{"chat", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c","content":"x"}]}`, "messages.[1].role", "", "preceeding message with 'tool_calls'"},
		{"chat", `{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"hi"}]}`, "messages.[0].role", "", "did not have response messages: c1"},
		{"chat", `{"model":"m","messages":[{"role":"user","content":[{"type":"picture","url":"x"}]}]}`, "messages[0].content[0].type", "invalid_value", "'picture'"},
		{"chat", `{"model":"m",` + msgs + `,"response_format":{"type":"yaml"}}`, "response_format.type", "invalid_value", ""},
		{"chat", `{"model":"m",` + msgs + `,"metadata":{"a":1}}`, "metadata.a", "invalid_type", ""},
		{"responses", `{"model":"m","input":"hi","colour":"red"}`, "colour", "unknown_parameter", "Unknown parameter: 'colour'."},
		{"responses", `{"model":"m","input":[{"role":"wizard","content":"hi"}]}`, "input[0].role", "invalid_value", "'wizard'"},
		{"responses", `{"model":"m","input":[{"type":"spell"}]}`, "input[0].type", "invalid_value", ""},
		{"responses", `{"model":"m","input":"hi","max_output_tokens":5}`, "max_output_tokens", "integer_below_min_value", ">= 16"},
		{"responses", `{"model":"m","input":"hi","truncation":"sometimes"}`, "truncation", "invalid_value", ""},
		{"responses", `{"model":"m","input":"hi","service_tier":"gold"}`, "service_tier", "invalid_value", ""},
		{"responses", `{"model":"m","input":"hi","text":{"format":{"type":"json_schema","schema":{}}}}`, "text.format.name", "missing_required_parameter", ""},
		{"responses", `{"model":"m","input":"hi","tools":[{"type":"teleport"}]}`, "tools[0].type", "invalid_value", ""},
	} {
		e := decodeValidate(c.api, c.body)
		if e == nil {
			t.Errorf("%s: no error", c.body)
			continue
		}
		if e.Status != 400 || e.Param != c.param || e.Code != c.code || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s:\n got %d %q %q %q\nwant param %q code %q, message with %q", c.body, e.Status, e.Param, e.Code, e.Message, c.param, c.code, c.msg)
		}
		if strings.Contains(strings.ToLower(e.Message), "unsupported") {
			t.Errorf("%s: %q says unsupported, which clients read as a missing feature", c.body, e.Message)
		}
	}
	for _, c := range []struct{ api, body string }{
		{"chat", `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image_url","image_url":{"url":"data:x"}}]},
			{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"x"}],
			` + tools + `,"tool_choice":"auto","parallel_tool_calls":false,"temperature":0.5,"max_completion_tokens":10,"stream":true,"stream_options":{"include_usage":true},"n":2,"logprobs":true,"top_logprobs":3,"seed":1,"stop":"x","response_format":{"type":"json_schema","json_schema":{"name":"s","schema":{}}},"metadata":{"a":"b"},"store":true,"user":"u","reasoning_effort":"low"}`},
		{"responses", `{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"hi"},{"type":"input_image","image_url":"data:x"}]},{"type":"function_call","call_id":"c","name":"read","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"x"}],
			"instructions":"be brief","tools":[{"type":"function","name":"read","parameters":{}},{"type":"custom","name":"apply_patch"},{"type":"web_search"}],"tool_choice":{"type":"custom","name":"apply_patch"},
			"store":false,"include":["reasoning.encrypted_content"],"reasoning":{"effort":"medium","summary":"auto"},"text":{"format":{"type":"text"},"verbosity":"low"},"prompt_cache_key":"k","stream":true,"max_output_tokens":16,"truncation":"auto","service_tier":"auto"}`},
	} {
		e := decodeValidate(c.api, c.body)
		if e != nil {
			t.Errorf("%s: %v", c.body, e)
		}
	}
	// Over a WebSocket: type is taken, stream is not.
	r, _ := DecodeResponses([]byte(`{"type":"response.create","model":"m","input":"hi"}`))
	if e := Validate(r, true); e != nil {
		t.Errorf("websocket: %v", e)
	}
	if e := Validate(r, false); e == nil || e.Param != "type" {
		t.Errorf("type over HTTP: %v", e)
	}
	// codex sends stream: true over its WebSocket, and the API takes it.
	r, _ = DecodeResponses([]byte(`{"type":"response.create","model":"m","input":"hi","stream":true}`))
	if e := Validate(r, true); e != nil {
		t.Errorf("stream over a WebSocket: %v", e)
	}
}

// decodeValidate decodes body as api ("chat" or "responses") and validates it over HTTP: the
// first error of either.
func decodeValidate(api, body string) *Error {
	decode := DecodeChat
	if api == "responses" {
		decode = DecodeResponses
	}
	r, e := decode([]byte(body))
	if e == nil {
		e = Validate(r, false)
	}
	return e
}
