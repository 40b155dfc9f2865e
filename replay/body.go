package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// blobKey is the one key of the object that stands for a blob in a stored body.
const blobKey = "$blob"

// SplitBody cuts a request body into the stored body and its blobs: the `tools` array, every
// message whose role is system or developer, and a top-level `instructions` or `system` (the
// Responses and Anthropic shapes) become blobs, replaced in place by {"$blob": "<sha256>"}. The
// rest of the body keeps its bytes. When the stored form cannot give back the exact bytes (the
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

// span is a value's place in a JSON text.
type span struct{ start, end int }

// topLevel lists an object's keys with the spans of their values.
func topLevel(raw []byte) ([]string, []span, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	t, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("not a JSON object")
	}
	var keys []string
	var spans []span
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		end := int(dec.InputOffset())
		keys = append(keys, k.(string))
		spans = append(spans, span{end - len(v), end})
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, nil, fmt.Errorf("more than one JSON value")
	}
	return keys, spans, nil
}

// elements lists an array's element spans.
func elements(raw []byte) ([]span, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("not a JSON array")
	}
	var out []span
	for dec.More() {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		out = append(out, span{end - len(v), end})
	}
	return out, nil
}

// replacement is a span of the body and what takes its place.
type replacement struct {
	span
	with []byte
}

// visit finds the values of a body that are blobs: f gets each with its kind and returns what
// replaces it (nil: keep).
func visit(raw []byte, f func(kind string, v []byte) []byte) ([]byte, error) {
	keys, spans, err := topLevel(raw)
	if err != nil {
		return nil, err
	}
	var reps []replacement
	for i, k := range keys {
		v := raw[spans[i].start:spans[i].end]
		switch k {
		case "tools":
			if len(v) > 0 && v[0] == '[' || isBlobRef(v) {
				if w := f("tools", v); w != nil {
					reps = append(reps, replacement{spans[i], w})
				}
			}
		case "instructions", "system":
			if w := f("system", v); w != nil {
				reps = append(reps, replacement{spans[i], w})
			}
		case "messages", "input":
			els, err := elements(v)
			if err != nil {
				continue // a string input (Responses API): nothing to store apart
			}
			for _, e := range els {
				m := v[e.start:e.end]
				if isBlobRef(m) || isSystemMessage(m) {
					if w := f("system", m); w != nil {
						reps = append(reps, replacement{span{spans[i].start + e.start, spans[i].start + e.end}, w})
					}
				}
			}
		}
	}
	var b bytes.Buffer
	at := 0
	for _, r := range reps {
		b.Write(raw[at:r.start])
		b.Write(r.with)
		at = r.end
	}
	b.Write(raw[at:])
	return b.Bytes(), nil
}

func isSystemMessage(m []byte) bool {
	var msg struct {
		Role string `json:"role"`
	}
	if json.Unmarshal(m, &msg) != nil {
		return false
	}
	return msg.Role == "system" || msg.Role == "developer"
}

func isBlobRef(v []byte) bool {
	_, ok := blobRef(v)
	return ok
}

func blobRef(v []byte) (string, bool) {
	if len(v) == 0 || v[0] != '{' {
		return "", false
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
	body, err := visit(raw, func(kind string, v []byte) []byte {
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
			blobs = append(blobs, Blob{Type: TypeBlob, SHA256: h, Kind: kind, Data: append(json.RawMessage(nil), data...)})
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
	out, err := visit(body, func(_ string, v []byte) []byte {
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
