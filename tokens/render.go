package tokens

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/LLeMbas/lembas-check/replay/chat"
)

// Text is what one part of a prompt reads as, before it is framed and tokenized. The rules (also
// in docs/bench.md):
//   - a system part: "system\n" and its text (a string, or the text of its content blocks);
//   - a tool: "tool\n" and the tool's JSON exactly as sent;
//   - a message: its role (a Responses item without one: its type), "\n", the text of its content
//     (a string, or each block's text, an image as "[image]", other blocks as JSON, one a line),
//     then each tool call as "\n<tool_call>\n<name> <arguments>\n</tool_call>";
//   - anything else: its JSON exactly as sent.
//
// Reasoning a message carries is left out, as most chat templates drop it from earlier turns.
func Text(p chat.Part) string {
	switch p.Kind {
	case chat.Tool:
		return "tool\n" + string(p.Raw)
	case chat.System:
		if p.Index < 0 { // a top-level instructions or system value
			return "system\n" + contentText(p.Raw)
		}
	}
	return messageText(p.Raw)
}

type message struct {
	Role       string          `json:"role"`
	Type       string          `json:"type"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []toolCall      `json:"tool_calls"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Output     json.RawMessage `json:"output"`
	FunctionID string          `json:"call_id"`
}

type toolCall struct {
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

func messageText(raw []byte) string {
	if len(raw) > 0 && raw[0] == '"' { // a Responses input given as one string
		return "user\n" + contentText(raw)
	}
	var m message
	if json.Unmarshal(raw, &m) != nil || m.Role == "" && m.Type == "" {
		return string(raw)
	}
	var b strings.Builder
	switch {
	case m.Role != "":
		b.WriteString(m.Role)
	default:
		b.WriteString(m.Type)
	}
	b.WriteByte('\n')
	switch m.Type {
	case "function_call": // Responses
		writeCall(&b, m.Name, m.Arguments)
		return b.String()
	case "function_call_output":
		b.WriteString(contentText(m.Output))
		return b.String()
	}
	b.WriteString(contentText(m.Content))
	for _, c := range m.ToolCalls {
		b.WriteByte('\n')
		writeCall(&b, c.Function.Name, c.Function.Arguments)
	}
	return b.String()
}

func writeCall(b *strings.Builder, name string, args json.RawMessage) {
	b.WriteString("<tool_call>\n")
	b.WriteString(name)
	b.WriteByte(' ')
	var s string
	if json.Unmarshal(args, &s) == nil {
		b.WriteString(s) // OpenAI sends arguments as a JSON string
	} else {
		b.Write(bytes.TrimSpace(args))
	}
	b.WriteString("\n</tool_call>")
}

type block struct {
	Type    string          `json:"type"`
	Text    *string         `json:"text"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
	Content json.RawMessage `json:"content"`
}

// contentText is the text of a content value: a string, or an array of blocks.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []json.RawMessage
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var parts []string
	for _, r := range blocks {
		var bl block
		if json.Unmarshal(r, &bl) != nil {
			parts = append(parts, string(r))
			continue
		}
		switch {
		case bl.Text != nil:
			parts = append(parts, *bl.Text)
		case bl.Type == "image_url" || bl.Type == "input_image" || bl.Type == "image":
			parts = append(parts, "[image]")
		case bl.Type == "tool_use": // Anthropic
			var b strings.Builder
			writeCall(&b, bl.Name, bl.Input)
			parts = append(parts, b.String())
		case bl.Type == "tool_result":
			parts = append(parts, contentText(bl.Content))
		default:
			parts = append(parts, string(r))
		}
	}
	return strings.Join(parts, "\n")
}
