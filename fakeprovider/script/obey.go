package script

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Obey makes a picked answer keep to what the request asks of it, as a model behind the API would,
// whether a script or the default policy gave it:
//
//   - tool_choice decides which calls it may make: none, only the named tool, only the allowed
//     tools; a call it may not make is dropped. When a call is required and none is left, it calls
//     the named tool, else the file-read tool, else the first it may call (arguments made from
//     the tool's schema, input from its grammar);
//   - parallel_tool_calls: false keeps its first call only;
//   - a call of an offered custom tool is a custom tool call;
//   - a JSON format (json_object, json_schema) gets a JSON text when the answer has none, or when
//     its text is the default policy's (made from the schema, so it validates);
//   - the text ends before the first stop sequence (finish reason stop);
//   - the completion is cut at the token bound (reasoning, text, then calls), finish reason
//     length;
//   - n choices are n copies of it.
//
// When the answer came from the default policy (pick.Source "default"), its text is a
// placeholder. Notes say what was changed, for the recording.
func (p *Picker) Obey(q *wire.Request, pick Pick, count func(string) int) (wire.Answer, []string) {
	a, n, policy := pick.Answer, pick.N, pick.Source == "default"
	read, answer := "README.md", "done"
	if d := p.s.Default; d != nil {
		read, answer = d.Read, d.Answer
	}
	params := q.Params
	var notes []string
	var calls []wire.ToolCall
	for _, c := range a.ToolCalls {
		if t, ok := q.Tool(c.Name); ok {
			c.Custom = c.Custom || t.Custom
			if c.Namespace == "" {
				c.Namespace = t.Namespace
			}
		}
		if !params.ToolChoice.May(c.Name) {
			notes = append(notes, fmt.Sprintf("left out the call of %s: tool_choice %s does not allow it", c.Name,
				choiceText(params.ToolChoice)))
			continue
		}
		calls = append(calls, c)
	}
	if params.Serial && len(calls) > 1 {
		notes = append(notes, fmt.Sprintf("left out %d calls after the first: parallel_tool_calls is false",
			len(calls)-1))
		calls = calls[:1]
	}
	dropped := len(a.ToolCalls) > 0 && len(calls) == 0
	if dropped && a.Text == "" && a.Reasoning == "" {
		a.Text = answer
	}
	if len(calls) == 0 && params.ToolChoice.Must() {
		if c, ok := requiredCall(q, n, p.s.Default, read); ok {
			calls = append(calls, c)
			notes = append(notes, fmt.Sprintf("called %s: tool_choice %s requires a call", c.Name,
				choiceText(params.ToolChoice)))
			if policy {
				a.Text = "" // the policy's answer was its placeholder for no call
			}
		}
	}
	a.ToolCalls = calls
	if a.FinishReason == "tool_calls" && len(calls) == 0 {
		a.FinishReason = ""
	}
	switch params.Format.Type {
	case wire.FormatJSONSchema:
		if len(calls) == 0 && (policy || a.Text == "") {
			a.Text = string(Instance(params.Format.Schema))
		}
	case wire.FormatJSONObject:
		if len(calls) == 0 && (policy || a.Text == "") {
			b, _ := jsonx.Marshal(map[string]string{"answer": answer})
			a.Text = string(b)
		}
	}
	if cut, seq, ok := stopAt(a.Text, params.Stop); ok {
		a.Text, a.FinishReason, a.StopSequence = cut, "stop", seq
	}
	if params.MaxTokens > 0 {
		a = limit(a, params.MaxTokens, count)
	}
	if params.N > 1 {
		a.Choices = params.N
	}
	return a, notes
}

func choiceText(c wire.ToolChoice) string {
	switch {
	case c.Name != "":
		return "naming " + c.Name
	case c.Allowed != nil:
		return fmt.Sprintf("allowing only %s", strings.Join(c.Allowed, ", "))
	}
	return c.Mode
}

// requiredCall is the call made when one is required and the answer had none: the file-read
// call the policy d (nil: none) would make, else a call of the first tool it may make.
func requiredCall(q *wire.Request, n int, d *Policy, read string) (wire.ToolCall, bool) {
	c := q.Params.ToolChoice
	var may []wire.Tool
	for _, t := range q.Tools {
		if c.May(t.Name) {
			may = append(may, t)
		}
	}
	if c.Name != "" && len(may) == 0 {
		// Named but not offered (a hosted tool, or a mistake strict mode refuses): call it bare.
		return wire.ToolCall{ID: callID(n, 0), Name: c.Name, Arguments: "{}"}, true
	}
	if len(may) == 0 {
		return wire.ToolCall{}, false
	}
	if d == nil {
		d = &Policy{}
	}
	if c, ok := d.call(may, d.path(read)); ok {
		c.ID = callID(n, 0)
		return c, true
	}
	t := may[0]
	if t.Custom {
		return wire.ToolCall{ID: callID(n, 0), Name: t.Name, Arguments: GrammarInput(t.Syntax, t.Grammar), Custom: true,
			Namespace: t.Namespace}, true
	}
	return wire.ToolCall{ID: callID(n, 0), Name: t.Name, Arguments: string(Instance(t.Schema)),
		Namespace: t.Namespace}, true
}

// stopAt cuts a text before the first of the stop sequences it holds, and says which it was.
func stopAt(text string, stops []string) (string, string, bool) {
	at, seq := -1, ""
	for _, s := range stops {
		if s == "" {
			continue
		}
		if i := strings.Index(text, s); i >= 0 && (at < 0 || i < at) {
			at, seq = i, s
		}
	}
	if at < 0 {
		return text, "", false
	}
	return text[:at], seq, true
}

// limit cuts the answer to max completion tokens, counted as the usage counts them: reasoning
// first, then the text, then each call's name and arguments. What is cut ends the answer with
// finish reason length.
func limit(a wire.Answer, max int, count func(string) int) wire.Answer {
	left := max
	cut := false
	take := func(s string) string {
		if cut {
			return ""
		}
		n := count(s)
		if n <= left {
			left -= n
			return s
		}
		cut = true
		s = strings.TrimRight(prefixWithin(s, left, count), " ")
		left = 0
		return s
	}
	a.Reasoning = take(a.Reasoning)
	a.Text = take(a.Text)
	var calls []wire.ToolCall
	for _, c := range a.ToolCalls {
		if cut {
			break
		}
		if count(c.Name) > left {
			cut = true
			break
		}
		left -= count(c.Name)
		c.Arguments = take(c.Arguments)
		calls = append(calls, c)
	}
	a.ToolCalls = calls
	if cut {
		a.FinishReason, a.StopSequence = "length", ""
	}
	return a
}

// prefixWithin is the longest prefix of s, cut at a character, that counts at most n tokens.
func prefixWithin(s string, n int, count func(string) int) string {
	if n <= 0 {
		return ""
	}
	lo, hi := 0, len(s) // count(s[:lo]) <= n < count(s[:hi])
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		for mid > lo && !utf8.RuneStart(s[mid]) {
			mid--
		}
		if mid == lo {
			mid = (lo + hi) / 2
			for mid < hi && !utf8.RuneStart(s[mid]) {
				mid++
			}
			if mid == hi {
				break
			}
		}
		if count(s[:mid]) <= n {
			lo = mid
		} else {
			hi = mid
		}
	}
	return s[:lo]
}

// Instance is a JSON value that validates against a JSON schema, as small as the schema allows:
// an object with its required properties (all of them when none are listed), the first of an
// enum, a const, minimal strings, numbers and arrays. A schema it cannot read gives {}.
func Instance(schema json.RawMessage) []byte {
	var s any
	if json.Unmarshal(schema, &s) != nil {
		return []byte("{}")
	}
	root, _ := s.(map[string]any)
	b, err := jsonx.Marshal(instance(s, root, 0))
	if err != nil {
		return []byte("{}")
	}
	return b
}

func instance(s any, root map[string]any, depth int) any {
	m, ok := s.(map[string]any)
	if !ok || depth > 32 {
		return map[string]any{}
	}
	if v, ok := fixedValue(m, root, depth); ok {
		return v
	}
	switch typ := schemaType(m); typ {
	case "string":
		return stringInstance(m)
	case "integer":
		return numberIn(m, true)
	case "number":
		return numberIn(m, false)
	case "boolean":
		return false
	case "null":
		return nil
	case "array":
		n := intOf(m["minItems"])
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			out = append(out, instance(m["items"], root, depth+1))
		}
		return out
	}
	return objectInstance(m, root, depth)
}

// fixedValue is the value a schema names or leads to without its type: a $ref's, a const, the
// first of an enum, a default, the first alternative, or all of allOf merged.
func fixedValue(m, root map[string]any, depth int) (any, bool) {
	if ref, ok := m["$ref"].(string); ok {
		if t := resolveRef(root, ref); t != nil {
			return instance(t, root, depth+1), true
		}
	}
	if v, ok := m["const"]; ok {
		return v, true
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	if d, ok := m["default"]; ok {
		return d, true
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := m[k].([]any); ok && len(alts) > 0 {
			return instance(alts[0], root, depth+1), true
		}
	}
	if all, ok := m["allOf"].([]any); ok && len(all) > 0 {
		merged := map[string]any{}
		for _, a := range all {
			if am, ok := a.(map[string]any); ok {
				for k, v := range am {
					merged[k] = v
				}
			}
		}
		return instance(merged, root, depth+1), true
	}
	return nil, false
}

// schemaType is the schema's type: the first that is not null of a list, else what its
// properties or items imply.
func schemaType(m map[string]any) any {
	typ := m["type"]
	if list, ok := typ.([]any); ok && len(list) > 0 {
		typ = list[0]
		for _, t := range list {
			if t != "null" {
				typ = t
				break
			}
		}
	}
	if typ == nil {
		if _, ok := m["properties"]; ok {
			typ = "object"
		} else if _, ok := m["items"]; ok {
			typ = "array"
		}
	}
	return typ
}

// stringInstance is a string of the schema's format, else of its least length.
func stringInstance(m map[string]any) string {
	switch f, _ := m["format"].(string); f {
	case "date-time":
		return "2026-01-01T00:00:00Z"
	case "date":
		return "2026-01-01"
	case "email":
		return "fake@lembas-check.invalid"
	case "uri", "url":
		return "https://lembas-check.invalid/"
	case "uuid":
		return "00000000-0000-4000-8000-000000000000"
	}
	return strings.Repeat("x", max(intOf(m["minLength"]), 1))
}

// objectInstance is an object with the required properties (all of them, sorted, when none is
// said to be), each an instance of its schema.
func objectInstance(m, root map[string]any, depth int) wire.Object {
	props, _ := m["properties"].(map[string]any)
	obj := wire.Object{}
	required, hasRequired := m["required"].([]any)
	names := []string{}
	if hasRequired {
		for _, r := range required {
			if s, ok := r.(string); ok {
				names = append(names, s)
			}
		}
	} else {
		for k := range props {
			names = append(names, k)
		}
		sortStrings(names)
	}
	for _, k := range names {
		obj = append(obj, wire.Member{Key: k, Value: instance(props[k], root, depth+1)})
	}
	return obj
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func resolveRef(root map[string]any, ref string) any {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	var cur any = root
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

func intOf(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// numberIn is 0, or the bound nearest it that the schema sets.
func numberIn(m map[string]any, integer bool) any {
	v := 0.0
	if f, ok := m["minimum"].(float64); ok && f > v {
		v = f
	}
	if f, ok := m["exclusiveMinimum"].(float64); ok && f >= v {
		v = f + 1
	}
	if f, ok := m["maximum"].(float64); ok && f < v {
		v = f
	}
	if f, ok := m["exclusiveMaximum"].(float64); ok && f <= v {
		v = f - 1
	}
	if integer {
		return int64(v)
	}
	return v
}
