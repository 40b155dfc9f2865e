package chat

import (
	"encoding/json"
	"sort"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Edit replaces the bytes [Off, Off+Len) of a body with With (Len 0 inserts).
type Edit struct {
	Off, Len int
	With     []byte
}

// Replace is the edit that puts with in place of a part.
func Replace(p Part, with []byte) Edit { return Edit{Off: p.Off, Len: len(p.Raw), With: with} }

// Splice applies edits to a body, leaving every other byte as it was. Edits must not overlap.
func Splice(body []byte, edits []Edit) []byte {
	if len(edits) == 0 {
		return body
	}
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Off < es[j].Off })
	out := make([]byte, 0, len(body))
	at := 0
	for _, e := range es {
		out = append(out, body[at:e.Off]...)
		out = append(out, e.With...)
		at = e.Off + e.Len
	}
	return append(out, body[at:]...)
}

// Member finds a top-level member of an object: where its value starts and ends in raw.
func Member(raw []byte, key string) (start, end int, ok bool) {
	i := jsonx.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return 0, 0, false
	}
	skipObject(raw, i, 0, func(k []byte, s, e int) error {
		if !ok && keyIs(k, key) {
			start, end, ok = s, e, true
		}
		return nil
	})
	return start, end, ok
}

// End is where an object's closing brace is, for a member added at its end; -1 if raw is not an
// object.
func End(raw []byte) int {
	i := jsonx.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return -1
	}
	e, err := skipObject(raw, i, 0, nil)
	if err != nil {
		return -1
	}
	return e - 1
}

// Set gives an object's top-level member key the JSON value: in place when the object has it,
// else added at its end. Every other byte is kept. ok is false when raw is not an object.
func Set(raw []byte, key string, value []byte) (out []byte, ok bool) {
	if st, en, found := Member(raw, key); found {
		return Splice(raw, []Edit{{Off: st, Len: en - st, With: value}}), true
	}
	end := End(raw)
	if end < 0 {
		return raw, false
	}
	sep := ","
	if i := lastNonSpace(raw[:end]); i >= 0 && raw[i] == '{' {
		sep = ""
	}
	k, _ := json.Marshal(key)
	with := append(append([]byte(sep), k...), ':')
	return Splice(raw, []Edit{{Off: end, With: append(with, value...)}}), true
}

func lastNonSpace(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return -1
}
