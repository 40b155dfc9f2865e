package replay

import (
	"bytes"
	"io"
	"testing"
)

// A body holding <, > and & (every 3.1 session note does) is read back byte for byte, and so is a
// system prompt stored as a blob.
func TestWriterKeepsAngleBracketsAndAmpersands(t *testing.T) {
	body := []byte(`{"model":"m","messages":[{"role":"system","content":"a <b> & c"},{"role":"user","content":"hi\n\n<session-note>\nToday is 2026-11-05.\n</session-note>"}]}`)
	e := writeAndReadBack(t, Exchange{}, body)
	if !bytes.Equal(e.Body, body) {
		t.Fatalf("body changed:\n%s\n%s", e.Body, body)
	}
}

// writeAndReadBack writes one exchange to a recording and reads it back, checking that the
// recording then ends.
func writeAndReadBack(t *testing.T, x Exchange, body []byte) Entry {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(x, body); err != nil {
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
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
	return e
}
