package chat

import "sort"

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
