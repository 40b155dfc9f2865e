package chat

import (
	"bytes"
	"encoding/json"
)

// Turn is one message as a model reads it, in any of the four APIs: its role ("tool" for a tool's
// result, "assistant" for Gemini's "model"), its text, and for a result the call it answers, for
// an assistant's message the calls it makes.
type Turn struct {
	Role, Text, CallID string
	Calls              []string
}

// Turns are a message part's turns: a chat completions message or a Responses item as it is;
// an Anthropic message's tool_result blocks and a Gemini content's functionResponse parts each a
// tool's turn, then the message's own text and calls as one turn (left out when it has neither
// and results came before). A content's text parts are a line apart (turnText), so two parts
// never read as one word. The live target reads requests by them, and the live judge the results
// a session sent the model.
func Turns(p Part) []Turn {
	if p.Field == "input" && p.Index < 0 { // Responses: input given as one string
		var s string
		json.Unmarshal(p.Raw, &s)
		return []Turn{{Role: "user", Text: s}}
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
		return []Turn{{Role: "tool", Text: turnText(m.Output), CallID: m.CallID}}
	case "function_call", "custom_tool_call":
		return []Turn{{Role: "assistant", Calls: []string{m.CallID}}}
	}
	if len(m.Parts) > 0 && m.Parts[0] == '[' {
		return geminiTurns(m.Role, m.Parts)
	}
	if len(m.Content) > 0 && m.Content[0] == '[' && bytes.Contains(m.Content, []byte(`"tool_`)) {
		return anthropicTurns(m.Role, m.Content)
	}
	out := Turn{Role: m.Role, Text: turnText(m.Content), CallID: m.ToolCallID}
	for _, c := range m.ToolCalls {
		out.Calls = append(out.Calls, c.ID)
	}
	return []Turn{out}
}

// turnText is a content member as text: a string, or its text parts a line apart.
func turnText(c json.RawMessage) string {
	t, _ := ContentText(c, "\n")
	return t
}

// anthropicTurns are an Anthropic message's blocks: each tool_result block a tool's turn, the
// text blocks one turn of the role, the tool_use blocks its calls.
func anthropicTurns(role string, content json.RawMessage) []Turn {
	var blocks []struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
	}
	json.Unmarshal(content, &blocks)
	var out []Turn
	own := Turn{Role: role, Text: turnText(content)}
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			out = append(out, Turn{Role: "tool", Text: turnText(b.Content), CallID: b.ToolUseID})
		case "tool_use":
			own.Calls = append(own.Calls, b.ID)
		}
	}
	if own.Text != "" || own.Calls != nil || len(out) == 0 {
		out = append(out, own)
	}
	return out
}

// geminiTurns are a Gemini content's parts: each functionResponse a tool's turn (with the id
// where the harness gives one; its text the response's output or content string, else the
// response's JSON), the text parts one turn ("model" is the assistant).
func geminiTurns(role string, content json.RawMessage) []Turn {
	if role == "model" {
		role = "assistant"
	}
	var parts []json.RawMessage
	json.Unmarshal(content, &parts)
	var out []Turn
	own := Turn{Role: role, Text: turnText(content)}
	for _, raw := range parts {
		var p struct {
			FunctionCall *struct {
				ID string `json:"id"`
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
			out = append(out, Turn{Role: "tool", Text: text, CallID: p.FunctionResponse.ID})
		case p.FunctionCall != nil:
			own.Calls = append(own.Calls, p.FunctionCall.ID)
		}
	}
	if own.Text != "" || own.Calls != nil || len(out) == 0 {
		out = append(out, own)
	}
	return out
}
