package wire

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestDecodeChat(t *testing.T) {
	body := `{"model":"m","stream":true,"stream_options":{"include_usage":true},
	 "messages":[{"role":"system","content":"be brief"},
	  {"role":"user","content":[{"type":"text","text":"read "},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"it"}]},
	  {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]},
	  {"role":"tool","tool_call_id":"c1","content":"hello"}],
	 "tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{},"offset":{}}}}},
	          {"type":"function","function":{"name":"bash"}},
	          {"type":"web_search"}]}`
	got, e := DecodeChat([]byte(body))
	if e != nil {
		t.Fatal(e)
	}
	want := &Request{API: chat.ChatCompletions, Model: "m", Stream: true, IncludeUsage: true, Messages: 4, LastIsToolResult: true, ToolResults: 1, ResultsSinceUser: 1, CallsInARow: 1,
		LastUserText: "read it", Tools: []Tool{{Name: "read", Props: []string{"offset", "path"}, Schema: json.RawMessage(`{"type":"object","properties":{"path":{},"offset":{}}}`)}, {Name: "bash"}},
		Params: Params{Images: 1}}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(Request{}, "Top", "Parts")); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

func TestDecodeResponses(t *testing.T) {
	for name, c := range map[string]struct {
		body string
		want *Request
	}{
		"string input": {`{"model":"m","input":"hi there"}`,
			&Request{API: chat.Responses, Model: "m", IncludeUsage: true, Messages: 1, LastUserText: "hi there", Store: true}},
		"items": {`{"model":"m","stream":true,"instructions":"sys","input":[
			{"role":"user","content":[{"type":"input_text","text":"go"}]},
			{"type":"function_call","call_id":"c","name":"read_file","arguments":"{}"},
			{"type":"function_call_output","call_id":"c","output":"text"}],
			"tools":[{"type":"function","name":"read_file","parameters":{"properties":{"file_path":{}}}},{"type":"web_search_preview"}]}`,
			&Request{API: chat.Responses, Model: "m", Stream: true, IncludeUsage: true, Messages: 3, LastIsToolResult: true, ToolResults: 1, ResultsSinceUser: 1, CallsInARow: 1,
				LastUserText: "go", Tools: []Tool{{Name: "read_file", Props: []string{"file_path"}, Schema: json.RawMessage(`{"properties":{"file_path":{}}}`)}}, Store: true}},
	} {
		t.Run(name, func(t *testing.T) {
			got, e := DecodeResponses([]byte(c.body))
			if e != nil {
				t.Fatal(e)
			}
			if d := cmp.Diff(c.want, got, cmpopts.IgnoreFields(Request{}, "Top", "Input", "Parts")); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

// Bad requests get OpenAI's error shape, the status, the param and a message saying what to fix.
func TestDecodeErrors(t *testing.T) {
	for name, c := range map[string]struct {
		body        string
		param, code string
		msg         string
	}{
		"empty":            {``, "", "invalid_json", "the body is empty"},
		"cut":              {"{\"model\":\"m\",\n\"messages\":[", "", "invalid_json", "line 2, column 13"},
		"bad char":         {`{"model":x}`, "", "invalid_json", "line 1, column 10"},
		"not object":       {`[1,2]`, "", "invalid_json", "not an object"},
		"null":             {`null`, "", "invalid_json", "null"},
		"trailing":         {`{"model":"m","messages":[]} {}`, "", "invalid_json", "after top-level value"},
		"no model":         {`{"messages":[{"role":"user","content":"x"}]}`, "model", "missing_required_parameter", "'model'"},
		"model number":     {`{"model":5,"messages":[]}`, "model", "invalid_type", "expected a string, but got a number"},
		"no messages":      {`{"model":"m"}`, "messages", "missing_required_parameter", "'messages'"},
		"messages string":  {`{"model":"m","messages":"hi"}`, "messages", "invalid_type", "expected an array, but got a string"},
		"messages empty":   {`{"model":"m","messages":[]}`, "messages", "empty_array", "empty array"},
		"message no role":  {`{"model":"m","messages":[{"content":"x"}]}`, "messages[0].role", "missing_required_parameter", "messages[0].role"},
		"content number":   {`{"model":"m","messages":[{"role":"user","content":5}]}`, "messages[0].content", "invalid_type", "a number"},
		"stream string":    {`{"model":"m","stream":"yes","messages":[{"role":"user","content":"x"}]}`, "stream", "invalid_type", "a boolean"},
		"tools object":     {`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":{}}`, "tools", "invalid_type", "an object"},
		"tool no name":     {`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{}}]}`, "tools[0].function.name", "missing_required_parameter", ""},
		"tool no function": {`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function"}]}`, "tools[0].function", "missing_required_parameter", ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, e := DecodeChat([]byte(c.body))
			if e == nil {
				t.Fatal("no error")
			}
			if e.Status != 400 || e.Param != c.param || e.Code != c.code || !strings.Contains(e.Message, c.msg) {
				t.Errorf("got %d param %q code %q %q; want 400 param %q code %q, message with %q", e.Status, e.Param, e.Code, e.Message, c.param, c.code, c.msg)
			}
			var body struct {
				Error struct {
					Message string  `json:"message"`
					Type    string  `json:"type"`
					Param   *string `json:"param"`
					Code    *string `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(e.Body(), &body); err != nil {
				t.Fatalf("error body is not JSON: %v\n%s", err, e.Body())
			}
			if body.Error.Message != e.Message || body.Error.Type != TypeInvalidRequest || (body.Error.Param == nil) != (c.param == "") {
				t.Errorf("body %s", e.Body())
			}
		})
	}
}

func TestDecodeResponsesErrors(t *testing.T) {
	for body, param := range map[string]string{
		`{"model":"m"}`:                                                           "input",
		`{"model":"m","input":5}`:                                                 "input",
		`{"model":"m","input":[5]}`:                                               "input[0]",
		`{"model":"m","input":"x","tools":3}`:                                     "tools",
		`{"model":"m","input":"x","tools":[{"type":"function"}]}`:                 "tools[0].name",
		`{"model":"m","input":[{"role":"user","content":{"text":"not a list"}}]}`: "input[0].content",
	} {
		_, e := DecodeResponses([]byte(body))
		if e == nil || e.Status != 400 || e.Param != param {
			t.Errorf("%s: got %v, want 400 naming %s", body, e, param)
		}
	}
}

func TestLineCol(t *testing.T) {
	b := []byte("ab\ncd\n\nef")
	for off, want := range map[int64][2]int{0: {1, 1}, 2: {1, 3}, 3: {2, 1}, 7: {4, 1}, 9: {4, 3}, 100: {4, 3}, -1: {1, 1}} {
		l, c := LineCol(b, off)
		if l != want[0] || c != want[1] {
			t.Errorf("offset %d: %d:%d, want %d:%d", off, l, c, want[0], want[1])
		}
	}
}

// FuzzDecodeChat: any body gives a request or a 400 with a JSON error body, never a panic; what
// it decodes is consistent with the body.
func FuzzDecodeChat(f *testing.F) {
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"model":"m","stream":true,"messages":[{"role":"tool","content":[{"type":"text","text":"x"}]}],"tools":[{"type":"function","function":{"name":"read","parameters":{"properties":{"path":{}}}}}]}`))
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":null}],"stream_options":null,"tools":null}`))
	f.Add([]byte(`{"model":"m","messages":[`))
	f.Add([]byte(`{"model":"\ud800","messages":[{"role":""}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzCheck(t, body, DecodeChat)
	})
}

// FuzzDecodeResponses is FuzzDecodeChat for the Responses API.
func FuzzDecodeResponses(f *testing.F) {
	f.Add([]byte(`{"model":"m","input":"hi"}`))
	f.Add([]byte(`{"model":"m","input":[{"role":"user","content":"x"},{"type":"function_call_output","call_id":"c","output":"o"}],"tools":[{"type":"function","name":"read"}]}`))
	f.Add([]byte(`{"model":"m","input":[{}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzCheck(t, body, DecodeResponses)
	})
}

func fuzzCheck(t *testing.T, body []byte, decode func([]byte) (*Request, *Error)) {
	r, e := decode(body)
	if e != nil {
		if r != nil || e.Status != 400 || e.Message == "" {
			t.Fatalf("error %+v with request %+v", e, r)
		}
		if !json.Valid(e.Body()) {
			t.Fatalf("error body is not JSON: %s", e.Body())
		}
		return
	}
	if !json.Valid(body) {
		t.Fatalf("accepted a body that is not JSON: %q", body)
	}
	// Strict mode reads whatever was decoded: a 400 or nothing, never a panic.
	for _, ws := range []bool{false, true} {
		if e := Validate(r, ws); e != nil && (e.Status != 400 || e.Message == "" || !json.Valid(e.Body())) {
			t.Fatalf("strict: %+v", e)
		}
	}
	if r.Messages < 1 || r.ToolResults > r.Messages || (r.LastIsToolResult && r.ToolResults == 0) {
		t.Fatalf("inconsistent request %+v from %q", r, body)
	}
	samePartsAsParse(t, r, body)
	for _, tl := range r.Tools {
		for i := 1; i < len(tl.Props); i++ {
			if tl.Props[i-1] > tl.Props[i] {
				t.Fatalf("props not sorted: %v", tl.Props)
			}
		}
	}
}

// A tool list read once is remembered by its exact bytes: the same list gives the same tools,
// another list its own, and more lists than the memo holds still read right.
func TestToolMemo(t *testing.T) {
	body := func(name string) []byte {
		return []byte(`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"` + name + `","parameters":{"properties":{"path":{}}}}}]}`)
	}
	for round := 0; round < 2; round++ {
		for i := 0; i < toolMemoEntries+10; i++ {
			name := fmt.Sprintf("tool%d", i)
			r, e := DecodeChat(body(name))
			if e != nil || len(r.Tools) != 1 || r.Tools[0].Name != name || r.Tools[0].Props[0] != "path" {
				t.Fatalf("round %d, %s: %+v %v", round, name, r, e)
			}
		}
	}
	if len(toolMemo.m) > toolMemoEntries {
		t.Errorf("the memo holds %d lists, over its bound %d", len(toolMemo.m), toolMemoEntries)
	}
}

// codex's tools: in an additional_tools input item, in namespaces; a continuation sees them in
// the turns it continues.
func TestResponsesNamespacedTools(t *testing.T) {
	first := `{"type":"additional_tools","role":"developer","tools":[{"type":"namespace","name":"functions","tools":[{"type":"custom","name":"exec","format":{"type":"grammar","syntax":"lark","definition":"start: /.+/"}},{"type":"function","name":"wait","parameters":{"properties":{"cell_id":{}}}}]}]}`
	r, e := DecodeResponses([]byte(`{"model":"m","input":[` + first + `,{"role":"user","content":"hi"}],"tools":[{"type":"function","name":"top"}]}`))
	if e != nil {
		t.Fatal(e)
	}
	want := []Tool{{Name: "top", Props: []string{}}, {Name: "exec", Namespace: "functions", Custom: true, Syntax: "lark", Grammar: "start: /.+/"},
		{Name: "wait", Namespace: "functions", Props: []string{"cell_id"}, Schema: json.RawMessage(`{"properties":{"cell_id":{}}}`)}}
	if d := cmp.Diff(want, r.Tools, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	next, e := DecodeResponses([]byte(`{"model":"m","previous_response_id":"resp_1","input":[{"type":"custom_tool_call_output","call_id":"c","output":"ok"}]}`))
	if e != nil || len(next.Tools) != 0 {
		t.Fatalf("%v %v", e, next.Tools)
	}
	if e := next.Continue([]json.RawMessage{json.RawMessage(first)}); e != nil || len(next.Tools) != 2 || !next.LastIsToolResult {
		t.Errorf("continued: %v %+v", e, next)
	}
	// A warm-up may have no input.
	if _, e := DecodeResponses([]byte(`{"type":"response.create","model":"m","input":[],"generate":false}`)); e != nil {
		t.Errorf("warm-up: %v", e)
	}
}

// The last user message's text in each API: its text parts run together (a Gemini thought, an
// image, a tool result left out); a content part whose text is not a string is refused.
func TestLastUserTextParts(t *testing.T) {
	decode := map[string]func(string) (*Request, *Error){
		"chat":      func(b string) (*Request, *Error) { return DecodeChat([]byte(b)) },
		"responses": func(b string) (*Request, *Error) { return DecodeResponses([]byte(b)) },
		"anthropic": func(b string) (*Request, *Error) { return DecodeAnthropic([]byte(b)) },
		"gemini":    func(b string) (*Request, *Error) { return DecodeGemini([]byte(b), "m", false) },
	}
	for _, c := range []struct{ api, body, want string }{
		{"chat", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a "},{"type":"text","text":""},{"type":"text","text":"b"}]}]}`, "a b"},
		{"responses", `{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"a "},{"type":"input_image","image_url":"x"},{"type":"input_text","text":"b"}]}]}`, "a b"},
		{"anthropic", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"out"},{"type":"text","text":"a "},{"type":"text","text":"b"}]}]}`, "a b"},
		{"gemini", `{"contents":[{"role":"user","parts":[{"text":"a "},{"text":"why","thought":true},{"text":"b"}]}]}`, "a b"},
		{"gemini", `{"contents":[{"role":"user","parts":[{"text":"x"}]},{"role":"model","parts":[{"text":"y"}]}]}`, "x"},
	} {
		r, e := decode[c.api](c.body)
		if e != nil || r.LastUserText != c.want {
			t.Errorf("%s %s: LastUserText %q, %v; want %q", c.api, c.body, r.LastUserText, e, c.want)
		}
	}
	for _, c := range []struct{ api, body string }{
		{"chat", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":1}]}]}`},
		{"chat", `{"model":"m","messages":[{"role":"user","content":["a"]}]}`},
		{"responses", `{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":1}]}]}`},
		{"anthropic", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":1}]}]}`},
		{"anthropic", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":{"type":"text","text":"a"}}]}`},
		{"gemini", `{"contents":[{"role":"user","parts":[{"text":1}]}]}`},
		{"gemini", `{"contents":[{"role":"user","parts":[{"text":"a","thought":"yes"}]}]}`},
		{"gemini", `{"contents":[{"role":"user","parts":"a"}]}`},
	} {
		if r, e := decode[c.api](c.body); e == nil {
			t.Errorf("%s %s: read (%q), not refused", c.api, c.body, r.LastUserText)
		}
	}
}

// CallsInARow is read from the conversation in every API: the assistant's turns that called a
// tool since its last turn that did not; a reminder between them does not end the run.
func TestCallsInARow(t *testing.T) {
	for name, c := range map[string]struct {
		decode func([]byte) (*Request, *Error)
		body   string
		want   int
	}{
		"chat, a reminder after each result": {DecodeChat, `{"model":"m","messages":[{"role":"user","content":"go"},
			{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"x"},
			{"role":"user","content":"reminder"},
			{"role":"assistant","content":"","tool_calls":[{"id":"b","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"b","content":"x"},
			{"role":"user","content":"reminder"}]}`, 2},
		"chat, after an answer": {DecodeChat, `{"model":"m","messages":[{"role":"user","content":"go"},
			{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"x"},
			{"role":"assistant","content":"done","tool_calls":[]},{"role":"user","content":"again"}]}`, 0},
		"responses, calls side by side are one turn": {DecodeResponses, `{"model":"m","input":[{"role":"user","content":"go"},
			{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]},
			{"type":"function_call","call_id":"a","name":"r","arguments":"{}"},{"type":"function_call","call_id":"b","name":"r","arguments":"{}"},
			{"type":"function_call_output","call_id":"a","output":"x"},{"type":"function_call_output","call_id":"b","output":"x"},
			{"type":"custom_tool_call","call_id":"c","name":"e","input":"x"},{"type":"custom_tool_call_output","call_id":"c","output":"x"}]}`, 2},
		"anthropic": {DecodeAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"go"},
			{"role":"assistant","content":[{"type":"text","text":"reading"},{"type":"tool_use","id":"a","name":"Read","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"Read","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":"x"}]}]}`, 2},
		"gemini": {func(b []byte) (*Request, *Error) { return DecodeGemini(b, "m", false) }, `{"contents":[{"role":"user","parts":[{"text":"go"}]},
			{"role":"model","parts":[{"functionCall":{"name":"read","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"read","response":{}}}]},
			{"role":"model","parts":[{"text":"done"}]},{"role":"user","parts":[{"text":"again"}]},
			{"role":"model","parts":[{"functionCall":{"name":"read","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"read","response":{}}}]}]}`, 1},
	} {
		r, e := c.decode([]byte(c.body))
		if e != nil {
			t.Fatalf("%s: %v", name, e)
		}
		if r.CallsInARow != c.want {
			t.Errorf("%s: CallsInARow %d, want %d", name, r.CallsInARow, c.want)
		}
	}
}

// samePartsAsParse: the parts a decoding cut in its own pass are chat.Parse's of the body, or
// none, when Parse refuses it (the cache simulator then parses the body and says why).
func samePartsAsParse(t *testing.T, r *Request, body []byte) {
	t.Helper()
	if r.API != chat.ChatCompletions {
		if r.Parts != nil {
			t.Fatalf("%s request with parts", r.API)
		}
		return
	}
	want, err := chat.Parse(body)
	if err != nil {
		if r.Parts != nil {
			t.Fatalf("parts %+v of a body chat.Parse refuses (%v): %q", r.Parts, err, body)
		}
		return
	}
	if r.Parts == nil && utf8.Valid(body) {
		t.Fatalf("no parts for %q", body)
	}
	if r.Parts != nil && !reflect.DeepEqual(r.Parts, want) {
		t.Fatalf("parts %+v, chat.Parse %+v, of %q", r.Parts, want, body)
	}
}

// A chat request's parts, cut by its decoding, are chat.Parse's (what the cache simulator read).
func TestDecodeChatParts(t *testing.T) {
	for _, body := range []string{
		`{"model":"m","stream":true,"stream_options":{"include_usage":true},
		 "messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"read"}]},
		  {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]},
		  {"role":"tool","tool_call_id":"c1","content":"hello"}]}`,
		`{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f"}}],"prompt_cache_key":"k","reasoning_effort":"low"}`,
		`{"model":"m","system":"an Anthropic member","messages":[{"role":"user","content":"hi"}]}`,
	} {
		r, e := DecodeChat([]byte(body))
		if e != nil {
			t.Fatalf("%s: %v", body, e.Message)
		}
		if r.Parts == nil {
			t.Fatalf("%s: no parts", body)
		}
		samePartsAsParse(t, r, []byte(body))
	}
}
