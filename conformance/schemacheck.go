package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
)

// CheckSchema checks a JSON value against a schema Schema made (the subset it uses: type,
// properties, required, additionalProperties, items) and returns the first fault, named by its
// path from root: `answer.notes[0].text: want string, got null`. "" when the value fits.
func CheckSchema(schema map[string]any, raw json.RawMessage, root string) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return root + ": not JSON: " + err.Error()
	}
	return check(schema, v, root)
}

func check(s map[string]any, v any, path string) string {
	if t, ok := s["type"]; ok && !typeFits(t, v) {
		return fmt.Sprintf("%s: want %s, got %s", path, typeWords(t), jsonType(v))
	}
	switch v := v.(type) {
	case map[string]any:
		return checkObject(s, v, path)
	case []any:
		items, _ := s["items"].(map[string]any)
		for i, x := range v {
			if items == nil {
				break
			}
			if msg := check(items, x, path+"["+strconv.Itoa(i)+"]"); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func checkObject(s map[string]any, v map[string]any, path string) string {
	props, _ := s["properties"].(map[string]any)
	req, _ := s["required"].([]string)
	for _, k := range req {
		if _, ok := v[k]; !ok {
			return fmt.Sprintf("%s.%s: missing (want %s)", path, k, typeWords(props[k].(map[string]any)["type"]))
		}
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sub, ok := props[k].(map[string]any)
		if !ok {
			switch extra := s["additionalProperties"].(type) {
			case bool:
				if !extra {
					return fmt.Sprintf("%s.%s: unknown field", path, k)
				}
				continue
			case map[string]any:
				sub = extra
			default:
				continue
			}
		}
		if msg := check(sub, v[k], path+"."+k); msg != "" {
			return msg
		}
	}
	return ""
}

func typeFits(t any, v any) bool {
	switch t := t.(type) {
	case string:
		return fits(t, v)
	case []string:
		for _, x := range t {
			if fits(x, v) {
				return true
			}
		}
		return false
	}
	return true
}

func fits(t string, v any) bool {
	got := jsonType(v)
	if t == "number" && got == "integer" {
		return true
	}
	return t == got
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

func typeWords(t any) string {
	switch t := t.(type) {
	case string:
		return t
	case []string:
		s := ""
		for i, x := range t {
			if i > 0 {
				s += " or "
			}
			s += x
		}
		return s
	}
	return "any value"
}

// answerSchemas is each area's answer schema, made once.
var answerSchemas = sync.OnceValue(func() map[string]map[string]any {
	m := map[string]map[string]any{}
	for _, a := range All() {
		m[a.Name] = a.AnswerSchema()
	}
	return m
})

// CheckAnswer checks an answer against its area's answer schema: "" when it fits (or the area is
// not known), else the fault with its path and where the schema is.
func CheckAnswer(area string, raw json.RawMessage) string {
	s, ok := answerSchemas()[area]
	if !ok || raw == nil || embeddedFits()[areaAnswer{area, string(raw)}] {
		return ""
	}
	if msg := CheckSchema(s, raw, "answer"); msg != "" {
		return msg + " (the " + area + " answer's schema: lembas-check schema " + area + ")"
	}
	return ""
}

type areaAnswer struct{ area, answer string }

// embeddedFits is the embedded cases' known answers (the builtin's, the same JSON as the
// expectation), each with its area: TestEmbeddedAnswersFitTheirSchemas checks each fits its
// area's schema, so CheckAnswer need not decode them again at every run.
var embeddedFits = sync.OnceValue(func() map[areaAnswer]bool {
	m := make(map[areaAnswer]bool, len(embeddedCases))
	for _, e := range embeddedCases {
		if e.answer != "" {
			m[areaAnswer{e.area, e.answer}] = true
		}
	}
	return m
})
