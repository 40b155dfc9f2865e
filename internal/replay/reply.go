package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// Reply is what a model answered, read from a response in any of the shapes a server sends: an
// OpenAI chat completion or its stream of chunks, an OpenAI Responses object or its events, an
// Anthropic message or its events.
type Reply struct {
	// Text is the reply's text; ToolCalls the calls it made, in order.
	Text      string     `json:"text"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Usage is the usage object as the server wrote it; when a stream sends usage in several events
	// (Anthropic's message_start and message_delta), later keys override earlier ones.
	Usage json.RawMessage `json:"usage,omitempty"`
	// Timings is llama.cpp's `timings` object, when the server sent one.
	Timings json.RawMessage `json:"timings,omitempty"`
	// FirstTokenChunk is the index of the first chunk of a stream that carried text or a call,
	// -1 when none did (or the response was not a stream).
	FirstTokenChunk int `json:"-"`
	// Error is the message of an error event a stream ended with after its 200 (llama-server's
	// tool-call parser failing on what the model generated), "" when none came.
	Error string `json:"error,omitempty"`
}

// TokenUsage is the reply's token usage, read in whichever dialect the server reported it.
func (r Reply) TokenUsage() usage.Usage { return usage.Parse(r.Usage, r.Timings) }

// usageIn is an object's `usage` member (a Responses response's, an Anthropic message's).
func usageIn(obj json.RawMessage) json.RawMessage {
	var o struct {
		Usage json.RawMessage `json:"usage"`
	}
	json.Unmarshal(obj, &o)
	return o.Usage
}

// ToolCall is one call in a reply.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// streamChunks are a streamed response's chunks as SSE bytes: an SSE stream's as they came, a
// WebSocket's messages (one JSON event each, the same events as an SSE stream's data) each made
// a data event.
func (r *Response) streamChunks() [][]byte {
	data := make([][]byte, 0, len(r.Chunks))
	for _, c := range r.Chunks {
		if r.WebSocket {
			data = append(data, []byte("data: "+c.Data+"\n\n"))
			continue
		}
		data = append(data, []byte(c.Data))
	}
	return data
}

// Reply reads the model's answer from a recorded response.
func (r *Response) Reply() (Reply, error) {
	if r == nil {
		return Reply{FirstTokenChunk: -1}, fmt.Errorf("no response was recorded")
	}
	if r.Stream {
		return ParseStream(r.streamChunks())
	}
	if len(r.Body) == 0 {
		return Reply{FirstTokenChunk: -1}, fmt.Errorf("the response has no JSON body")
	}
	return ParseReply(r.Body)
}

// ParseReply reads a whole (not streamed) JSON response.
func ParseReply(body []byte) (Reply, error) {
	x := Reply{FirstTokenChunk: -1}
	var v struct {
		Choices []struct {
			Message struct {
				Content   json.RawMessage `json:"content"`
				ToolCalls []chatToolCall  `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
		Output  []json.RawMessage `json:"output"`  // Responses
		Content []json.RawMessage `json:"content"` // Anthropic
		Usage   json.RawMessage   `json:"usage"`
		Timings json.RawMessage   `json:"timings"`
		// Gemini
		Candidates    []geminiCandidate `json:"candidates"`
		UsageMetadata json.RawMessage   `json:"usageMetadata"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return x, fmt.Errorf("response body: %v", err)
	}
	x.Usage, x.Timings = nonNull(v.Usage), nonNull(v.Timings)
	if x.Usage == nil {
		x.Usage = nonNull(v.UsageMetadata)
	}
	switch {
	case len(v.Choices) > 0:
		m := v.Choices[0].Message
		x.Text, _ = chat.ContentText(m.Content, "")
		for _, c := range m.ToolCalls {
			x.ToolCalls = append(x.ToolCalls, ToolCall{c.ID, c.Function.Name, c.Function.Arguments})
		}
	case v.Output != nil:
		for _, item := range v.Output {
			x.addResponsesItem(item)
		}
	case v.Content != nil:
		for _, b := range v.Content {
			x.addAnthropicBlock(b)
		}
	case len(v.Candidates) > 0:
		for _, p := range v.Candidates[0].Content.Parts {
			x.addGeminiPart(p)
		}
	}
	return x, nil
}

// geminiCandidate is a Gemini answer's candidate: its parts.
type geminiCandidate struct {
	Content struct {
		Parts []json.RawMessage `json:"parts"`
	} `json:"content"`
}

// addGeminiPart adds a Gemini part: its text (a thought's is left out, as reasoning is), or a
// function call, its args as the call's arguments. One part at a time, not chat.ContentText: a
// stream's parts come an event each, text and calls in order.
func (x *Reply) addGeminiPart(p json.RawMessage) {
	var pt struct {
		Text         *string `json:"text"`
		Thought      bool    `json:"thought"`
		FunctionCall *struct {
			ID   string          `json:"id"`
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"functionCall"`
	}
	if json.Unmarshal(p, &pt) != nil {
		return
	}
	switch {
	case pt.FunctionCall != nil:
		x.ToolCalls = append(x.ToolCalls, ToolCall{pt.FunctionCall.ID, pt.FunctionCall.Name,
			string(pt.FunctionCall.Args)})
	case pt.Text != nil && !pt.Thought:
		x.Text += *pt.Text
	}
}

func nonNull(v json.RawMessage) json.RawMessage {
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	return v
}

// addResponsesItem adds an output item of a Responses answer: a message's text, or a call.
func (x *Reply) addResponsesItem(item json.RawMessage) {
	var it struct {
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(item, &it) != nil {
		return
	}
	if it.Type == "message" {
		t, _ := chat.ContentText(it.Content, "")
		x.Text += t
	} else if c, ok := responsesCall(item); ok {
		x.ToolCalls = append(x.ToolCalls, c)
	}
}

// responsesCall is a Responses output item's call: a function_call's arguments, a
// custom_tool_call's input (its free text) as the arguments; ok is false for any other item. A
// body's output and a stream's output_item.done events both give items.
func responsesCall(item json.RawMessage) (ToolCall, bool) {
	var it struct {
		Type      string `json:"type"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Input     string `json:"input"`
	}
	if json.Unmarshal(item, &it) != nil {
		return ToolCall{}, false
	}
	switch it.Type {
	case "function_call":
		return ToolCall{it.CallID, it.Name, it.Arguments}, true
	case "custom_tool_call":
		return ToolCall{it.CallID, it.Name, it.Input}, true
	}
	return ToolCall{}, false
}

// addAnthropicBlock adds a block of an Anthropic message: a text block's text, a tool_use
// block's call (a block at a time, as the stream's events give them).
func (x *Reply) addAnthropicBlock(b json.RawMessage) {
	var bl struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if json.Unmarshal(b, &bl) != nil {
		return
	}
	switch bl.Type {
	case "text":
		x.Text += bl.Text
	case "tool_use":
		x.ToolCalls = append(x.ToolCalls, ToolCall{bl.ID, bl.Name, string(bl.Input)})
	}
}

// Events cuts a server-sent-events stream into the data of each event, in order (the `data:`
// lines of an event joined by newlines; `[DONE]` is left out).
func Events(stream []byte) [][]byte {
	var out [][]byte
	EachEvent(bytes.NewReader(stream), func(d []byte) error {
		if string(d) != "[DONE]" {
			out = append(out, d)
		}
		return nil
	})
	return out
}

// EachEvent reads a server-sent-events stream as it comes, handing each event's data (its
// `data:` lines joined by newlines) to each; an error from each, or from reading, ends it.
func EachEvent(r io.Reader, each func(data []byte) error) error {
	var cur []string
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		d := strings.Join(cur, "\n")
		cur = nil
		return each([]byte(d))
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case line == "":
			if err := flush(); err != nil {
				return err
			}
		case strings.HasPrefix(line, "data:"):
			cur = append(cur, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return sc.Err()
}

// ParseStream reads a streamed response from its chunks (each write as it came; an event may be
// split across chunks). It keeps which chunk first carried text or a call.
func ParseStream(chunks [][]byte) (Reply, error) {
	st := streamState{x: Reply{FirstTokenChunk: -1}, calls: map[int]*ToolCall{}, usage: map[string]json.RawMessage{}}
	// Chunk boundaries matter only for the first token; the events are read from the whole stream.
	var whole []byte
	ends := make([]int, len(chunks))
	for i, c := range chunks {
		whole = append(whole, c...)
		ends[i] = len(whole)
	}
	textSeen := false
	for _, ev := range Events(whole) {
		var v streamEvent
		if err := json.Unmarshal(ev, &v); err != nil {
			return st.x, fmt.Errorf("stream event %q: %v", table.Cut(string(ev), 80), err)
		}
		before := len(st.x.Text) + len(st.calls)
		st.add(&v)
		if !textSeen && len(st.x.Text)+len(st.calls) > before {
			textSeen = true
			st.x.FirstTokenChunk = chunkOf(whole, ev, ends)
		}
	}
	x := st.x
	sort.SliceStable(st.order, func(i, j int) bool { return st.order[i] < st.order[j] })
	for _, i := range st.order {
		x.ToolCalls = append(x.ToolCalls, *st.calls[i])
	}
	if len(st.usage) > 0 {
		x.Usage, _ = json.Marshal(st.usage)
	}
	return x, nil
}

// streamEvent is one event of a stream in any of the APIs' shapes.
type streamEvent struct {
	Type    string `json:"type"`
	Choices []struct {
		Delta struct {
			Content   *string        `json:"content"`
			ToolCalls []chatToolCall `json:"tool_calls"`
		} `json:"delta"`
	} `json:"choices"`
	Usage   json.RawMessage `json:"usage"`
	Timings json.RawMessage `json:"timings"`
	// Responses events
	Delta    json.RawMessage `json:"delta"`
	Response json.RawMessage `json:"response"`
	Item     json.RawMessage `json:"item"`
	// Anthropic events
	Message      json.RawMessage `json:"message"`
	ContentBlock json.RawMessage `json:"content_block"`
	Index        int             `json:"index"`
	// Gemini: each event a whole response
	Candidates    []geminiCandidate `json:"candidates"`
	UsageMetadata json.RawMessage   `json:"usageMetadata"`
	Error         json.RawMessage   `json:"error"`
}

// streamState is a reply as its stream's events build it: the text, the calls by their index
// (kept in the order they began: chat's by their index, Responses' from 1000, Gemini's from
// 2000), and the usage merged key by key.
type streamState struct {
	x     Reply
	calls map[int]*ToolCall
	usage map[string]json.RawMessage
	order []int
}

func (st *streamState) add(v *streamEvent) {
	if e := nonNull(v.Error); e != nil && st.x.Error == "" {
		st.x.Error = ErrorMessage(e)
	}
	merge(st.usage, v.Usage)
	merge(st.usage, v.UsageMetadata)
	if t := nonNull(v.Timings); t != nil {
		st.x.Timings = t
	}
	if len(v.Candidates) > 0 {
		st.gemini(v)
	}
	st.chat(v)
	st.typed(v)
}

// gemini adds a Gemini response's parts; its calls are kept in order with the others.
func (st *streamState) gemini(v *streamEvent) {
	x := &st.x
	calls0 := len(x.ToolCalls)
	for _, p := range v.Candidates[0].Content.Parts {
		x.addGeminiPart(p)
	}
	for _, c := range x.ToolCalls[calls0:] {
		n := len(st.order) + 2000
		st.calls[n] = &ToolCall{c.ID, c.Name, c.Arguments}
		st.order = append(st.order, n)
	}
	x.ToolCalls = x.ToolCalls[:calls0]
}

// chat adds a chat completion chunk's deltas: text, and calls built up by their index.
func (st *streamState) chat(v *streamEvent) {
	for _, c := range v.Choices {
		if c.Delta.Content != nil {
			st.x.Text += *c.Delta.Content
		}
		for _, tc := range c.Delta.ToolCalls {
			call, ok := st.calls[tc.Index]
			if !ok {
				call = &ToolCall{}
				st.calls[tc.Index] = call
				st.order = append(st.order, tc.Index)
			}
			if tc.ID != "" {
				call.ID = tc.ID
			}
			call.Name += tc.Function.Name
			call.Arguments += tc.Function.Arguments
		}
	}
}

// typed adds a Responses or Anthropic event, told apart by its type.
func (st *streamState) typed(v *streamEvent) {
	switch v.Type {
	case "response.output_text.delta":
		var s string
		json.Unmarshal(v.Delta, &s)
		st.x.Text += s
	case "response.completed", "response.incomplete":
		merge(st.usage, usageIn(v.Response))
	case "response.output_item.done":
		if c, ok := responsesCall(v.Item); ok {
			n := len(st.order) + 1000
			st.calls[n] = &c
			st.order = append(st.order, n)
		}
	case "message_start":
		merge(st.usage, usageIn(v.Message))
	case "content_block_start":
		var bl struct {
			Type, ID, Name string
		}
		if json.Unmarshal(v.ContentBlock, &bl) == nil && bl.Type == "tool_use" {
			st.calls[v.Index] = &ToolCall{ID: bl.ID, Name: bl.Name}
			st.order = append(st.order, v.Index)
		}
	case "content_block_delta":
		var d struct {
			Text        string `json:"text"`
			PartialJSON string `json:"partial_json"`
		}
		json.Unmarshal(v.Delta, &d)
		st.x.Text += d.Text
		if c, ok := st.calls[v.Index]; ok {
			c.Arguments += d.PartialJSON
		}
	}
}

// ErrorMessage reads what a server's error says: the `message` of an error object (OpenAI's,
// llama-server's, Anthropic's) with its type or code, else the JSON as it came.
func ErrorMessage(e json.RawMessage) string {
	var o struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(e, &o) != nil || o.Message == "" {
		var s string
		if json.Unmarshal(e, &s) == nil && s != "" {
			return s
		}
		return table.Cut(string(bytes.TrimSpace(e)), 200)
	}
	kind := o.Type
	if kind == "" && len(o.Code) > 0 && o.Code[0] == '"' {
		json.Unmarshal(o.Code, &kind)
	}
	if kind != "" {
		return kind + ": " + o.Message
	}
	return o.Message
}

// merge puts an object's keys into m, later over earlier.
func merge(m map[string]json.RawMessage, obj json.RawMessage) {
	var o map[string]json.RawMessage
	if json.Unmarshal(obj, &o) == nil {
		for k, v := range o {
			m[k] = v
		}
	}
}

// chunkOf finds which chunk holds the end of an event's data.
func chunkOf(whole, ev []byte, ends []int) int {
	at := bytes.Index(whole, ev)
	if at < 0 {
		return -1
	}
	end := at + len(ev)
	for i, e := range ends {
		if end <= e {
			return i
		}
	}
	return len(ends) - 1
}

// chatToolCall is a tool call of a chat completion, whole in a message or a piece of one in a
// stream's delta (Index says which call it belongs to).
type chatToolCall struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}
