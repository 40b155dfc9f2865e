package chat

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ContentText is the text of a message's content in any of the four shapes: a string is its
// text; an array of content blocks (chat completions' and Responses' parts, Anthropic's blocks,
// Gemini's parts) is the text of each block that carries a non-empty `text`, joined by sep, a
// Gemini thought (`"thought": true`) left out, as reasoning is; null or nothing is "". Blocks
// without text (an image, a tool call or result) add nothing.
//
// ok is false for anything else — an object, a number, a block that is not an object or whose
// text is not a string — so a validator can refuse it; text is then what could still be read.
//
// The separator is the caller's: an answer's pieces are one text (nothing between them, so a
// streamed answer and a whole one read the same); a request's parts are the caller's to join.
// What the model is shown of a message, every block rendered for counting, is tokens.Text's.
func ContentText(content []byte, sep string) (text string, ok bool) {
	c := bytes.Trim(content, " \t\r\n") // JSON's white space
	if len(c) == 0 || isNull(c) {
		return "", true
	}
	var s string
	if json.Unmarshal(c, &s) == nil {
		return s, true
	}
	var blocks []struct {
		Text *string `json:"text"`
		// Raw, not bool: a block of another shape may say anything here.
		Thought json.RawMessage `json:"thought"`
	}
	// On a type error json fills what it can: the texts that were strings still count.
	err := json.Unmarshal(c, &blocks)
	var out []string
	for _, b := range blocks {
		if b.Text != nil && *b.Text != "" && string(bytes.TrimSpace(b.Thought)) != "true" {
			out = append(out, *b.Text)
		}
	}
	return strings.Join(out, sep), err == nil
}

// IsToolResult says whether a message (or a Responses input item) is a tool's result: a chat
// completions `tool` message, a Responses function_call_output or custom_tool_call_output item,
// an Anthropic user message with a tool_result block. The audit names a result shortened in
// place by it, and the bench's prune-results variant prunes the results it finds by it.
func IsToolResult(raw []byte) bool {
	role, _ := StringMember(raw, "role")
	switch t, _ := StringMember(raw, "type"); {
	case role == "tool", t == "function_call_output", t == "custom_tool_call_output":
		return true
	case role != "user":
		return false
	}
	s, e, ok := Member(raw, "content")
	if !ok {
		return false
	}
	blocks, _ := Elements(raw[s:e])
	for _, b := range blocks {
		if t, _ := StringMember(b, "type"); t == "tool_result" {
			return true
		}
	}
	return false
}
