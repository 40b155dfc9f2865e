package chat

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
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
	if s, ok := jsonx.PlainString(c); ok {
		return s, true
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

// MessageTexts are a message's texts in the order the model reads them, each content block (a
// Gemini part) that carries text its own piece: the text of a chat completions or Anthropic
// message's `content`, of a Responses input item's `content` (or the `input` given as one
// string), of a Gemini content's `parts`. ContentText joins these; a rule about where a text
// stands (a note after the person's words) reads them apart, so that a note in block 0 is not
// taken to follow words in block 1. Blocks without text add nothing, as in ContentText.
func MessageTexts(raw []byte) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	c, ok := objectMember(raw, "content")
	if !ok {
		if c, ok = objectMember(raw, "parts"); !ok {
			return nil
		}
	}
	c = bytes.Trim(c, " \t\r\n")
	if len(c) > 0 && c[0] != '[' {
		t, _ := ContentText(c, "")
		if t == "" {
			return nil
		}
		return []string{t}
	}
	blocks, _ := Elements(c)
	var out []string
	for _, b := range blocks {
		if t, _ := ContentText(append(append([]byte("["), b...), ']'), ""); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// objectMember is the value of an object's member key, when raw is an object that has it.
func objectMember(raw []byte, key string) ([]byte, bool) {
	s, e, ok := Member(raw, key)
	if !ok {
		return nil, false
	}
	return raw[s:e], true
}
