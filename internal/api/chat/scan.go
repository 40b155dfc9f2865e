package chat

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// A hand-written scanner, not encoding/json: the audit reads every request of a session, so the
// whole session's bytes pass through here, and it needs only where each value starts and ends.
// It checks structure (brackets, strings, commas, colons), not every detail of a literal or a
// number; the reader has checked each line is JSON already.

// syntaxError is malformed JSON at an offset.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

func bad(off int, format string, args ...any) error {
	return &syntaxError{off, fmt.Sprintf(format, args...)}
}

// maxDepth bounds nesting, so a hostile body cannot exhaust the stack.
const maxDepth = 10000

// skipValue returns the end of the value starting at i (after leading whitespace is skipped by
// the caller).
func skipValue(b []byte, i, depth int) (int, error) { return skipValuePre(b, i, depth, nil) }

// skipValuePre is skipValue with pre reading the values of the objects and arrays in it.
func skipValuePre(b []byte, i, depth int, pre preFunc) (int, error) {
	if i >= len(b) {
		return 0, bad(i, "unexpected end of JSON")
	}
	if depth > maxDepth {
		return 0, bad(i, "nested more than %d deep", maxDepth)
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{':
		return skipList(b, i, depth, '}', nil, nil, pre)
	case c == '[':
		return skipList(b, i, depth, ']', nil, nil, pre)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		j := i + 1
		for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' ||
			b[j] == '-') {
			j++
		}
		return j, nil
	default:
		return 0, bad(i, "unexpected %q", c)
	}
}

func literal(b []byte, i int, lit string) (int, error) {
	if !bytes.HasPrefix(b[i:], []byte(lit)) {
		return 0, bad(i, "want %s", lit)
	}
	return i + len(lit), nil
}

// skipString returns the end of the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, bad(i, "unterminated string")
		}
		q := j + k
		// The quote ends the string unless an odd number of backslashes escapes it.
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
}

// member is called for each member of an object: its key's raw bytes (with quotes) and its
// value's span.
type memberFunc func(key []byte, start, end int) error

// elementFunc is called for each element of an array with its index and span.
type elementFunc func(n, start, end int) error

// preFunc reads the value at b[start], met at depth after a member's key (nil in an array) or
// as an array's element n, and returns where it ends: a walk that looks into some values as it
// meets them and skips the rest, so that no byte is scanned once per level.
type preFunc func(b, key []byte, n, start, depth int) (int, error)

// EachMember walks the object that starts at raw[i]: f gets each member's raw key (quoted) and
// where its value starts, and returns where the value ends, having looked into it or skipped it
// (SkipValue). It returns where the object ends.
func EachMember(raw []byte, i int, f func(key []byte, start int) (int, error)) (int, error) {
	return skipList(raw, i, 0, '}', nil, nil, func(_, key []byte, _, start, _ int) (int, error) {
		return f(key,
			start)
	})
}

// EachElement walks the array that starts at raw[i] as EachMember walks an object.
func EachElement(raw []byte, i int, f func(n, start int) (int, error)) (int, error) {
	return skipList(raw, i, 0, ']', nil, nil, func(_, _ []byte, n, start, _ int) (int, error) { return f(n, start) })
}

// SkipValue is where the JSON value that starts at raw[i] ends.
func SkipValue(raw []byte, i int) (int, error) { return skipValue(raw, i, 0) }

// KeyIs says whether a raw key (with its quotes) is name.
func KeyIs(raw []byte, name string) bool { return keyIs(raw, name) }

func skipObject(b []byte, i, depth int, f memberFunc) (int, error) {
	return skipList(b, i, depth, '}', f, nil, nil)
}

func skipArray(b []byte, i, depth int, f elementFunc) (int, error) {
	return skipList(b, i, depth, ']', nil, f, nil)
}

// skipList returns the end of the object (end '}') or the array (end ']') whose opening bracket
// is at b[i]: one grammar, values separated by commas, but for the key before each of an
// object's. Each member goes to member, each element to element, where not nil; pre, when not
// nil, reads each value instead of skipValue.
func skipList(b []byte, i, depth int, end byte, member memberFunc, element elementFunc, pre preFunc) (int, error) {
	i = jsonx.SkipSpace(b, i+1)
	if i < len(b) && b[i] == end {
		return i + 1, nil
	}
	for n := 0; ; n++ {
		var key []byte
		if end == '}' {
			if i >= len(b) || b[i] != '"' {
				return 0, bad(i, "want a key")
			}
			ke, err := skipString(b, i)
			if err != nil {
				return 0, err
			}
			key = b[i:ke]
			i = jsonx.SkipSpace(b, ke)
			if i >= len(b) || b[i] != ':' {
				return 0, bad(i, "want ':'")
			}
			i = jsonx.SkipSpace(b, i+1)
		}
		var ve int
		var err error
		if pre != nil {
			ve, err = pre(b, key, n, i, depth+1)
		} else {
			ve, err = skipValue(b, i, depth+1)
		}
		switch {
		case err != nil:
		case member != nil:
			err = member(key, i, ve)
		case element != nil:
			err = element(n, i, ve)
		}
		if err != nil {
			return 0, err
		}
		i = jsonx.SkipSpace(b, ve)
		if i >= len(b) {
			if end == '}' {
				return 0, bad(i, "unterminated object")
			}
			return 0, bad(i, "unterminated array")
		}
		switch b[i] {
		case ',':
			i = jsonx.SkipSpace(b, i+1)
		case end:
			return i + 1, nil
		default:
			return 0, bad(i, "want ',' or '%c'", end)
		}
	}
}

// KeyText is a raw key's text (its quotes included in raw) as encoding/json reads it: the bytes
// within its quotes, decoded only when they hold an escape; nil when they do not decode. A
// caller switches on string() of it, which the compiler does without a copy.
func KeyText(raw []byte) []byte {
	if len(raw) < 2 {
		return nil
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return []byte(s)
}

// keyIs says whether a raw key (with its quotes) is name; a key with escapes is decoded first.
func keyIs(raw []byte, name string) bool { return string(KeyText(raw)) == name }

// StringValue decodes a JSON string's raw bytes (quotes and all); false when they are no string.
func StringValue(raw []byte) (string, bool) { return stringValue(raw) }

// stringValue decodes a raw JSON string; ok is false for any other value.
func stringValue(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Members lists an object's members in the order written: each key decoded and its value's raw
// bytes. It is for the parts a caller looks into (a message, a tool), not for whole bodies.
func Members(raw []byte) (keys []string, values [][]byte, err error) {
	keys, spans, err := MemberSpans(raw)
	if err != nil {
		return nil, nil, err
	}
	values = make([][]byte, len(spans))
	for i, sp := range spans {
		values[i] = raw[sp.Start:sp.End]
	}
	return keys, values, nil
}

// Elements lists an array's elements' raw bytes.
func Elements(raw []byte) ([][]byte, error) {
	i := jsonx.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, bad(i, "not an array")
	}
	var out [][]byte
	end, err := skipArray(raw, i, 0, func(_, s, e int) error {
		out = append(out, raw[s:e])
		return nil
	})
	if err != nil {
		return nil, err
	}
	if jsonx.SkipSpace(raw, end) != len(raw) {
		return nil, bad(end, "more after the array")
	}
	return out, nil
}

// Span is where a value lies in the text it was found in: text[Start:End].
type Span struct{ Start, End int }

// MemberSpans lists an object's keys, decoded, and where each value lies: for a caller that
// rewrites values in place (replay's blob store) without copying the body.
func MemberSpans(raw []byte) (keys []string, spans []Span, err error) {
	i := jsonx.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, nil, bad(i, "not an object")
	}
	end, err := skipObject(raw, i, 0, func(key []byte, s, e int) error {
		k, ok := stringValue(key)
		if !ok {
			return bad(s, "bad key")
		}
		keys = append(keys, k)
		spans = append(spans, Span{s, e})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if jsonx.SkipSpace(raw, end) != len(raw) {
		return nil, nil, bad(end, "more after the object")
	}
	return keys, spans, nil
}

// ElementSpans lists where an array's elements lie.
func ElementSpans(raw []byte) ([]Span, error) {
	i := jsonx.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, bad(i, "not an array")
	}
	var out []Span
	end, err := skipArray(raw, i, 0, func(_, s, e int) error {
		out = append(out, Span{s, e})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if jsonx.SkipSpace(raw, end) != len(raw) {
		return nil, bad(end, "more after the array")
	}
	return out, nil
}

// StringMember is the value of an object's member `name` when it is a string.
func StringMember(raw []byte, name string) (string, bool) {
	i := jsonx.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return "", false
	}
	var out string
	var found bool
	_, err := skipObject(raw, i, 0, func(key []byte, s, e int) error {
		if !found && keyIs(key, name) {
			out, found = stringValue(raw[s:e])
		}
		return nil
	})
	return out, found && err == nil
}
