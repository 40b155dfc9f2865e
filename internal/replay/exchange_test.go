package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The fast path decodes a line as encoding/json does, body aside; a line it does not take (a key
// spelled otherwise, no sum, a body kept apart) is left to encoding/json.
func TestDecodeExchangeIsUnmarshal(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"model":"m","messages":[{"role":"system","content":"s <&>"},{"role":"user","content":"hi"}],"tools":[{"type":"function"}]}`)
	x := Exchange{Method: "POST", Path: "/v1/chat/completions", Request: Request{Headers: map[string][]string{"X-A": {"1"}}},
		Response: &Response{Status: 200, Stream: true, Chunks: []Chunk{{MS: 1.5, Data: "data: {}\n\n"}}}, Timing: Timing{TotalMS: 3}}
	if err := w.Write(x, body); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	line := []byte(lines[len(lines)-1])
	got, _, ok := decodeExchange(line)
	if !ok {
		t.Fatalf("the fast path refused the writer's own line %s", line)
	}
	var want Exchange
	if err := json.Unmarshal(line, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fast\n%+v\nencoding/json\n%+v", got, want)
	}
	for name, l := range map[string]string{
		"key in another case": strings.Replace(string(line), `"request":`, `"Request":`, 1),
		"two bodies":          strings.Replace(string(line), `"body":`, `"body":null,"body":`, 1),
		"no sum":              strings.Replace(string(line), `"body_sha256":"`, `"body_sha256":"","x":"`, 1),
		"not JSON":            string(line[:len(line)-1]),
	} {
		if _, _, ok := decodeExchange([]byte(l)); ok {
			t.Errorf("%s: taken by the fast path", name)
		}
	}
}

// A damaged body reads as encoding/json names it, as before the fast path: the sum fails, and the
// line is decoded whole.
func TestDamagedBodyIsNamedAsBefore(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Source: "fake"})
	w.Write(Exchange{Method: "POST", Path: "/v1/chat/completions"}, []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	rec := strings.Replace(buf.String(), `"content":"hi"}`, `"content":"hi"`+"\x01"+`}`, 1)
	r, err := NewReader(strings.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Next()
	var le *LineError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "invalid character") {
		t.Errorf("got %v, want encoding/json's error at the line", err)
	}
}

// Every line the writer writes is read in one pass: a session whose history grows, with a
// system prompt and tools stored as blobs, a Responses body and one with no blobs, is read
// without a line decoded whole, and each body comes back as sent.
func TestWritersLinesTakeTheOnePass(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	var bodies [][]byte
	history := `{"role":"system","content":"you help"},{"role":"user","content":"a \"quoted\" [text]"}`
	for i := range 5 {
		history += fmt.Sprintf(`,{"role":"assistant","content":"turn %d"},{"role":"user","content":"more"}`, i)
		bodies = append(bodies, []byte(`{"model":"m","messages":[`+history+`],"tools":[{"type":"function","function":{"name":"t"}}]}`))
	}
	bodies = append(bodies, []byte(`{"model":"m","instructions":"be brief","input":[{"role":"user","content":"x"}]}`),
		[]byte(`{"model":"m","messages":[{"role":"user","content":"no blobs"}]}`))
	for _, b := range bodies {
		if err := w.Write(Exchange{Method: "POST", Path: "/v1/chat/completions"}, b); err != nil {
			t.Fatal(err)
		}
	}
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range bodies {
		e, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(e.Body, want) {
			t.Errorf("body %d:\n%s\nwant\n%s", i, e.Body, want)
		}
	}
	if r.whole != 0 {
		t.Errorf("%d of %d lines were decoded whole, off the one pass", r.whole, len(bodies))
	}
}

// Whatever the line, what the one pass takes it gives as encoding/json and JoinBody do.
func FuzzDecodeExchange(f *testing.F) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Source: "fake"})
	w.Write(Exchange{Method: "POST", Path: "/v1/chat/completions"},
		[]byte(`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"hi"}],"tools":[{"a":1}]}`))
	blobs := map[string]json.RawMessage{}
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var bl Blob
		if json.Unmarshal([]byte(l), &bl) == nil && bl.Type == TypeBlob {
			blobs[bl.SHA256] = bl.Data
		}
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		x, refs, ok := decodeExchange([]byte(line))
		if !ok {
			return
		}
		var want Exchange
		if json.Unmarshal([]byte(line), &want) != nil {
			return // a body's bytes are checked by its SHA-256, not by the scan (decodeExchange)
		}
		if !reflect.DeepEqual(x, want) {
			t.Fatalf("one pass\n%+v\nencoding/json\n%+v", x, want)
		}
		got, gok := joinRefs(x.Request.Body, refs, blobs)
		joined, err := JoinBody(x.Request.Body, blobs)
		if gok != (err == nil) || gok && !bytes.Equal(got, joined) {
			t.Fatalf("joined %q (%v), JoinBody %q (%v)", got, gok, joined, err)
		}
	})
}
