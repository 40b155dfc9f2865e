package livetarget

import (
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
		q.msgs = append(q.msgs, readMsg(r.API, p)...)
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

// readMsg is one message as the live target reads it (chat.Turns), an Anthropic call's id as the
// live target made it.
func readMsg(api string, p chat.Part) []msg {
	var out []msg
	for _, t := range chat.Turns(p) {
		m := msg{role: t.Role, text: t.Text, callID: t.CallID, calls: t.Calls}
		if api == chat.Anthropic {
			m.callID = fromToolUse(m.callID)
			for i, c := range m.calls {
				m.calls[i] = fromToolUse(c)
			}
		}
		out = append(out, m)
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
