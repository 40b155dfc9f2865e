package replay

import (
	"bytes"
	"io"
	"testing"
)

// A body holding <, > and & (every 3.1 session note does) is read back byte for byte, and so is a
// system prompt stored as a blob.
func TestWriterKeepsAngleBracketsAndAmpersands(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"model":"m","messages":[{"role":"system","content":"a <b> & c"},{"role":"user","content":"hi\n\n<session-note>\nToday is 2026-11-05.\n</session-note>"}]}`)
	if err := w.Write(Exchange{}, body); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Next()
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	if !bytes.Equal(e.Body, body) {
		t.Fatalf("body changed:\n%s\n%s", e.Body, body)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}
