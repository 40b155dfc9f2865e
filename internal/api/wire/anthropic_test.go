package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMessagesStreamEvents(t *testing.T) {
	a := Answer{Reasoning: "think", Text: "hi there", ToolCalls: []ToolCall{{ID: "call_1_0", Name: "Read", Arguments: `{"file_path":"a"}`}}}
	frames := MessagesStream(Meta{ID: "fake1", Model: "m"}, a, MessagesUsage{Input: 3, CacheRead: 5, CacheWrite5m: 7, Output: 9})
	var types []string
	for _, f := range frames {
		s := string(f)
		ev, data, ok := strings.Cut(strings.TrimSuffix(s, "\n\n"), "\ndata: ")
		if !ok || !strings.HasPrefix(ev, "event: ") || !json.Valid([]byte(data)) {
			t.Fatalf("frame %q is not one named event with JSON data", s)
		}
		var d struct{ Type string }
		json.Unmarshal([]byte(data), &d)
		if "event: "+d.Type != ev {
			t.Errorf("event %q carries type %q", ev, d.Type)
		}
		types = append(types, d.Type)
	}
	got := strings.Join(types, " ")
	want := "message_start content_block_start ping content_block_delta content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	joined := string(frames[0])
	if !strings.HasPrefix(joined, `event: message_start`+"\n"+`data: {"type":"message_start","message":{"id":"msg_fake1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"container":null,"diagnostics":null,"stop_details":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":7,"cache_read_input_tokens":5,"cache_creation":{"ephemeral_5m_input_tokens":7,"ephemeral_1h_input_tokens":0},"output_tokens":1,"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_fetch_requests":0,"web_search_requests":0},"service_tier":"standard","inference_geo":"global","speed":"standard"}}}`) {
		t.Errorf("message_start: %s", joined)
	}
	if d := string(frames[len(frames)-2]); !strings.Contains(d, `"delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"input_tokens":3,"cache_creation_input_tokens":7,"cache_read_input_tokens":5,"output_tokens":9,"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_fetch_requests":0,"web_search_requests":0}}`) {
		t.Errorf("message_delta: %s", d)
	}
	if s := string(frames[6]); !strings.Contains(s, `"content_block":{"type":"text","text":""}`) {
		t.Errorf("text block start: %s", s)
	}
}

func TestMessagesBodyAndErrors(t *testing.T) {
	b := MessagesBody(Meta{ID: "fake2", Model: "m"}, Answer{ToolCalls: []ToolCall{{ID: "call_2_0", Name: "Bash", Arguments: "not json"}}}, MessagesUsage{Output: 2})
	want := `{"id":"msg_fake2","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_2_0","name":"Bash","input":{}}],"stop_reason":"tool_use","stop_sequence":null,"container":null,"diagnostics":null,"stop_details":null,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":2,"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_fetch_requests":0,"web_search_requests":0},"service_tier":"standard","inference_geo":"global","speed":"standard"}}`
	if string(b) != want {
		t.Errorf("body\n got %s\nwant %s", b, want)
	}
	for status, typ := range map[int]string{400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error", 429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"} {
		e := &Error{Status: status, Message: "m"}
		if got := string(e.AnthropicBody("req_1")); got != `{"type":"error","error":{"type":"`+typ+`","message":"m"},"request_id":"req_1"}` {
			t.Errorf("%d: %s", status, got)
		}
	}
	for body, want := range map[string]string{
		`{"model":"m","messages":[]}`:                  "max_tokens: Field required",
		`{"model":"m","max_tokens":1}`:                 "messages: Field required",
		`{"model":"m","max_tokens":1,"messages":[{}]}`: "messages.0.role: Field required",
	} {
		if _, e := DecodeAnthropic([]byte(body)); e == nil || e.Message != want {
			t.Errorf("%s: %v, want %q", body, e, want)
		}
	}
}

func TestDecodeAnthropic(t *testing.T) {
	r, e := DecodeAnthropic([]byte(`{"model":"m","max_tokens":5,"stream":true,"tools":[{"name":"Read","input_schema":{"type":"object","properties":{"file_path":{}}}},{"type":"web_search_20250305","name":"web_search"}],
		"tool_choice":{"type":"tool","name":"Read"},
		"messages":[{"role":"user","content":"read it"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}]}`))
	if e != nil {
		t.Fatal(e)
	}
	if !r.Stream || r.LastUserText != "read it" || !r.LastIsToolResult || r.ToolResults != 1 || r.ResultsSinceUser != 1 || len(r.Tools) != 1 || r.Tools[0].Props[0] != "file_path" {
		t.Errorf("%+v", r)
	}
	if r.Params.ToolChoice.Name != "Read" || !r.Params.ToolChoice.Must() || r.Params.MaxTokens != 5 {
		t.Errorf("params %+v", r.Params)
	}
}

func FuzzDecodeAnthropic(f *testing.F) {
	f.Add([]byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}]}]}`))
	f.Add([]byte(`{"model":"m","max_tokens":5,"system":"s","messages":[{"role":"user","content":"x"}],"tools":[{"name":"a"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, e := DecodeAnthropic(b)
		if (r == nil) == (e == nil) {
			t.Fatalf("request %v and error %v", r, e)
		}
		if e != nil && !json.Valid(e.AnthropicBody("")) {
			t.Fatalf("error body not JSON: %s", e.AnthropicBody(""))
		}
	})
}

func FuzzDecodeGemini(f *testing.F) {
	f.Add([]byte(`{"contents":[{"role":"user","parts":[{"text":"a"}]}],"tools":[{"functionDeclarations":[{"name":"read_file","parametersJsonSchema":{"properties":{"file_path":{}}}}]}]}`))
	f.Add([]byte(`{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"x","response":{}}}]}],"generationConfig":{"responseMimeType":"application/json","responseSchema":{"type":"OBJECT"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, e := DecodeGemini(b, "m", true)
		if (r == nil) == (e == nil) {
			t.Fatalf("request %v and error %v", r, e)
		}
		if e != nil && !json.Valid(e.GeminiBody()) {
			t.Fatalf("error body not JSON: %s", e.GeminiBody())
		}
	})
}

func TestGeminiWire(t *testing.T) {
	r, e := DecodeGemini([]byte(`{"contents":[{"role":"user","parts":[{"text":"route me"}]}],"generationConfig":{"responseMimeType":"application/json","responseSchema":{"type":"OBJECT","properties":{"model_choice":{"type":"STRING","enum":["flash","pro"]}}}}}`), "gemini-2.5-flash", false)
	if e != nil || r.LastUserText != "route me" || r.Params.Format.Type != FormatJSONSchema || !strings.Contains(string(r.Params.Format.Schema), `"type":"object"`) {
		t.Fatalf("%+v %v", r, e)
	}
	frames := GeminiStream(Meta{ID: "fake3", Model: "g"}, Answer{Text: "two words", ToolCalls: []ToolCall{{Name: "read_file", Arguments: `{"file_path":"a"}`}}}, GeminiUsage{Prompt: 10, Cached: 4, Candidates: 3})
	last := string(frames[len(frames)-1])
	if !strings.HasSuffix(last, "\r\n\r\n") || !strings.Contains(last, `"functionCall":{"name":"read_file","args":{"file_path":"a"}}`) || !strings.Contains(last, `"finishReason":"STOP"`) ||
		!strings.Contains(last, `"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":3,"totalTokenCount":13,"cachedContentTokenCount":4,`) {
		t.Errorf("last frame %s", last)
	}
	if got := string((&Error{Status: 404, Message: "no"}).GeminiBody()); got != `{"error":{"code":404,"message":"no","status":"NOT_FOUND"}}` {
		t.Errorf("error %s", got)
	}
}
