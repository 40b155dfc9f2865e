package chat

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// InputItems is a Responses request's input as items: a string (null read as "", as both the
// fake and the reader always did) is one user message, {"content": s, "role": "user", "type":
// "message"}, its text as sent (no HTML escaping); an array is its items. ok is false for
// anything else. The fake answers, and a recording's reader puts continuations back, with these
// items.
func InputItems(raw []byte) (items []json.RawMessage, ok bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []json.RawMessage{[]byte(`{"content":` + string(jsonx.String(s)) + `,"role":"user","type":"message"}`)},
			true
	}
	if json.Unmarshal(raw, &items) != nil {
		return nil, false
	}
	return items, true
}

// Continuation is a Responses request body as the model sees it when it continues earlier turns:
// its members in name order, each compacted, but those that named where the earlier turns came
// from (previous_response_id, conversation) and a WebSocket message's type, then its input: the
// items given (the earlier turns, then its own). The fake's simulator reads it, and a recording's
// reader gives it to the audit (Entry.Prompt).
func Continuation(top map[string]json.RawMessage, items []json.RawMessage) []byte {
	keys := make([]string, 0, len(top))
	for k := range top {
		if k != "previous_response_id" && k != "conversation" && k != "input" && k != "type" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for _, k := range keys {
		b.Write(jsonx.String(k))
		b.WriteByte(':')
		compactTo(&b, top[k])
		b.WriteByte(',')
	}
	b.WriteString(`"input":[`)
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		compactTo(&b, it)
	}
	b.WriteString("]}")
	return b.Bytes()
}

// compactTo writes a JSON value without its white space (as it is, when it is not valid JSON).
func compactTo(b *bytes.Buffer, raw []byte) {
	raw = bytes.TrimSpace(raw)
	n := b.Len()
	if json.Compact(b, raw) != nil {
		b.Truncate(n)
		b.Write(raw)
	}
}
