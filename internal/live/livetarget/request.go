package livetarget

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// request is what the live target reads of a request a harness sent the fake: its system prompt
// (the exact bytes, and as text), its tools' names, and its messages as text — the same for chat
// completions and the Responses API.
type request struct {
	api    string
	system string // the system prompt's text, its parts joined by a blank line
	raw    string // its exact bytes, for telling one prompt from another
	tools  []string
	// rawTools is the tools' exact bytes.
	rawTools string
	msgs     []msg
}

// msg is one message: its role ("tool" for a tool result), its text, and for a tool result the
// call it answers, for an assistant message the calls it makes.
type msg struct {
	role, text, callID string
	calls              []string
}

func parseRequest(body []byte) (*request, error) {
	r, err := chat.Parse(body)
	if err != nil {
		return nil, err
	}
	q := &request{api: r.API}
	var sys, raw []string
	for _, p := range r.System {
		raw = append(raw, string(p.Content()))
		sys = append(sys, partText(p.Content()))
	}
	q.system, q.raw = strings.Join(sys, "\n\n"), strings.Join(raw, "\x00")
	var rawTools []string
	for _, p := range r.Tools {
		rawTools = append(rawTools, string(p.Content()))
		var t struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		json.Unmarshal(p.Raw, &t)
		if t.Name == "" {
			t.Name = t.Function.Name
		}
		q.tools = append(q.tools, t.Name)
	}
	q.rawTools = strings.Join(rawTools, "\x00")
	for _, p := range r.Messages {
		q.msgs = append(q.msgs, readMsg(p)...)
	}
	return q, nil
}

// partText is a system part's text: a JSON string, content blocks or one of them, a message's
// content, or Gemini's parts.
func partText(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) > 0 && raw[0] == '[' {
		return contentText(raw)
	}
	var m struct {
		Text    *string         `json:"text"` // one of Anthropic's system blocks
		Content json.RawMessage `json:"content"`
		Parts   json.RawMessage `json:"parts"`
	}
	json.Unmarshal(raw, &m)
	switch {
	case m.Text != nil:
		return *m.Text
	case m.Parts != nil:
		return contentText(m.Parts)
	}
	return contentText(m.Content)
}

// contentText is a content member as text: a string, or its text parts a line apart, so two parts
// a harness sent never read as one word (the fake's LastUserText runs them together, as it did).
func contentText(c json.RawMessage) string {
	t, _ := chat.ContentText(c, "\n")
	return t
}

// readMsg is one message as the live target reads it: chat completions' and Responses' as they
// are; Anthropic's and Gemini's, whose tool results are blocks (parts) of a user message, one
// message per result and one for the text.
func readMsg(p chat.Part) []msg {
	if p.Field == "input" && p.Index < 0 { // Responses: input given as one string
		var s string
		json.Unmarshal(p.Raw, &s)
		return []msg{{role: "user", text: s}}
	}
	var m struct {
		Type       string          `json:"type"`
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Parts      json.RawMessage `json:"parts"`
		Output     json.RawMessage `json:"output"`
		ToolCallID string          `json:"tool_call_id"`
		CallID     string          `json:"call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	}
	json.Unmarshal(p.Raw, &m)
	switch m.Type {
	case "function_call_output", "custom_tool_call_output":
		return []msg{{role: "tool", text: contentText(m.Output), callID: m.CallID}}
	case "function_call", "custom_tool_call":
		return []msg{{role: "assistant", calls: []string{m.CallID}}}
	}
	if len(m.Parts) > 0 && m.Parts[0] == '[' {
		return geminiMsgs(m.Role, m.Parts)
	}
	if len(m.Content) > 0 && m.Content[0] == '[' && bytes.Contains(m.Content, []byte(`"tool_`)) {
		return anthropicMsgs(m.Role, m.Content)
	}
	out := msg{role: m.Role, text: contentText(m.Content), callID: m.ToolCallID}
	for _, c := range m.ToolCalls {
		out.calls = append(out.calls, c.ID)
	}
	return []msg{out}
}

// anthropicMsgs are an Anthropic message's blocks: tool_result blocks each a tool message, the
// text blocks one message of the role, the tool_use blocks its calls.
func anthropicMsgs(role string, content json.RawMessage) []msg {
	var blocks []struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
	}
	json.Unmarshal(content, &blocks)
	var out []msg
	own := msg{role: role, text: contentText(content)}
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			out = append(out, msg{role: "tool", text: contentText(b.Content), callID: fromToolUse(b.ToolUseID)})
		case "tool_use":
			own.calls = append(own.calls, fromToolUse(b.ID))
		}
	}
	if own.text != "" || own.calls != nil || len(out) == 0 {
		out = append(out, own)
	}
	return out
}

// fromToolUse is a call's id as the live target made it, from the id Anthropic's API gave it
// (the fake names call_X toolu_X there: wire.ToolUseID).
func fromToolUse(id string) string {
	if rest, ok := strings.CutPrefix(id, "toolu_"); ok && wire.ToolUseID(wire.ToolCall{ID: "call_" + rest}) == id {
		return "call_" + rest
	}
	return id
}

// geminiMsgs are a Gemini content's parts: each functionResponse a tool message (with the id
// where the harness gives one), the text parts one message ("model" is the assistant).
func geminiMsgs(role string, content json.RawMessage) []msg {
	if role == "model" {
		role = "assistant"
	}
	var parts []json.RawMessage
	json.Unmarshal(content, &parts)
	var out []msg
	own := msg{role: role, text: contentText(content)}
	for _, raw := range parts {
		var p struct {
			FunctionCall *struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"functionCall"`
			FunctionResponse *struct {
				ID       string          `json:"id"`
				Response json.RawMessage `json:"response"`
			} `json:"functionResponse"`
		}
		json.Unmarshal(raw, &p)
		switch {
		case p.FunctionResponse != nil:
			var r struct {
				Output  *string `json:"output"`
				Content *string `json:"content"`
			}
			json.Unmarshal(p.FunctionResponse.Response, &r)
			text := string(p.FunctionResponse.Response)
			if r.Output != nil {
				text = *r.Output
			} else if r.Content != nil {
				text = *r.Content
			}
			out = append(out, msg{role: "tool", text: text, callID: p.FunctionResponse.ID})
		case p.FunctionCall != nil:
			own.calls = append(own.calls, p.FunctionCall.ID)
		}
	}
	if own.text != "" || own.calls != nil || len(out) == 0 {
		out = append(out, own)
	}
	return out
}

// result is the text of the tool result answering call, and whether the request carries one.
// Gemini's calls carry no id: there, the request's last result answers the call before it.
func (q *request) result(call string) (string, bool) {
	for _, m := range q.msgs {
		if m.role == "tool" && m.callID == call {
			return m.text, true
		}
	}
	if q.api == chat.Gemini {
		for i := len(q.msgs) - 1; i >= 0; i-- {
			if q.msgs[i].role == "tool" {
				return q.msgs[i].text, true
			}
		}
	}
	return "", false
}

// lastUser is the text of the request's last user message.
func (q *request) lastUser() (string, bool) {
	for i := len(q.msgs) - 1; i >= 0; i-- {
		if q.msgs[i].role == "user" {
			return q.msgs[i].text, true
		}
	}
	return "", false
}

// afterCalls is the text of the user messages after the last assistant message: what a harness
// added to a tool step's request besides the results ("" for none).
func (q *request) afterCalls() string {
	var out []string
	for i := len(q.msgs) - 1; i >= 0 && q.msgs[i].role != "assistant"; i-- {
		if q.msgs[i].role == "user" {
			out = append([]string{q.msgs[i].text}, out...)
		}
	}
	return strings.Join(out, "\n")
}

// all is the request's whole text, system prompt first, for finding what it carries.
func (q *request) all() string {
	var b strings.Builder
	b.WriteString(q.system)
	for _, m := range q.msgs {
		b.WriteString("\n")
		b.WriteString(m.text)
	}
	return b.String()
}
