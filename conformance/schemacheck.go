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
	if raw == nil || knownToFit(area, raw) {
		return ""
	}
	s, ok := answerSchemas()[area]
	if !ok {
		return ""
	}
	if msg := CheckSchema(s, raw, "answer"); msg != "" {
		return msg + " (the " + area + " answer's schema: lembas-check schema " + area + ")"
	}
	return ""
}

// knownToFit says raw is an embedded case's known answer (the builtin's, the same JSON as the
// expectation) in this area: TestEmbeddedAnswersFitTheirSchemas checks each fits its area's
// schema, so CheckAnswer need not decode them again at every run.
func knownToFit(area string, raw []byte) bool {
	for _, i := range embeddedAnswersOfLength()[len(raw)] {
		if e := &embeddedCases[i]; e.area == area && e.answer == string(raw) {
			return true
		}
	}
	return false
}

// embeddedAnswersOfLength is the places of the table's known answers by their length: a few
// bytes compared per answer looked up, where a map of the answers hashed all 170 KB of them.
var embeddedAnswersOfLength = sync.OnceValue(func() map[int][]int {
	m := make(map[int][]int, len(embeddedCases))
	for i, e := range embeddedCases {
		if e.answer != "" {
			m[len(e.answer)] = append(m[len(e.answer)], i)
		}
	}
	return m
})
