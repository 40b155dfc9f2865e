package replay

import (
	"bytes"
	"encoding/json"
	"errors"
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
