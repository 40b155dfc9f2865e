package tokens

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
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
	raw := p.Content()
	switch p.Kind {
	case chat.Tool:
		return "tool\n" + string(raw)
	case chat.System:
		if p.Index < 0 { // a top-level instructions, system or systemInstruction value
			return "system\n" + contentText(raw)
		}
		if p.Field == "system" { // one of Anthropic's system blocks
			return "system\n" + contentText(wrap(raw))
		}
	}
	return messageText(raw)
}

// BlockText is what block i of a part reads as (Anthropic's content blocks, each a piece of its
// own for the prompt cache's block boundaries): a tool's block is the tool, a system block its
// text, a message's blocks their text, the first after the message's role.
func BlockText(p chat.Part, i int) string {
	c := p.BlockContent(i)
	switch p.Kind {
	case chat.Tool:
		return "tool\n" + string(c)
	case chat.System:
		return "system\n" + contentText(wrap(c))
	}
	t := contentText(wrap(c))
	if i == 0 {
		return p.Role + "\n" + t
	}
	return t
}

// wrap makes one block (an object) an array of blocks, as contentText reads them; a string stays.
func wrap(c []byte) []byte {
	if len(c) > 0 && c[0] == '{' {
		return append(append([]byte{'['}, c...), ']')
	}
	return c
}

type message struct {
	Role       string          `json:"role"`
	Type       string          `json:"type"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []toolCall      `json:"tool_calls"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Input      json.RawMessage `json:"input"` // a Responses custom tool call's text
	Output     json.RawMessage `json:"output"`
	FunctionID string          `json:"call_id"`
	// Gemini's contents carry parts, not content.
	Parts json.RawMessage `json:"parts"`
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
	case "custom_tool_call": // Responses' free-form tools (codex's apply_patch): its input is text
		writeCall(&b, m.Name, m.Input)
		return b.String()
	case "function_call_output", "custom_tool_call_output":
		b.WriteString(contentText(m.Output))
		return b.String()
	}
	if len(m.Parts) > 0 {
		b.WriteString(geminiParts(m.Parts))
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

// geminiParts is the text of Gemini's parts: each text, each function call as a tool call, each
// function response as its JSON, one a line.
func geminiParts(raw json.RawMessage) string {
	var parts []struct {
		Text         *string `json:"text"`
		FunctionCall *struct {
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"functionCall"`
		FunctionResponse json.RawMessage `json:"functionResponse"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return string(raw)
	}
	var out []string
	for _, p := range parts {
		switch {
		case p.Text != nil:
			out = append(out, *p.Text)
		case p.FunctionCall != nil:
			var b strings.Builder
			writeCall(&b, p.FunctionCall.Name, p.FunctionCall.Args)
			out = append(out, b.String())
		case p.FunctionResponse != nil:
			out = append(out, string(p.FunctionResponse))
		}
	}
	return strings.Join(out, "\n")
}

// contentText is the text of a content value: a string, an array of blocks, or Gemini's
// {"parts": […]} (a systemInstruction). Not chat.ContentText, which reads only the text a person
// wrote: this renders every block the model is shown (images, calls, results, JSON), as counted.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '{' {
		var g struct {
			Parts json.RawMessage `json:"parts"`
		}
		if json.Unmarshal(raw, &g) == nil && len(g.Parts) > 0 {
			return geminiParts(g.Parts)
		}
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
