package steps

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/textdiff"
)

// path names a part of an answer: list indexes (int), object keys (string), and views of a value
// — a text's first line, its line n or its number of lines, a list's length.
type path []any

type view string

const (
	firstLine view = "first line"
	lastLine  view = "last line"
	lineCount view = "line count"
	length    view = "length"
)

func (p path) String() string {
	var b strings.Builder
	b.WriteString("answer")
	for _, s := range p {
		switch s := s.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		case string:
			fmt.Fprintf(&b, ".%s", s)
		case view:
			fmt.Fprintf(&b, " (%s)", s)
		}
	}
	return b.String()
}

// Key is the object key the path ends at (through views of it), "" when it ends at a list's item
// or the whole answer.
func (p path) Key() string {
	for i := len(p) - 1; i >= 0; i-- {
		switch s := p[i].(type) {
		case string:
			return s
		case view:
			continue
		}
		return ""
	}
	return ""
}

// MarshalJSON writes a path as its string.
func (p path) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }

// get walks an answer (decoded JSON) along the path. It says what is missing when the answer has
// no such part.
func (p path) get(v any) (any, error) {
	for i, s := range p {
		here := path(p[:i]).String()
		switch s := s.(type) {
		case int:
			l, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s is %s, not a list", here, kindOf(v))
			}
			if s < 0 || s >= len(l) {
				return nil, fmt.Errorf("%s has %d items, no [%d]", here, len(l), s)
			}
			v = l[s]
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s is %s, not an object", here, kindOf(v))
			}
			x, ok := m[s]
			if !ok {
				return nil, fmt.Errorf("%s has no field %q", here, s)
			}
			v = x
		case view:
			x, err := s.of(v, here)
			if err != nil {
				return nil, err
			}
			v = x
		}
	}
	return v, nil
}

// of is the view of a value; here names the value in messages.
func (s view) of(v any, here string) (any, error) {
	if s == length {
		l, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%s is %s, not a list", here, kindOf(v))
		}
		return float64(len(l)), nil
	}
	str, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("%s is %s, not a text", here, kindOf(v))
	}
	lines := strings.Split(str, "\n")
	switch s {
	case firstLine:
		return lines[0], nil
	case lastLine:
		return lines[len(lines)-1], nil
	case lineCount:
		return float64(len(lines)), nil
	}
	var n int
	if _, err := fmt.Sscanf(string(s), "line %d", &n); err != nil || n < 1 {
		return nil, fmt.Errorf("no view %q", s)
	}
	if n > len(lines) {
		return nil, fmt.Errorf("%s has %d lines, no line %d:\n%s", here, len(lines), n, str)
	}
	return lines[n-1], nil
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Check is one Then: the part of the answer it looks at and what the spec says it is.
type Check struct {
	Step string `json:"then"`
	Line int    `json:"line"`
	Part path   `json:"part"`
	Want any    `json:"want"`
}

// Verify compares the check's part of an answer with what it wants: "" when they agree, else what
// differs, in textdiff.Values' (-want +got) form.
func (c Check) Verify(answer any) string {
	got, err := c.Part.get(answer)
	if err != nil {
		return err.Error()
	}
	if eq, ok := samePlain(c.Want, got); ok && eq {
		return ""
	}
	if d := textdiff.Values(c.Want, got); d != "" {
		return fmt.Sprintf("%s differs (-want +got):\n%s", c.Part, d)
	}
	return ""
}

// samePlain says whether two decoded JSON values (nil, bool, float64, string, []any,
// map[string]any) are equal as reflect.DeepEqual says, without its reflection: every Then of every
// scenario is compared, and most hold. ok is false for a value of any other type, which textdiff.Values
// then compares.
func samePlain(a, b any) (eq, ok bool) {
	switch x := a.(type) {
	case nil:
		return b == nil, true
	case bool, float64, string:
		switch b.(type) {
		case nil, bool, float64, string, []any, map[string]any:
			return a == b, true
		}
	case []any:
		y, isList := b.([]any)
		if !isList {
			return false, isPlain(b)
		}
		if (x == nil) != (y == nil) || len(x) != len(y) {
			return false, true
		}
		for i := range x {
			if eq, ok := samePlain(x[i], y[i]); !ok || !eq {
				return eq, ok
			}
		}
		return true, true
	case map[string]any:
		y, isMap := b.(map[string]any)
		if !isMap {
			return false, isPlain(b)
		}
		if (x == nil) != (y == nil) || len(x) != len(y) {
			return false, true
		}
		for k, v := range x {
			w, has := y[k]
			if !has {
				return false, true
			}
			if eq, ok := samePlain(v, w); !ok || !eq {
				return eq, ok
			}
		}
		return true, true
	}
	return false, false
}

func isPlain(v any) bool {
	switch v.(type) {
	case nil, bool, float64, string, []any, map[string]any:
		return true
	}
	return false
}

// normalize turns a Go value into the form a decoded answer has (numbers float64, lists []any,
// objects map[string]any), so a check compares like with like.
func normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}
