// Package wire holds the OpenAI shapes the fake provider speaks: it decodes chat-completions and
// Responses requests into what a script looks at, and renders answers as OpenAI (or llama.cpp,
// DeepSeek, Anthropic-flavoured) bodies, stream chunks and error bodies. Pure: no I/O, no clock.
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// API names the endpoint a request came to.
const (
	APIChat      = "chat"      // POST /v1/chat/completions
	APIResponses = "responses" // POST /v1/responses
)

// Request is what the fake needs from a request body: enough to pick and shape a reply.
type Request struct {
	API    string
	Model  string
	Stream bool
	// IncludeUsage is stream_options.include_usage: a usage chunk goes before [DONE].
	IncludeUsage bool
	// Tools may be shared with other requests that sent the same list: read it, never change it.
	Tools []Tool
	// Messages counts the messages (chat) or input items (Responses).
	Messages int
	// LastIsToolResult: the last message is a tool result (role "tool", or a
	// function_call_output item).
	LastIsToolResult bool
	// ToolResults counts the tool results anywhere in the request; ResultsSinceUser those after
	// the last user message (the calls made so far for the person's latest words).
	ToolResults, ResultsSinceUser int
	// LastUserText is the text of the last user message.
	LastUserText string
}

// Tool is one offered function tool: its name and its parameters' property names.
type Tool struct {
	Name  string
	Props []string
}

// Offers says whether a tool of that name is offered.
func (r *Request) Offers(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// DecodeChat reads a chat-completions request body. Fields the fake does not use are not
// checked: an agent may send anything its server takes.
func DecodeChat(body []byte) (*Request, *Error) {
	top, e := object(body)
	if e != nil {
		return nil, e
	}
	r := &Request{API: APIChat}
	if e := modelAndStream(top, r); e != nil {
		return nil, e
	}
	if raw, ok := top["stream_options"]; ok && !isNull(raw) {
		var so struct {
			IncludeUsage *bool `json:"include_usage"`
		}
		if json.Unmarshal(raw, &so) != nil {
			return nil, invalidType("stream_options", "an object", raw)
		}
		r.IncludeUsage = so.IncludeUsage != nil && *so.IncludeUsage
	}
	raw, ok := top["messages"]
	if !ok {
		return nil, missing("messages")
	}
	// One pass for all messages; the element at fault is looked for only when it fails.
	var msgs []chatMessage
	if json.Unmarshal(raw, &msgs) != nil {
		return nil, messagesError(raw)
	}
	if len(msgs) == 0 {
		return nil, &Error{Status: 400, Type: TypeInvalidRequest, Param: "messages", Code: "empty_array",
			Message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead."}
	}
	r.Messages = len(msgs)
	lastUser, lastUserAt := json.RawMessage(nil), 0
	for i, msg := range msgs {
		if msg.Role == nil {
			return nil, missing(fmt.Sprintf("messages[%d].role", i))
		}
		// Only the kind is checked here; the text is read from the last user message alone.
		if k := jsonKind(json.RawMessage(msg.Content)); msg.Content != nil && k != "a string" && k != "an array" && k != "null" {
			return nil, invalidType(fmt.Sprintf("messages[%d].content", i), "a string or an array of content parts", json.RawMessage(msg.Content))
		}
		switch *msg.Role {
		case "tool", "function":
			r.ToolResults++
			r.ResultsSinceUser++
		case "user":
			lastUser, lastUserAt = json.RawMessage(msg.Content), i
			r.ResultsSinceUser = 0
		}
		r.LastIsToolResult = *msg.Role == "tool" || *msg.Role == "function"
	}
	if lastUser != nil {
		text, ok := contentText(lastUser)
		if !ok {
			return nil, invalidType(fmt.Sprintf("messages[%d].content", lastUserAt), "a string or an array of content parts", lastUser)
		}
		r.LastUserText = text
	}
	tools, e := chatTools(top["tools"])
	if e != nil {
		return nil, e
	}
	r.Tools = tools
	return r, nil
}

type chatMessage struct {
	Role    *string `json:"role"`
	Content raw     `json:"content"`
}

// messagesError says what is wrong with a `messages` value that did not decode.
func messagesError(raw json.RawMessage) *Error {
	var els []json.RawMessage
	if json.Unmarshal(raw, &els) != nil {
		return invalidType("messages", "an array", raw)
	}
	for i, m := range els {
		var msg chatMessage
		if json.Unmarshal(m, &msg) != nil {
			if jsonKind(m) == "an object" {
				return invalidType(fmt.Sprintf("messages[%d].role", i), "a string", roleOf(m))
			}
			return invalidType(fmt.Sprintf("messages[%d]", i), "an object", m)
		}
	}
	return invalidType("messages", "an array of message objects", raw)
}

func roleOf(m json.RawMessage) json.RawMessage {
	var o map[string]json.RawMessage
	json.Unmarshal(m, &o)
	return o["role"]
}

// DecodeResponses reads a Responses API request body.
func DecodeResponses(body []byte) (*Request, *Error) {
	top, e := object(body)
	if e != nil {
		return nil, e
	}
	r := &Request{API: APIResponses, IncludeUsage: true}
	if e := modelAndStream(top, r); e != nil {
		return nil, e
	}
	raw, ok := top["input"]
	if !ok {
		return nil, missing("input")
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		r.Messages, r.LastUserText = 1, s
	} else {
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil, invalidType("input", "a string or an array of input items", raw)
		}
		if len(items) == 0 {
			return nil, &Error{Status: 400, Type: TypeInvalidRequest, Param: "input", Code: "empty_array",
				Message: "Invalid 'input': empty array. Give the input as a string or at least one item."}
		}
		r.Messages = len(items)
		for i, it := range items {
			var item struct {
				Type    string          `json:"type"`
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			}
			if json.Unmarshal(it, &item) != nil {
				return nil, invalidType(fmt.Sprintf("input[%d]", i), "an object", it)
			}
			isResult := item.Type == "function_call_output" || item.Type == "custom_tool_call_output"
			if isResult {
				r.ToolResults++
				r.ResultsSinceUser++
			}
			r.LastIsToolResult = isResult
			if item.Role == "user" && (item.Type == "" || item.Type == "message") {
				text, ok := contentText(item.Content)
				if !ok {
					return nil, invalidType(fmt.Sprintf("input[%d].content", i), "a string or an array of content parts", item.Content)
				}
				r.LastUserText = text
				r.ResultsSinceUser = 0
			}
		}
	}
	tools, e := responsesTools(top["tools"])
	if e != nil {
		return nil, e
	}
	r.Tools = tools
	return r, nil
}

// raw is a JSON value left undecoded, as json.RawMessage, but aliasing the body it came from
// rather than copying it (json.Unmarshal hands an Unmarshaler a slice of its own input). The
// body outlives every raw value: they are read within DecodeChat and DecodeResponses only.
type raw []byte

func (r *raw) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// object parses the body as one JSON object, keeping its members raw.
func object(body []byte) (map[string]json.RawMessage, *Error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, badJSON("the body is empty")
	}
	var members map[string]raw
	if err := json.Unmarshal(body, &members); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			line, col := LineCol(body, ErrorOffset(body, se))
			return nil, badJSON(fmt.Sprintf("%s at line %d, column %d", se.Error(), line, col))
		}
		if _, ok := err.(*json.UnmarshalTypeError); ok {
			return nil, badJSON("the body is JSON but not an object")
		}
		return nil, badJSON(err.Error())
	}
	if members == nil {
		return nil, badJSON("the body is JSON null, not an object")
	}
	top := make(map[string]json.RawMessage, len(members))
	for k, v := range members {
		top[k] = json.RawMessage(v)
	}
	return top, nil
}

func modelAndStream(top map[string]json.RawMessage, r *Request) *Error {
	raw, ok := top["model"]
	if !ok {
		return missing("model")
	}
	if json.Unmarshal(raw, &r.Model) != nil {
		return invalidType("model", "a string", raw)
	}
	if raw, ok := top["stream"]; ok && !isNull(raw) {
		if json.Unmarshal(raw, &r.Stream) != nil {
			return invalidType("stream", "a boolean", raw)
		}
	}
	return nil
}

// contentText joins the text of a message's content: a string, null, or an array of parts
// (the text of those that carry one).
func contentText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || isNull(raw) {
		return "", true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var parts []struct {
		Text *string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Text != nil {
			b.WriteString(*p.Text)
		}
	}
	return b.String(), true
}

// toolMemo remembers the tools of tool lists already read: an agent sends the same list with
// every request, and reading its schemas is much of a request's decoding. It is bounded; what it
// holds never changes what DecodeChat returns.
var toolMemo = struct {
	sync.Mutex
	m map[string][]Tool
}{m: map[string][]Tool{}}

const (
	toolMemoEntries = 64
	toolMemoBytes   = 256 << 10
)

// chatTools reads `tools` as chat completions has it: [{"type":"function","function":{…}}].
func chatTools(raw json.RawMessage) ([]Tool, *Error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	toolMemo.Lock()
	ts, ok := toolMemo.m[string(raw)]
	toolMemo.Unlock()
	if ok {
		return ts, nil
	}
	ts, e := readChatTools(raw)
	if e == nil && len(raw) <= toolMemoBytes {
		toolMemo.Lock()
		if len(toolMemo.m) >= toolMemoEntries {
			clear(toolMemo.m)
		}
		toolMemo.m[string(raw)] = ts
		toolMemo.Unlock()
	}
	return ts, e
}

func readChatTools(raw json.RawMessage) ([]Tool, *Error) {
	var list []struct {
		Type     string `json:"type"`
		Function *struct {
			Name       *string         `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil, invalidType("tools", "an array of tool objects", raw)
	}
	out := make([]Tool, 0, len(list))
	for i, t := range list {
		if t.Function == nil {
			if t.Type != "function" && t.Type != "" {
				continue // a built-in tool of some server: nothing a script can call by name
			}
			return nil, missing(fmt.Sprintf("tools[%d].function", i))
		}
		if t.Function.Name == nil {
			return nil, missing(fmt.Sprintf("tools[%d].function.name", i))
		}
		out = append(out, Tool{Name: *t.Function.Name, Props: props(t.Function.Parameters)})
	}
	return out, nil
}

// responsesTools reads `tools` as the Responses API has it: [{"type":"function","name":…}].
func responsesTools(raw json.RawMessage) ([]Tool, *Error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	var list []struct {
		Type       string          `json:"type"`
		Name       *string         `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil, invalidType("tools", "an array of tool objects", raw)
	}
	out := make([]Tool, 0, len(list))
	for i, t := range list {
		if t.Type != "function" && t.Type != "custom" {
			continue
		}
		if t.Name == nil {
			return nil, missing(fmt.Sprintf("tools[%d].name", i))
		}
		out = append(out, Tool{Name: *t.Name, Props: props(t.Parameters)})
	}
	return out, nil
}

// props lists a JSON schema's property names, sorted; a schema that is not an object gives none.
func props(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// LineCol turns a byte offset into a 1-based line and column.
func LineCol(b []byte, off int64) (int, int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	if off < 0 {
		off = 0
	}
	line, col := 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// ErrorOffset is where a syntax error is: the offending byte, or the end for a text cut short
// (encoding/json's Offset counts the bytes read, the offending one included).
func ErrorOffset(b []byte, se *json.SyntaxError) int64 {
	if se.Offset >= int64(len(b)) {
		return int64(len(b))
	}
	return max(se.Offset-1, 0)
}

// jsonKind names a JSON value's type the way OpenAI's errors do.
func jsonKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
