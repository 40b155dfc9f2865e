package wire

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// Anthropic's Messages API (POST /v1/messages): the request read into what a script looks at,
// and the answer as a Message object or its stream of named events, in the API's field order.

type anthropicMessage struct {
	Role    *string `json:"role"`
	Content raw     `json:"content"`
}

type anthropicBlock struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
}

// DecodeAnthropic reads a Messages request body. Errors are the API's 400s (Error.AnthropicBody
// writes them in its shape); more than chat.MaxBreakpoints cache_control blocks is one.
func DecodeAnthropic(body []byte) (*Request, *Error) {
	top, e := object(body)
	if e != nil {
		return nil, e
	}
	r := &Request{API: chat.Anthropic}
	if e := modelAndStream(top, r); e != nil {
		return nil, e
	}
	if mt, ok := top["max_tokens"]; !ok || absent(mt) {
		return nil, &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: "max_tokens",
			Message: "max_tokens: Field required"}
	} else if n, e := intParam("max_tokens", mt); e != nil {
		return nil, e
	} else {
		r.Params.MaxTokens, r.Params.MaxParam = n, "max_tokens"
	}
	raw, ok := top["messages"]
	if !ok {
		return nil, &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: "messages",
			Message: "messages: Field required"}
	}
	var msgs []anthropicMessage
	if json.Unmarshal(raw, &msgs) != nil {
		return nil, &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: "messages",
			Message: "messages: Input should be a valid list"}
	}
	r.Messages = len(msgs)
	for i, m := range msgs {
		if m.Role == nil {
			return nil, &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest,
				Param: fmt.Sprintf("messages.%d.role", i), Message: fmt.Sprintf("messages.%d.role: Field required", i)}
		}
		text, results, calls, ok := anthropicContent(json.RawMessage(m.Content))
		if !ok {
			return nil, &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest,
				Param: fmt.Sprintf("messages.%d.content", i),
				Message: fmt.Sprintf("messages.%d.content: Input should be a valid string or a list of content blocks",
					i)}
		}
		r.LastIsToolResult = *m.Role == "user" && results > 0
		if *m.Role != "user" {
			r.turn(calls > 0)
			continue
		}
		r.ToolResults += results
		r.ResultsSinceUser += results
		// A user message of tool results only is not the person speaking.
		if results == 0 || strings.TrimSpace(text) != "" {
			r.LastUserText, r.ResultsSinceUser = text, 0
		}
	}
	tools, e := anthropicTools(top["tools"])
	if e != nil {
		return nil, e
	}
	r.Tools = tools
	r.Params.ToolChoice = anthropicToolChoice(top["tool_choice"])
	if raw := top["stop_sequences"]; !absent(raw) && json.Unmarshal(raw, &r.Params.Stop) != nil {
		return nil, invalidType("stop_sequences", "an array of strings", raw)
	}
	if cr, err := chat.ParseAs(body, chat.Anthropic); err == nil {
		if n := cr.Breakpoints(); n > chat.MaxBreakpoints {
			return nil, &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest,
				Message: (&chat.TooManyBreakpoints{N: n}).Error()}
		}
	}
	return r, nil
}

// anthropicContent reads a message's content: its text, and how many tool results it carries.
func anthropicContent(raw json.RawMessage) (text string, results, calls int, ok bool) {
	if absent(raw) {
		return "", 0, 0, true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, 0, 0, true
	}
	text, ok = contentText(raw)
	var blocks []anthropicBlock
	if !ok || json.Unmarshal(raw, &blocks) != nil {
		return "", 0, 0, false
	}
	for _, bl := range blocks {
		switch bl.Type {
		case "tool_result":
			results++
		case "tool_use":
			calls++
		}
	}
	return text, results, calls, true
}

// anthropicTools reads `tools`: custom tools {name, input_schema}; a server tool (web search, a
// typed tool without a schema) is nothing a script calls by name.
func anthropicTools(raw json.RawMessage) ([]Tool, *Error) {
	if absent(raw) {
		return nil, nil
	}
	var list []struct {
		Name        *string         `json:"name"`
		Type        string          `json:"type"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil, &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: "tools",
			Message: "tools: Input should be a valid list"}
	}
	out := make([]Tool, 0, len(list))
	for i, t := range list {
		if t.Name == nil {
			return nil, &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest,
				Param: fmt.Sprintf("tools.%d.name", i), Message: fmt.Sprintf("tools.%d.name: Field required", i)}
		}
		if len(t.InputSchema) == 0 && t.Type != "" && t.Type != "custom" {
			continue
		}
		out = append(out, Tool{Name: *t.Name, Props: props(t.InputSchema), Schema: t.InputSchema})
	}
	return out, nil
}

// anthropicToolChoice reads {"type": "auto" | "any" | "tool" | "none", "name"}.
func anthropicToolChoice(raw json.RawMessage) ToolChoice {
	var c struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	if absent(raw) || json.Unmarshal(raw, &c) != nil {
		return ToolChoice{Mode: ChoiceAuto}
	}
	switch c.Type {
	case "any":
		return ToolChoice{Mode: ChoiceRequired}
	case "tool":
		return ToolChoice{Mode: ChoiceRequired, Name: c.Name}
	case "none":
		return ToolChoice{Mode: ChoiceNone}
	}
	return ToolChoice{Mode: ChoiceAuto}
}

// MessagesUsage is a Messages answer's usage, as the API counts it: Input is what was neither
// read from the cache nor written to it; Thinking is the part of Output spent on thinking.
type MessagesUsage struct {
	Input, CacheRead, CacheWrite5m, CacheWrite1h, Output, Thinking int
}

func (u MessagesUsage) object(e *enc, outputOnly bool) {
	e.obj()
	e.kint("input_tokens", int64(u.Input))
	e.kint("cache_creation_input_tokens", int64(u.CacheWrite5m+u.CacheWrite1h))
	e.kint("cache_read_input_tokens", int64(u.CacheRead))
	if !outputOnly {
		e.key("cache_creation")
		e.obj()
		e.kint("ephemeral_5m_input_tokens", int64(u.CacheWrite5m))
		e.kint("ephemeral_1h_input_tokens", int64(u.CacheWrite1h))
		e.end()
	}
	e.kint("output_tokens", int64(u.Output))
	// the members the SDKs' types require, in message_delta too: no server tools run here
	e.key("output_tokens_details")
	e.obj()
	e.kint("thinking_tokens", int64(min(u.Thinking, u.Output)))
	e.end()
	e.key("server_tool_use")
	e.obj()
	e.kint("web_fetch_requests", 0)
	e.kint("web_search_requests", 0)
	e.end()
	if !outputOnly {
		e.kstr("service_tier", "standard")
		e.kstr("inference_geo", "global")
		e.kstr("speed", "standard")
	}
	e.end()
}

// messageTail writes the members a message's SDK type requires that the fake has nothing for:
// no container tool runs, no diagnostics were asked for, no refusal stops a turn.
func messageTail(e *enc) {
	e.knull("container")
	e.knull("diagnostics")
	e.knull("stop_details")
}

// StopReason is the answer's stop_reason: tool_use, end_turn, max_tokens, stop_sequence.
func StopReason(a Answer) string {
	switch a.FinishReason {
	case "length", "max_tokens":
		return "max_tokens"
	case "stop":
		if a.StopSequence != "" {
			return "stop_sequence"
		}
	case "stop_sequence", "refusal", "pause_turn":
		return a.FinishReason
	}
	if len(a.ToolCalls) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

// stopSequence writes stop_sequence: the one matched when the text stopped at one, else null.
func stopSequence(e *enc, a Answer) {
	if StopReason(a) == "stop_sequence" && a.StopSequence != "" {
		e.kstr("stop_sequence", a.StopSequence)
		return
	}
	e.knull("stop_sequence")
}

// MessageID is a Messages answer's id.
func MessageID(m Meta) string { return "msg_" + m.ID }

// ToolUseID is a tool call's id as the API names them (toolu_…); a script's own id is kept.
func ToolUseID(c ToolCall) string {
	if strings.HasPrefix(c.ID, "call_") {
		return "toolu_" + strings.TrimPrefix(c.ID, "call_")
	}
	return c.ID
}

// signature stands for the thinking block's signature, which the API encrypts.
const signature = "lembas-check-fake-signature"

// toolInput is a call's input as a JSON object: its arguments when they are one, else {} (a
// script that sends broken arguments gets them in the stream's input_json_delta only).
func toolInput(c ToolCall) []byte {
	b := []byte(strings.TrimSpace(c.Arguments))
	if len(b) > 0 && b[0] == '{' && json.Valid(b) {
		return b
	}
	return []byte("{}")
}

// messageHead writes the members a message opens with, in the body and in message_start.
func messageHead(e *enc, m Meta) {
	e.kstr("id", MessageID(m))
	e.kstr("type", "message")
	e.kstr("role", "assistant")
	e.kstr("model", m.Model)
}

// MessagesBody is a non-streamed Messages answer.
func MessagesBody(m Meta, a Answer, u MessagesUsage) []byte {
	e := enc{b: make([]byte, 0, 512+len(a.Text)+len(a.Reasoning)), first: true}
	e.obj()
	messageHead(&e, m)
	e.key("content")
	e.arr()
	if a.Reasoning != "" {
		e.obj()
		e.kstr("type", "thinking")
		e.kstr("thinking", a.Reasoning)
		e.kstr("signature", signature)
		e.end()
	}
	if a.Text != "" || len(a.ToolCalls) == 0 && a.Reasoning == "" {
		e.obj()
		e.kstr("type", "text")
		e.kstr("text", a.Text)
		e.end()
	}
	for _, c := range a.ToolCalls {
		e.obj()
		e.kstr("type", "tool_use")
		e.kstr("id", ToolUseID(c))
		e.kstr("name", c.Name)
		e.key("input")
		e.raw(toolInput(c))
		e.end()
	}
	e.endArr()
	e.kstr("stop_reason", StopReason(a))
	stopSequence(&e, a)
	messageTail(&e)
	e.key("usage")
	u.object(&e, false)
	e.end()
	return e.b
}

// MessagesStream is a streamed Messages answer, one element per event: message_start, each content
// block (content_block_start, its deltas — thinking_delta and signature_delta, text_delta,
// input_json_delta — and content_block_stop, a ping after the first start), message_delta with the
// stop reason and usage, message_stop.
func MessagesStream(m Meta, a Answer, u MessagesUsage) [][]byte {
	var st messagesStream
	st.ev("message_start", func(e *enc) {
		e.key("message")
		e.obj()
		messageHead(e, m)
		e.kstrs("content")
		e.knull("stop_reason")
		e.knull("stop_sequence")
		messageTail(e)
		e.key("usage")
		start := u
		start.Output = 1 // the API counts the first token in message_start
		start.object(e, false)
		e.end()
	})
	if a.Reasoning != "" {
		st.block(func(e *enc) { e.kstr("type", "thinking"); e.kstr("thinking", ""); e.kstr("signature", "") },
			func(emit func(typ, key, v string)) {
				eachPiece(a.Reasoning, a.Chunk, false, func(p string) { emit("thinking_delta", "thinking", p) })
				emit("signature_delta", "signature", signature)
			})
	}
	if a.Text != "" || len(a.ToolCalls) == 0 && a.Reasoning == "" {
		st.block(func(e *enc) { e.kstr("type", "text"); e.kstr("text", "") },
			func(emit func(typ, key, v string)) {
				eachPiece(a.Text, a.Chunk, false, func(p string) { emit("text_delta", "text", p) })
			})
	}
	for _, c := range a.ToolCalls {
		st.block(func(e *enc) {
			e.kstr("type", "tool_use")
			e.kstr("id", ToolUseID(c))
			e.kstr("name", c.Name)
			e.key("input")
			e.obj()
			e.end()
		}, func(emit func(typ, key, v string)) {
			eachPiece(c.Arguments, a.Chunk, true, func(p string) { emit("input_json_delta", "partial_json", p) })
		})
	}
	st.ev("message_delta", func(e *enc) {
		e.key("delta")
		e.obj()
		e.kstr("stop_reason", StopReason(a))
		stopSequence(e, a)
		e.end()
		e.key("usage")
		u.object(e, true)
	})
	st.ev("message_stop", func(*enc) {})
	return st.out
}

// messagesStream is a Messages stream as it is written: its events so far, and the index of the
// next content block.
type messagesStream struct {
	out   [][]byte
	index int
}

// ev writes one event of type typ, its other members written by body.
func (st *messagesStream) ev(typ string, body func(e *enc)) {
	e := enc{b: make([]byte, 0, 128), first: true}
	e.obj()
	e.kstr("type", typ)
	body(&e)
	e.end()
	st.out = append(st.out, Event(typ, e.b))
}

// block writes a content block: its start (the block's members written by start, a ping after
// the first), its deltas as deltas emits them, and its stop.
func (st *messagesStream) block(start func(e *enc), deltas func(emit func(typ, key, v string))) {
	i := st.index
	st.ev("content_block_start", func(e *enc) {
		e.kint("index", int64(i))
		e.key("content_block")
		e.obj()
		start(e)
		e.end()
	})
	if i == 0 {
		st.ev("ping", func(*enc) {})
	}
	deltas(func(typ, key, v string) {
		st.ev("content_block_delta", func(e *enc) {
			e.kint("index", int64(i))
			e.key("delta")
			e.obj()
			e.kstr("type", typ)
			e.kstr(key, v)
			e.end()
		})
	})
	st.ev("content_block_stop", func(e *enc) { e.kint("index", int64(i)) })
	st.index++
}

// AnthropicType is the error type the API gives a status.
func AnthropicType(status int) string { return errorNameOf(status).anthropic }

// AnthropicBody is the error in the Messages API's shape:
// {"type":"error","error":{"type":…,"message":…},"request_id":…}. An OpenAI type the API does not
// have becomes the status's own.
func (e *Error) AnthropicBody(requestID string) []byte {
	typ := e.Type
	switch typ {
	case "", TypeInvalidRequest, TypeServer, TypeRateLimit, TypeAuthentication, TypePermission:
		typ = AnthropicType(e.Status)
	}
	out := enc{b: make([]byte, 0, 128+len(e.Message)), first: true}
	out.obj()
	out.kstr("type", "error")
	out.key("error")
	out.obj()
	out.kstr("type", typ)
	out.kstr("message", e.Message)
	out.end()
	out.kstrOrNull("request_id", requestID)
	out.end()
	return out.b
}

// AnthropicErrorEvent is an error in the middle of a Messages stream.
func (e *Error) AnthropicErrorEvent() []byte {
	return Event("error", e.AnthropicBody(""))
}

// CountTokensBody is POST /v1/messages/count_tokens's answer.
func CountTokensBody(n int) []byte {
	e := enc{b: make([]byte, 0, 32), first: true}
	e.obj()
	e.kint("input_tokens", int64(n))
	e.end()
	return e.b
}

// AnthropicModelsBody is GET /v1/models as the Messages API's clients read it.
func AnthropicModelsBody(models []string, created string) []byte {
	e := enc{b: make([]byte, 0, 128*len(models)+64), first: true}
	e.obj()
	kobjs(&e, "data", models, func(m string) {
		e.kstr("type", "model")
		e.kstr("id", m)
		e.kstr("display_name", m)
		e.kstr("created_at", created)
		modelInfo(&e, m)
	})
	e.kbool("has_more", false)
	if len(models) > 0 {
		e.kstr("first_id", models[0])
		e.kstr("last_id", models[len(models)-1])
	} else {
		e.knull("first_id")
		e.knull("last_id")
	}
	e.end()
	return e.b
}

// anthropicCapabilities is what the fake does with a Messages request: thinking at every effort,
// structured outputs, images and PDFs taken as input; no batches, citations or server tools.
const anthropicCapabilities = `{"batch":{"supported":false},"citations":{"supported":false},` +
	`"code_execution":{"supported":false},"context_management":{"supported":false,` +
	`"clear_thinking_20251015":{"supported":false},"clear_tool_uses_20250919":{"supported":false},` +
	`"compact_20260112":{"supported":false}},"effort":{"supported":true,"low":{"supported":true},` +
	`"medium":{"supported":true},"high":{"supported":true},"xhigh":{"supported":true},"max":{"supported":true}},` +
	`"image_input":{"supported":true},"pdf_input":{"supported":true},"server_tools":{"supported":false,` +
	`"code_execution":{"supported":false},"web_search":{"supported":false}},"structured_outputs":{"supported":true},` +
	`"thinking":{"supported":true,"types":{"adaptive":{"supported":true},"between_tools":{"supported":true},` +
	`"disabled":{"supported":true},"enabled":{"supported":true}}}}`

// modelInfo writes the model list item's members the SDKs' types require: the family a Claude
// model id names (null for another id), an active model with no deprecation or retirement date,
// and Claude's current window and output bound.
func modelInfo(e *enc, model string) {
	e.key("capabilities")
	e.raw([]byte(anthropicCapabilities))
	e.kstr("lifecycle", "active")
	e.knull("deprecated_at")
	e.knull("retires_at")
	line := ""
	for _, l := range []string{"haiku", "sonnet", "opus"} {
		if strings.Contains(model, l) {
			line = l
		}
	}
	e.kstrOrNull("line", line)
	e.kint("max_input_tokens", 200000)
	e.kint("max_tokens", 64000)
}
