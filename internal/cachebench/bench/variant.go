package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// clockLine is the date as the spec's session note says it (loop.json context.note.date), which
// is what a harness of 3.0 put at the head of its system prompt instead.
func clockLine(date string) string {
	return spec.MustRender(spec.LoopJSON().Context.Note.Date, map[string]string{"date": date})
}

// Names of the variants.
const (
	DateInSystem = "date-in-system"
	PruneResults = "prune-results"
	ToolChurn    = "tool-churn"
)

// VariantNames lists them.
var VariantNames = []string{DateInSystem, PruneResults, ToolChurn}

// Variant is one rewrite of a recorded session, the way a harness breaking one of the 3.1 prefix
// rules would have sent it, so the bench can show, side by side with the recording as it was,
// what the rule saves:
//
//   - date-in-system: the date at the head of the system prompt, changing at a chosen request
//     (the 3.0 behaviour context.md §10 rule 2 forbids);
//   - prune-results: tool results of earlier turns shortened in place (compaction.prune of 1.x,
//     which rule 5 forbids);
//   - tool-churn: a tool added to the list at a chosen request (rule 4).
//
// A rewrite changes only the bytes it must; everything else of the body is kept as recorded.
//
// At is the prompt request (from 1) where the change happens — the date
// changes, the tool appears; 0 means the middle of the session, set with Resolve.
type Variant struct {
	Name string
	At   int
}

// ParseVariant reads NAME or NAME:AT (date-in-system:12).
func ParseVariant(s string) (Variant, error) {
	name, at, hasAt := strings.Cut(s, ":")
	v := Variant{Name: name}
	found := false
	for _, n := range VariantNames {
		found = found || n == name
	}
	if !found {
		return v, fmt.Errorf("no variant %q: want one of %s (NAME or NAME:REQUEST)", s, strings.Join(VariantNames,
			", "))
	}
	if hasAt {
		n, err := strconv.Atoi(at)
		if err != nil || n < 1 {
			return v, fmt.Errorf("variant %q: %q is not a request number (from 1)", s, at)
		}
		v.At = n
	}
	return v, nil
}

// Resolve sets At to the middle of a session of n prompt requests when it was left to it.
func (v Variant) Resolve(n int) Variant {
	if v.At == 0 {
		v.At = max(1, (n+1)/2)
	}
	return v
}

// String is NAME:AT.
func (v Variant) String() string {
	if v.At > 0 && v.Name != PruneResults {
		return fmt.Sprintf("%s:%d", v.Name, v.At)
	}
	return v.Name
}

// Dates the date-in-system variant writes: before At, and from At on (midnight passed).
const (
	DateBefore = "2026-11-05"
	DateAfter  = "2026-11-06"
)

// Pruned is what prune-results leaves of an old tool result.
const Pruned = "[Old tool result content cleared]"

// ChurnTool is the tool tool-churn adds.
const ChurnTool = "mcp__churn__lookup"

// Rewrite rewrites the n-th prompt request (from 1) of the session.
func (v Variant) Rewrite(n int, body []byte) ([]byte, error) {
	r, err := chat.Parse(body)
	if err != nil {
		return nil, err
	}
	switch v.Name {
	case DateInSystem:
		date := DateBefore
		if n >= v.At {
			date = DateAfter
		}
		return dateInSystem(body, r, clockLine(date)+"\n\n")
	case PruneResults:
		return pruneResults(body, r), nil
	case ToolChurn:
		if n < v.At {
			return body, nil
		}
		return addTool(body, r)
	}
	return nil, fmt.Errorf("no variant %q", v.Name)
}

// prefixText puts head before a JSON text value: a string, or the first text block of a list.
func prefixText(v []byte, head string) ([]byte, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return jsonx.String(head + s), true
	}
	els, err := chat.Elements(v)
	if err != nil {
		return nil, false
	}
	for _, el := range els {
		if st, en, ok := chat.Member(el, "text"); ok {
			var t string
			if json.Unmarshal(el[st:en], &t) == nil {
				off := bytes.Index(v, el) // where el starts in v (the first equal element is as good)
				return chat.Splice(v, []chat.Edit{{Off: off + st, Len: en - st, With: jsonx.String(head + t)}}), true
			}
		}
	}
	return nil, false
}

// dateInSystem puts head at the start of the system prompt, or makes a system prompt of it.
func dateInSystem(body []byte, r *chat.Request, head string) ([]byte, error) {
	if len(r.System) > 0 {
		p := r.System[0]
		if p.Index < 0 { // instructions or Anthropic's system
			if with, ok := prefixText(p.Raw, head); ok {
				return chat.Splice(body, []chat.Edit{chat.Replace(p, with)}), nil
			}
		} else {
			// a message's content, or the text of one of Anthropic's system blocks
			for _, key := range []string{"content", "text"} {
				if st, en, ok := chat.Member(p.Raw, key); ok {
					if with, ok := prefixText(p.Raw[st:en], head); ok {
						return chat.Splice(body, []chat.Edit{{Off: p.Off + st, Len: en - st, With: with}}), nil
					}
				}
			}
		}
		return nil, fmt.Errorf("the system prompt at %s has no text to put a date before", p.Path())
	}
	msg := append(append([]byte(`{"role":"system","content":`), jsonx.String(strings.TrimRight(head, "\n"))...), '}')
	switch {
	case r.API == chat.Responses:
		return set(body, "instructions", jsonx.String(strings.TrimRight(head, "\n")))
	case r.API == chat.Anthropic:
		return nil, fmt.Errorf("an Anthropic body with a null system prompt")
	case len(r.Messages) > 0:
		first := r.Messages[0]
		return chat.Splice(body, []chat.Edit{{Off: first.Off, With: append(msg, ',')}}), nil
	}
	st, _, _ := chat.Member(body, "messages")
	return chat.Splice(body, []chat.Edit{{Off: st + 1, With: msg}}), nil
}

// pruneResults shortens in place every tool result that a later user message follows: the
// results of earlier turns.
func pruneResults(body []byte, r *chat.Request) []byte {
	var edits []chat.Edit
	laterUser := false
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		switch {
		case m.Role == "user" && !chat.IsToolResult(m.Raw):
			laterUser = true
		case laterUser && m.Role != "user" && chat.IsToolResult(m.Raw): // Anthropic's results are not pruned
			key := "content"
			if m.Role != "tool" {
				key = "output"
			}
			if st, en, ok := chat.Member(m.Raw, key); ok && !bytes.Equal(m.Raw[st:en], jsonx.String(Pruned)) {
				edits = append(edits, chat.Edit{Off: m.Off + st, Len: en - st, With: jsonx.String(Pruned)})
			}
		}
	}
	return chat.Splice(body, edits)
}

// addTool appends the churn tool to the tool list, or gives the request one.
func addTool(body []byte, r *chat.Request) ([]byte, error) {
	tool := []byte(
		`{"type":"function","function":{"name":"` + ChurnTool + `",` +
			`"description":"A tool an MCP server added in the middle of the session.",` +
			`"parameters":{"type":"object","properties":{}}}}`,
	)
	if r.API != chat.ChatCompletions {
		tool = []byte(
			`{"type":"function","name":"` + ChurnTool + `",` +
				`"description":"A tool an MCP server added in the middle of the session.",` +
				`"parameters":{"type":"object","properties":{}}}`,
		)
	}
	if n := len(r.Tools); n > 0 {
		last := r.Tools[n-1]
		return chat.Splice(body, []chat.Edit{{Off: last.Off + len(last.Raw), With: append([]byte(","), tool...)}}), nil
	}
	return set(body, "tools", append(append([]byte("["), tool...), ']'))
}

// set gives the body's member key the value, in place or added at its end (chat.Set).
func set(body []byte, key string, value []byte) ([]byte, error) {
	out, ok := chat.Set(body, key, value)
	if !ok {
		return nil, fmt.Errorf("the body is not a JSON object")
	}
	return out, nil
}
