package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// blobKey is the one key of the object that stands for a blob in a stored body.
const blobKey = "$blob"

// SplitBody cuts a request body into the stored body and its blobs: the `tools` array, every
// message whose role is system or developer, and a top-level `instructions`, `system` or
// `systemInstruction` (the Responses, Anthropic and Gemini shapes) become blobs, replaced in
// place by {"$blob": "<sha256>"}. The rest of the body keeps its bytes. When the stored form cannot give back the exact
// bytes (the
// body is not compact JSON, or not JSON), the Request keeps them in BodyRaw too.
func SplitBody(raw []byte) (Request, []Blob) {
	req := Request{BodySHA256: sum(raw), BodyBytes: len(raw)}
	body, blobs, err := split(raw)
	if err != nil {
		req.BodyRaw = rawString(raw)
		return req, nil
	}
	req.Body = body
	if back, err := JoinBody(body, blobMap(blobs)); err != nil || !bytes.Equal(back, raw) {
		req.BodyRaw = rawString(raw)
	}
	return req, blobs
}

func rawString(b []byte) *string {
	s := string(b)
	if !utf8.Valid(b) {
		s = "base64:" + base64.StdEncoding.EncodeToString(b)
	}
	return &s
}

func blobMap(bs []Blob) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	for _, b := range bs {
		m[b.SHA256] = b.Data
	}
	return m
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// replacement is a span of the body and what takes its place.
type replacement struct {
	chat.Span
	with []byte
}

// visit finds the values of a body that are blobs: f gets each with its kind and returns what
// replaces it (nil: keep). Reading a recording puts blobs back into every body of a session, so
// this scans with internal/api/chat's scanner and looks into a message only when it must: when
// splitting (stored is false), for its role; when joining, only a short {"$blob": …} can be one.
func visit(raw []byte, stored bool, f func(kind string, v []byte) []byte) ([]byte, error) {
	keys, spans, err := chat.MemberSpans(raw)
	if err != nil {
		return nil, err
	}
	var reps []replacement
	for i, k := range keys {
		sp := spans[i]
		v := raw[sp.Start:sp.End]
		switch k {
		case "tools":
			if len(v) > 0 && v[0] == '[' || isBlobRef(v) {
				if w := f("tools", v); w != nil {
					reps = append(reps, replacement{sp, w})
				}
			}
		case "instructions", "system", "systemInstruction":
			if w := f("system", v); w != nil {
				reps = append(reps, replacement{sp, w})
			}
		case "messages", "input":
			els, err := chat.ElementSpans(v)
			if err != nil {
				continue // a string input (Responses API): nothing to store apart
			}
			for _, e := range els {
				m := v[e.Start:e.End]
				if isBlobRef(m) || !stored && isSystemMessage(m) {
					if w := f("system", m); w != nil {
						reps = append(reps, replacement{chat.Span{Start: sp.Start + e.Start, End: sp.Start + e.End}, w})
					}
				}
			}
		}
	}
	return join(raw, reps), nil
}

// join is raw with each replacement's span replaced by its bytes, in a new slice.
func join(raw []byte, reps []replacement) []byte {
	if len(reps) == 0 {
		return bytes.Clone(raw)
	}
	// The joined body is sized exactly: grown by doubling from the stored one (blob references
	// in place of messages), copying and clearing were a tenth of a long audit's CPU.
	size := len(raw)
	for _, r := range reps {
		size += len(r.with) - (r.End - r.Start)
	}
	b := make([]byte, 0, size)
	at := 0
	for _, r := range reps {
		b = append(append(b, raw[at:r.Start]...), r.with...)
		at = r.End
	}
	return append(b, raw[at:]...)
}

func isSystemMessage(m []byte) bool {
	role, _ := chat.StringMember(m, "role")
	return role == "system" || role == "developer"
}

func isBlobRef(v []byte) bool {
	_, ok := blobRef(v)
	return ok
}

// blobRefMax is longer than any {"$blob": "<64 hex>"}, spaced as it may be.
const blobRefMax = 128

func blobRef(v []byte) (string, bool) {
	if len(v) == 0 || v[0] != '{' || len(v) > blobRefMax || !bytes.Contains(v, []byte(blobKey)) {
		return "", false
	}
	// As the writer writes one: read without encoding/json (a map per reference).
	const head, tail = `{"` + blobKey + `":"`, `"}`
	if len(v) == len(head)+64+len(tail) && string(v[:len(head)]) == head && string(v[len(v)-len(tail):]) == tail {
		if h := v[len(head) : len(v)-len(tail)]; !bytes.ContainsAny(h, `"\\`) {
			return string(h), true
		}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil || len(m) != 1 {
		return "", false
	}
	var s string
	if json.Unmarshal(m[blobKey], &s) != nil || len(s) != 64 {
		return "", false
	}
	return s, true
}

func split(raw []byte) (json.RawMessage, []Blob, error) {
	var blobs []Blob
	seen := map[string]bool{}
	body, err := visit(raw, false, func(kind string, v []byte) []byte {
		if isBlobRef(v) {
			return nil // a body that already holds a reference keeps it as it is
		}
		data := v
		if !json.Valid(data) {
			return nil
		}
		var c bytes.Buffer
		if json.Compact(&c, data) == nil && !bytes.Equal(c.Bytes(), data) {
			data = c.Bytes() // stored compact, so the line stays one line; BodyRaw keeps the exact bytes
		}
		h := sum(data)
		if !seen[h] {
			seen[h] = true
			blobs = append(blobs, Blob{Type: TypeBlob, SHA256: h, Kind: kind, Data: append(json.RawMessage(nil),
				data...)})
		}
		return []byte(`{"` + blobKey + `":"` + h + `"}`)
	})
	if err != nil {
		return nil, nil, err
	}
	var c bytes.Buffer
	if err := json.Compact(&c, body); err != nil {
		return nil, nil, err
	}
	return c.Bytes(), blobs, nil
}

// JoinBody puts the blobs back into a stored body.
func JoinBody(body json.RawMessage, blobs map[string]json.RawMessage) ([]byte, error) {
	var missing string
	out, err := visit(body, true, func(_ string, v []byte) []byte {
		h, ok := blobRef(v)
		if !ok {
			return nil
		}
		data, ok := blobs[h]
		if !ok {
			missing = h
			return nil
		}
		return data
	})
	if err != nil {
		return nil, err
	}
	if missing != "" {
		return nil, fmt.Errorf("the body refers to blob %s, which the recording does not hold before it", missing[:12])
	}
	return out, nil
}

// Exact gives a request's exact body bytes: BodyRaw when it is kept, else the body with its blobs.
func (r Request) Exact(blobs map[string]json.RawMessage) ([]byte, error) {
	if r.BodyRaw != nil {
		s := *r.BodyRaw
		if len(s) > 7 && s[:7] == "base64:" {
			return base64.StdEncoding.DecodeString(s[7:])
		}
		return []byte(s), nil
	}
	if r.Body == nil {
		return nil, nil
	}
	return JoinBody(r.Body, blobs)
}
