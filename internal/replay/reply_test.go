package replay

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestParseReplyShapes(t *testing.T) {
	for name, c := range map[string]struct {
		body string
		want Reply
	}{
		"chat": {`{"choices":[{"message":{"role":"assistant","content":"hi","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]}}],"usage":{"prompt_tokens":3},"timings":{"cache_n":1}}`,
			Reply{Text: "hi", ToolCalls: []ToolCall{{"c1", "read", "{}"}}, Usage: []byte(`{"prompt_tokens":3}`), Timings: []byte(`{"cache_n":1}`), FirstTokenChunk: -1}},
		"responses": {`{"output":[{"type":"message","content":[{"type":"output_text","text":"a"},{"type":"output_text","text":"b"}]},{"type":"function_call","call_id":"x","name":"f","arguments":"{}"}],"usage":{"input_tokens":5}}`,
			Reply{Text: "ab", ToolCalls: []ToolCall{{"x", "f", "{}"}}, Usage: []byte(`{"input_tokens":5}`), FirstTokenChunk: -1}},
		"anthropic": {`{"content":[{"type":"text","text":"t"},{"type":"tool_use","id":"u","name":"g","input":{"a":1}}],"usage":{"input_tokens":2,"cache_read_input_tokens":7}}`,
			Reply{Text: "t", ToolCalls: []ToolCall{{"u", "g", `{"a":1}`}}, Usage: []byte(`{"input_tokens":2,"cache_read_input_tokens":7}`), FirstTokenChunk: -1}},
	} {
		got, err := ParseReply([]byte(c.body))
		if err != nil {
			t.Fatal(name, err)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
	if _, err := ParseReply([]byte(`<html>`)); err == nil {
		t.Error("HTML read as a reply")
	}
}

func TestParseStreamShapes(t *testing.T) {
	chat := []string{
		"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null}}]}\n\n",
		"data: {\"choices\":[{\"delta\":{\"content\":\"he\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"llo\"}}]}\n\n",
		"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"re\",\"arguments\":\"{\\\"a\"}}]}}]}\n\n",
		"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"ad\",\"arguments\":\"\\\":1}\"}}]}}]}\n\n",
		"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"prompt_tokens_details\":{\"cached_tokens\":4}},\"timings\":{\"cache_n\":4}}\n\ndata: [DONE]\n\n",
	}
	anth := []string{
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3,\"cache_read_input_tokens\":100}}}\n\n",
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"yo\"}}\n\n",
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":2}}\n\n",
	}
	resp := []string{
		"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"ok\"}\n\n",
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":8,\"input_tokens_details\":{\"cached_tokens\":6}}}}\n\n",
	}
	gem := []string{
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hmm\",\"thought\":true}],\"role\":\"model\"},\"index\":0}]}\r\n\r\n",
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"ok\"}],\"role\":\"model\"},\"index\":0}]}\r\n\r\n",
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"read_file\",\"args\":{\"file_path\":\"a\"}}}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":9,\"cachedContentTokenCount\":4}}\r\n\r\n",
	}
	for name, c := range map[string]struct {
		chunks     []string
		text       string
		calls      []ToolCall
		usage      string
		firstToken int
	}{
		"gemini":    {gem, "ok", []ToolCall{{"", "read_file", `{"file_path":"a"}`}}, `{"cachedContentTokenCount":4,"promptTokenCount":9}`, 1},
		"chat":      {chat, "hello", []ToolCall{{"c", "read", `{"a":1}`}}, `{"prompt_tokens":9,"prompt_tokens_details":{"cached_tokens":4}}`, 1},
		"anthropic": {anth, "yo", nil, `{"cache_read_input_tokens":100,"input_tokens":3,"output_tokens":2}`, 1},
		"responses": {resp, "ok", nil, `{"input_tokens":8,"input_tokens_details":{"cached_tokens":6}}`, 0},
	} {
		var bs [][]byte
		for _, s := range c.chunks {
			bs = append(bs, []byte(s))
		}
		got, err := ParseStream(bs)
		if err != nil {
			t.Fatal(name, err)
		}
		if got.Text != c.text || !cmp.Equal(got.ToolCalls, c.calls) || string(got.Usage) != c.usage || got.FirstTokenChunk != c.firstToken {
			t.Errorf("%s: %+v (usage %s)", name, got, got.Usage)
		}
	}
	// An event split across two writes is read whole.
	got, err := ParseStream([][]byte{[]byte("data: {\"choices\":[{\"delta\":{\"con"), []byte("tent\":\"x\"}}]}\n\n")})
	if err != nil || got.Text != "x" || got.FirstTokenChunk != 1 {
		t.Errorf("split event: %+v %v", got, err)
	}
	if _, err := ParseStream([][]byte{[]byte("data: {nope\n\n")}); err == nil || !strings.Contains(err.Error(), "stream event") {
		t.Errorf("bad event: %v", err)
	}
}

// FuzzParseStream and FuzzParseReply: any bytes, no panic; what they read back is consistent.
func FuzzParseStream(f *testing.F) {
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: [DONE]\n\n"), 5)
	f.Add([]byte("event: x\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"i\",\"name\":\"n\"}}\n\n"), 3)
	f.Fuzz(func(t *testing.T, stream []byte, cut int) {
		if cut < 0 || cut > len(stream) {
			cut = len(stream) / 2
		}
		r, err := ParseStream([][]byte{stream[:cut], stream[cut:]})
		if err == nil && r.FirstTokenChunk > 1 {
			t.Fatalf("first token in chunk %d of 2", r.FirstTokenChunk)
		}
		Events(stream)
	})
}

func FuzzParseReply(f *testing.F) {
	f.Add([]byte(`{"choices":[{"message":{"content":[{"type":"text","text":"x"}]}}]}`))
	f.Add([]byte(`{"output":[{"type":"function_call"}],"content":[1]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := ParseReply(body)
		if err != nil && (r.Text != "" || len(r.ToolCalls) > 0) {
			t.Fatalf("an error with a reply: %+v", r)
		}
	})
}

// A streamed response reads the same over SSE and over a WebSocket (one JSON event a message):
// its reply, and the id and output a later continuation is rebuilt from.
func TestStreamedResponseOverBothTransports(t *testing.T) {
	events := []string{
		`{"type":"response.created","response":{"id":"resp_1"}}`,
		`{"type":"response.output_text.delta","delta":"he"}`,
		`{"type":"response.output_text.delta","delta":"llo"}`,
		`{"type":"response.completed","response":{"id":"resp_1","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hello"}]}]}}`,
	}
	sse := &Response{Status: 200, Stream: true}
	ws := &Response{Status: 200, Stream: true, WebSocket: true}
	for _, e := range events {
		sse.Chunks = append(sse.Chunks, Chunk{Data: "event: x\ndata: " + e + "\n\n"})
		ws.Chunks = append(ws.Chunks, Chunk{Data: e})
	}
	for name, r := range map[string]*Response{"sse": sse, "websocket": ws} {
		rep, err := r.Reply()
		if err != nil || rep.Text != "hello" || rep.FirstTokenChunk != 1 {
			t.Errorf("%s: reply %+v, %v", name, rep, err)
		}
		id, out := responseOutput(r)
		if id != "resp_1" || len(out) != 1 {
			t.Errorf("%s: output %q %s", name, id, out)
		}
	}
}

// A Responses function_call (its arguments) and custom_tool_call (its input) read the same
// whole in a body's output and one output_item.done at a time in a stream (responsesCall);
// other items carry no call.
func TestResponsesCallsBodyAndStream(t *testing.T) {
	items := []string{
		`{"type":"function_call","call_id":"c1","name":"read","arguments":"{\"path\":\"a\"}"}`,
		`{"type":"reasoning","summary":[]}`,
		`{"type":"custom_tool_call","call_id":"c2","name":"apply_patch","input":"*** Begin Patch"}`,
		`{"type":"web_search_call","id":"w"}`,
	}
	want := []ToolCall{{"c1", "read", `{"path":"a"}`}, {"c2", "apply_patch", "*** Begin Patch"}}
	body, err := ParseReply([]byte(`{"output":[` + strings.Join(items, ",") + `]}`))
	if err != nil || !cmp.Equal(body.ToolCalls, want) {
		t.Errorf("body: %+v %v", body.ToolCalls, err)
	}
	var chunks [][]byte
	for _, it := range items {
		chunks = append(chunks, []byte("event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"item\":"+it+"}\n\n"))
	}
	stream, err := ParseStream(chunks)
	if err != nil || !cmp.Equal(stream.ToolCalls, want) || stream.FirstTokenChunk != 0 {
		t.Errorf("stream: %+v first %d %v", stream.ToolCalls, stream.FirstTokenChunk, err)
	}
}

// The assistant message a harness appends for a reply, which live mode feeds back and the
// session generator (internal/cachebench/gen) writes into its requests: role, content (null for calls
// alone), tool_calls, the text as sent.
func TestReplyMessage(t *testing.T) {
	for _, c := range []struct {
		r    Reply
		want string
	}{
		{Reply{Text: "a <b> & c"}, `{"role":"assistant","content":"a <b> & c"}`},
		{Reply{}, `{"role":"assistant","content":""}`},
		{Reply{ToolCalls: []ToolCall{{"call_1", "read", `{"path":"a"}`}}}, `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]}`},
		{Reply{Text: "so", ToolCalls: []ToolCall{{"c1", "f", "{}"}, {"c2", "g", ""}}}, `{"role":"assistant","content":"so","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"g","arguments":""}}]}`},
	} {
		if got := string(c.r.Message()); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.r, got, c.want)
		}
	}
}

// A quote of a stream event or an error body in a message is cut at a character, never inside
// one (it was cut at the 80th or 200th byte): the message stays valid UTF-8.
func TestQuotesCutAtACharacter(t *testing.T) {
	_, err := ParseStream([][]byte{[]byte("data: {\"choices\": \"" + strings.Repeat("é", 100) + "\n\n")})
	if err == nil || !utf8.ValidString(err.Error()) || !strings.Contains(err.Error(), "é…") {
		t.Errorf("stream error %q", err)
	}
	if m := ErrorMessage([]byte(strings.Repeat("日", 300))); !utf8.ValidString(m) || !strings.HasSuffix(m, "日…") {
		t.Errorf("error message %q", m)
	}
}
