// Package wire holds the OpenAI shapes the fake provider speaks: it decodes chat-completions and
// Responses requests into what a script looks at, and renders answers as OpenAI (or llama.cpp,
// DeepSeek, Anthropic-flavoured) bodies, stream chunks and error bodies. Pure: no I/O, no clock.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Request is what the fake needs from a request body: enough to pick and shape a reply.
type Request struct {
	API    string // the API it was sent to, in chat's names (chat.ChatCompletions, …)
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
	// CallsInARow counts the assistant's turns that called a tool since its last turn that did
	// not (or since the start): read from the conversation, so that the same request always
	// gets the same answer, whoever sent what before it.
	CallsInARow int
	// LastUserText is the text of the last user message.
	LastUserText string
	// Params are the settings the answer honours.
	Params Params

	// Top are the body's members as sent (for a response to echo, and strict validation).
	Top map[string]json.RawMessage
	// The Responses API's own: the input items (a string input as one user message), and where
	// the response continues and is kept.
	Input              []json.RawMessage
	PreviousResponseID string
	Conversation       string
	// Store is `store`: the API's default is true.
	Store bool
	// Parts is the body as chat.Parse cuts it, made from DecodeChat's own pass over the body
	// (nil when it was not made: chat.Parse the body then), for the cache simulator.
	Parts *chat.Request
}

// Tool is one offered tool: a function, with its parameters' property names and schema, or a
// custom tool, which takes free-form text (Grammar, when set, constrains it: Syntax is "lark"
// or "regex").
type Tool struct {
	Name string
	// Namespace is the namespace the tool was offered in (Responses), "" for none.
	Namespace string `json:",omitempty"`
	Props     []string
	Schema    json.RawMessage `json:",omitempty"`
	Custom    bool            `json:",omitempty"`
	Syntax    string          `json:",omitempty"`
	Grammar   string          `json:",omitempty"`
}

// Tool finds an offered tool by name.
func (r *Request) Tool(name string) (Tool, bool) {
	for _, t := range r.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
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
	top, split, e := objectSplit(body)
	if e != nil {
		return nil, e
	}
	r := &Request{API: chat.ChatCompletions, Top: top}
	if e := modelAndStream(top, r); e != nil {
		return nil, e
	}
	if e := streamOptions(top, r); e != nil {
		return nil, e
	}
	raw, ok := top["messages"]
	if !ok {
		return nil, missing("messages")
	}
	// One pass for all messages; the element at fault is looked for only when it fails.
	msgs, ok := scanMessages(raw)
	if !ok && json.Unmarshal(raw, &msgs) != nil {
		return nil, messagesError(raw)
	}
	if len(msgs) == 0 {
		return nil, &Error{Status: 400, Type: TypeInvalidRequest, Param: "messages", Code: "empty_array",
			Message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty " +
				"array instead."}
	}
	r.Messages = len(msgs)
	lastUser, lastUserAt := json.RawMessage(nil), 0
	for i, msg := range msgs {
		if msg.Role == nil {
			return nil, missing(fmt.Sprintf("messages[%d].role", i))
		}
		// Only the kind is checked here; the text is read from the last user message alone.
		if k := jsonKind(json.RawMessage(msg.Content)); msg.Content != nil && k != "a string" && k != "an array" &&
			k != "null" {
			return nil, invalidType(fmt.Sprintf("messages[%d].content", i), "a string or an array of content parts",
				json.RawMessage(msg.Content))
		}
		countMedia(msg.Content, &r.Params)
		switch *msg.Role {
		case "tool", "function":
			r.ToolResults++
			r.ResultsSinceUser++
		case "user":
			lastUser, lastUserAt = json.RawMessage(msg.Content), i
			r.ResultsSinceUser = 0
		case "assistant":
			r.turn(msg.calls())
		}
		r.LastIsToolResult = *msg.Role == "tool" || *msg.Role == "function"
	}
	if lastUser != nil {
		text, ok := contentText(lastUser)
		if !ok {
			return nil, invalidType(fmt.Sprintf("messages[%d].content", lastUserAt),
				"a string or an array of content parts", lastUser)
		}
		r.LastUserText = text
	}
	tools, e := chatTools(top["tools"])
	if e != nil {
		return nil, e
	}
	r.Tools = tools
	if e := chatParams(top, &r.Params); e != nil {
		return nil, e
	}
	if split != nil {
		// Cut as the cache simulator cuts a body (chat.Parse: its shape told by its content).
		r.Parts, _ = split.Parse("")
	}
	return r, nil
}

type chatMessage struct {
	Role         *string `json:"role"`
	Content      raw     `json:"content"`
	ToolCalls    raw     `json:"tool_calls"`
	FunctionCall raw     `json:"function_call"`
}

// scanMessages is json.Unmarshal of a valid messages array into chatMessages by internal/api/chat's
// scanner (its members matched to the fields as encoding/json matches them: without regard to
// case, the last one kept); false when a message is not an object or its role neither a string
// nor null, for encoding/json to decode and name.
func scanMessages(arr []byte) ([]chatMessage, bool) {
	i := jsonx.SkipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil, false
	}
	// One walk, each message's members read as met: listing the elements' spans, then each
	// one's keys and spans (a slice and a string per key), was a fifth of decoding a request.
	msgs := make([]chatMessage, 0, 8)
	end, err := chat.EachElement(arr, i, func(_, start int) (int, error) {
		if arr[start] != '{' {
			return 0, errNotMessage
		}
		msgs = append(msgs, chatMessage{})
		return chat.EachMember(arr, start, func(key []byte, vs int) (int, error) {
			ve, err := chat.SkipValue(arr, vs)
			if err != nil {
				return 0, err
			}
			if !readMessageMember(&msgs[len(msgs)-1], key, arr[vs:ve]) {
				return 0, errNotMessage
			}
			return ve, nil
		})
	})
	if err != nil || jsonx.SkipSpace(arr, end) != len(arr) {
		return nil, false
	}
	return msgs, true
}

var errNotMessage = errors.New("not a message scanMessages reads")

// readMessageMember reads one member of a message: its key matched as encoding/json matches a
// field's name (case folded); false when the role is neither null nor a UTF-8 string.
func readMessageMember(m *chatMessage, key, v []byte) bool {
	k := chat.KeyText(key)
	if k == nil {
		return false
	}
	switch {
	case bytes.EqualFold(k, []byte("role")):
		if m.Role = nil; string(v) != "null" {
			role, ok := chat.StringValue(v)
			if !ok || !utf8.ValidString(role) {
				return false
			}
			m.Role = &role
		}
	case bytes.EqualFold(k, []byte("content")):
		m.Content = raw(v)
	case bytes.EqualFold(k, []byte("tool_calls")):
		m.ToolCalls = raw(v)
	case bytes.EqualFold(k, []byte("function_call")):
		m.FunctionCall = raw(v)
	}
	return true
}

// calls says whether an assistant message called a tool.
func (m *chatMessage) calls() bool {
	return !absent(json.RawMessage(m.FunctionCall)) || (!absent(json.RawMessage(m.ToolCalls)) &&
		string(bytes.TrimSpace(m.ToolCalls)) != "[]")
}

// turn counts an assistant turn into CallsInARow: one more when it called a tool, else none.
func (r *Request) turn(called bool) {
	if called {
		r.CallsInARow++
	} else {
		r.CallsInARow = 0
	}
}

// countMedia counts the image and file parts of a content array.
func countMedia(content []byte, p *Params) {
	if len(content) == 0 || content[0] != '[' || !bytes.Contains(content, []byte(`"type"`)) {
		return
	}
	var parts []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(content, &parts) != nil {
		return
	}
	for _, pt := range parts {
		switch pt.Type {
		case "image_url", "input_image":
			p.Images++
		case "file", "input_file", "input_audio":
			p.Files++
		}
	}
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
	r := &Request{API: chat.Responses, IncludeUsage: true, Top: top, Store: true}
	if e := modelAndStream(top, r); e != nil {
		return nil, e
	}
	raw, ok := top["input"]
	if !ok {
		return nil, missing("input")
	}
	if r.Input, ok = chat.InputItems(raw); !ok {
		return nil, invalidType("input", "a string or an array of input items", raw)
	}
	// An empty array: a WebSocket warm-up (generate: false, as codex sends first) has nothing to
	// answer; any other is refused.
	if len(r.Input) == 0 && absent(top["previous_response_id"]) && absent(top["conversation"]) &&
		string(bytes.TrimSpace(top["generate"])) != "false" {
		return nil, &Error{Status: 400, Type: TypeInvalidRequest, Param: "input", Code: "empty_array",
			Message: "Invalid 'input': empty array. Give the input as a string or at least one item."}
	}
	for k, p := range map[string]*string{"previous_response_id": &r.PreviousResponseID} {
		if raw, ok := top[k]; ok && !isNull(raw) && json.Unmarshal(raw, p) != nil {
			return nil, invalidType(k, "a string", raw)
		}
	}
	if raw, ok := top["conversation"]; ok && !isNull(raw) {
		var c struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(raw, &r.Conversation) != nil && (json.Unmarshal(raw, &c) != nil || c.ID == "") {
			return nil, invalidType("conversation", "a string or an object with an id", raw)
		}
		if r.Conversation == "" {
			r.Conversation = c.ID
		}
	}
	if raw, ok := top["store"]; ok && !isNull(raw) && json.Unmarshal(raw, &r.Store) != nil {
		return nil, invalidType("store", "a boolean", raw)
	}
	if e := r.readInput(); e != nil {
		return nil, e
	}
	if e := r.readTools(); e != nil {
		return nil, e
	}
	if e := responsesParams(top, &r.Params); e != nil {
		return nil, e
	}
	return r, nil
}

// Continue puts earlier items (a previous response's input and output, or a conversation's)
// before the request's own input, as the model sees them.
func (r *Request) Continue(earlier []json.RawMessage) *Error {
	r.Input = append(append([]json.RawMessage(nil), earlier...), r.Input...)
	r.Params.Images, r.Params.Files = 0, 0
	if e := r.readInput(); e != nil {
		return e
	}
	return r.readTools()
}

// Text is all the text the model is given, each message's or item's on a line of its own: the
// messages' content (chat), or the input items' content and tool outputs (Responses, with the
// turns it continues). For rules that look at the whole conversation.
func (r *Request) Text() string {
	var items []json.RawMessage
	if r.API == chat.ChatCompletions {
		json.Unmarshal(r.Top["messages"], &items)
	} else {
		items = r.Input
	}
	var b strings.Builder
	for _, it := range items {
		var m struct {
			Content json.RawMessage `json:"content"`
			Output  json.RawMessage `json:"output"`
		}
		json.Unmarshal(it, &m)
		for _, c := range []json.RawMessage{m.Content, m.Output} {
			if t, ok := contentText(c); ok && t != "" {
				b.WriteString(t)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// readTools reads the tools offered: the body's `tools`, and those of the input's
// additional_tools items (codex sends its tools so, at their place in the history).
func (r *Request) readTools() *Error {
	tools, e := responsesTools(r.Top["tools"])
	if e != nil {
		return e
	}
	for i, it := range r.Input {
		if !bytes.Contains(it, []byte(`"additional_tools"`)) {
			continue
		}
		var at struct {
			Type  string          `json:"type"`
			Tools json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(it, &at) != nil || at.Type != "additional_tools" {
			continue
		}
		more, e := responsesToolList(at.Tools, fmt.Sprintf("input[%d].tools", i), "")
		if e != nil {
			return e
		}
		tools = append(tools, more...)
	}
	r.Tools = tools
	return nil
}

// readInput reads what a script looks at from the input items.
func (r *Request) readInput() *Error {
	r.Messages, r.ToolResults, r.ResultsSinceUser, r.LastIsToolResult, r.LastUserText = len(r.Input), 0, 0, false, ""
	r.CallsInARow = 0
	prevCall := false
	for i, it := range r.Input {
		var item struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(it, &item) != nil {
			return invalidType(fmt.Sprintf("input[%d]", i), "an object", it)
		}
		isResult := item.Type == "function_call_output" || item.Type == "custom_tool_call_output"
		// Calls side by side are one turn; an assistant message ends a run of calls.
		isCall := item.Type == "function_call" || item.Type == "custom_tool_call"
		if isCall && !prevCall {
			r.turn(true)
		} else if item.Role == "assistant" && (item.Type == "" || item.Type == "message") {
			r.turn(false)
		}
		prevCall = isCall
		if isResult {
			r.ToolResults++
			r.ResultsSinceUser++
		}
		r.LastIsToolResult = isResult
		if item.Type == "" || item.Type == "message" {
			countMedia(item.Content, &r.Params)
		}
		if item.Role == "user" && (item.Type == "" || item.Type == "message") {
			text, ok := contentText(item.Content)
			if !ok {
				return invalidType(fmt.Sprintf("input[%d].content", i), "a string or an array of content parts",
					item.Content)
			}
			r.LastUserText = text
			r.ResultsSinceUser = 0
		}
	}
	return nil
}

// raw is a JSON value left undecoded, as json.RawMessage, but aliasing the body it came from
// rather than copying it (json.Unmarshal hands an Unmarshaler a slice of its own input). The
// body outlives every raw value: they are read within the Decode functions only.
type raw []byte

func (r *raw) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// object parses the body as one JSON object, keeping its members raw (slices of body).
func object(body []byte) (map[string]json.RawMessage, *Error) {
	top, _, e := objectSplit(body)
	return top, e
}

// objectSplit is object with the split the fast path made (nil when encoding/json decoded it),
// which chat's Parse reads without walking the body again.
func objectSplit(body []byte) (map[string]json.RawMessage, *chat.Top, *Error) {
	if top, split, ok := members(body); ok {
		return top, split, nil
	}
	top, e := decodeObject(body)
	return top, nil, e
}

// decodeObject is object by encoding/json, which names what is wrong.
func decodeObject(body []byte) (map[string]json.RawMessage, *Error) {
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

// members is object's fast path, for a valid JSON object: checked and split in one walk by
// chat.SplitValid, where decoding it into a map with encoding/json (a second pass, a
// value copied per member) was a quarter of the fake's work for a request. A key whose bytes
// are not UTF-8 (encoding/json would replace them) and anything else take the slow path.
func members(body []byte) (map[string]json.RawMessage, *chat.Top, bool) {
	split, ok := chat.SplitValid(body)
	if !ok {
		return nil, nil, false
	}
	top := make(map[string]json.RawMessage, len(split.Keys))
	for i, k := range split.Keys {
		if !utf8.ValidString(k) {
			return nil, nil, false
		}
		top[k] = json.RawMessage(body[split.Spans[i].Start:split.Spans[i].End])
	}
	return top, split, true
}

// The settings' values as SDKs write them, read without encoding/json: its Unmarshal for these
// few bytes each was a tenth of decoding a request. Any other spelling is decoded by it.
var (
	literalBool  = map[string]bool{"true": true, "false": false}
	includeUsage = map[string]bool{`{"include_usage":true}`: true, `{"include_usage": true}`: true,
		`{"include_usage":false}`: false, `{"include_usage": false}`: false}
)

// streamOptions reads stream_options.include_usage.
func streamOptions(top map[string]json.RawMessage, r *Request) *Error {
	raw, ok := top["stream_options"]
	if !ok || isNull(raw) {
		return nil
	}
	inc, ok := includeUsage[string(raw)]
	if !ok {
		var so struct {
			IncludeUsage *bool `json:"include_usage"`
		}
		if json.Unmarshal(raw, &so) != nil {
			return invalidType("stream_options", "an object", raw)
		}
		inc = so.IncludeUsage != nil && *so.IncludeUsage
	}
	r.IncludeUsage = inc
	return nil
}

func modelAndStream(top map[string]json.RawMessage, r *Request) *Error {
	raw, ok := top["model"]
	if !ok {
		return missing("model")
	}
	if m, ok := jsonx.PlainString(raw); ok {
		r.Model = m
	} else if json.Unmarshal(raw, &r.Model) != nil {
		return invalidType("model", "a string", raw)
	}
	if raw, ok := top["stream"]; ok && !isNull(raw) {
		if b, ok := literalBool[string(raw)]; ok {
			r.Stream = b
		} else if json.Unmarshal(raw, &r.Stream) != nil {
			return invalidType("stream", "a boolean", raw)
		}
	}
	return nil
}

// contentText is the text of a message's content (a string, null, or an array of parts: the
// text of those that carry one), its parts run together, as TestDecodeChat pins; false for a
// content that is none of these, which the fake refuses.
func contentText(raw json.RawMessage) (string, bool) { return chat.ContentText(raw, "") }

// toolMemo remembers the tools of tool lists already read: an agent sends the same list with
// every request, and reading its schemas is much of a request's decoding. It is bounded; what it
// holds never changes what DecodeChat returns.
var toolMemo = struct {
	sync.RWMutex // read-locked: every request of a session reads it
	m            map[string][]Tool
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
	toolMemo.RLock()
	ts, ok := toolMemo.m[string(raw)]
	toolMemo.RUnlock()
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
		Custom *struct {
			Name   *string      `json:"name"`
			Format customFormat `json:"format"`
		} `json:"custom"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil, invalidType("tools", "an array of tool objects", raw)
	}
	out := make([]Tool, 0, len(list))
	for i, t := range list {
		if t.Type == "custom" {
			if t.Custom == nil {
				return nil, missing(fmt.Sprintf("tools[%d].custom", i))
			}
			if t.Custom.Name == nil {
				return nil, missing(fmt.Sprintf("tools[%d].custom.name", i))
			}
			syntax, def := t.Custom.Format.grammar()
			out = append(out, Tool{Name: *t.Custom.Name, Custom: true, Syntax: syntax, Grammar: def})
			continue
		}
		if t.Function == nil {
			if t.Type != "function" && t.Type != "" {
				continue // a built-in tool of some server: nothing a script can call by name
			}
			return nil, missing(fmt.Sprintf("tools[%d].function", i))
		}
		if t.Function.Name == nil {
			return nil, missing(fmt.Sprintf("tools[%d].function.name", i))
		}
		out = append(out, Tool{Name: *t.Function.Name, Props: props(t.Function.Parameters),
			Schema: schemaOf(t.Function.Parameters)})
	}
	return out, nil
}

// customFormat is a custom tool's format: {"type": "text"}, or a grammar — chat nests it
// ({"type": "grammar", "grammar": {"syntax", "definition"}}), Responses does not.
type customFormat struct {
	Type       string `json:"type"`
	Syntax     string `json:"syntax"`
	Definition string `json:"definition"`
	Grammar    *struct {
		Syntax     string `json:"syntax"`
		Definition string `json:"definition"`
	} `json:"grammar"`
}

func (f customFormat) grammar() (syntax, definition string) {
	if f.Type != "grammar" {
		return "", ""
	}
	if f.Grammar != nil {
		return f.Grammar.Syntax, f.Grammar.Definition
	}
	return f.Syntax, f.Definition
}

func schemaOf(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || isNull(raw) {
		return nil
	}
	return raw
}

// responsesTools reads `tools` as the Responses API has it: [{"type":"function","name":…}].
func responsesTools(raw json.RawMessage) ([]Tool, *Error) {
	return responsesToolList(raw, "tools", "")
}

// responsesToolList reads a Responses tool list at param; a namespace's tools are read with
// their namespace (codex puts its tools in namespaces, and calls them by namespace and name).
func responsesToolList(raw json.RawMessage, param, namespace string) ([]Tool, *Error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	var list []struct {
		Type       string          `json:"type"`
		Name       *string         `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
		Format     customFormat    `json:"format"`
		Tools      json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil, invalidType(param, "an array of tool objects", raw)
	}
	out := make([]Tool, 0, len(list))
	for i, t := range list {
		if t.Type == "namespace" && t.Name != nil && namespace == "" {
			inner, e := responsesToolList(t.Tools, fmt.Sprintf("%s[%d].tools", param, i), *t.Name)
			if e != nil {
				return nil, e
			}
			out = append(out, inner...)
			continue
		}
		if t.Type != "function" && t.Type != "custom" {
			continue
		}
		if t.Name == nil {
			return nil, missing(fmt.Sprintf("%s[%d].name", param, i))
		}
		if t.Type == "custom" {
			syntax, def := t.Format.grammar()
			out = append(out, Tool{Name: *t.Name, Namespace: namespace, Custom: true, Syntax: syntax, Grammar: def})
			continue
		}
		out = append(out, Tool{Name: *t.Name, Namespace: namespace, Props: props(t.Parameters),
			Schema: schemaOf(t.Parameters)})
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

// absent: not sent, or sent as null.
func absent(raw json.RawMessage) bool { return len(raw) == 0 || isNull(raw) }

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

// WithMember is a JSON object with a member put first (value is raw JSON); a value that is not
// an object is returned as it is.
func WithMember(obj json.RawMessage, key string, value string) json.RawMessage {
	t := bytes.TrimSpace(obj)
	if len(t) < 2 || t[0] != '{' {
		return obj
	}
	out := appendString(append(make([]byte, 0, len(t)+len(key)+len(value)+4), '{'), key)
	out = append(append(out, ':'), value...)
	rest := bytes.TrimSpace(t[1:])
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...)
}
