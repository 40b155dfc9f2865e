package fakeprovider

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A write that ends inside a character (a proxy's read can) is recorded with the character whole
// in the next chunk: every chunk is valid UTF-8 and the chunks joined are the bytes sent.
func TestChunksKeepCharactersWhole(t *testing.T) {
	rw := httptest.NewRecorder()
	rw.Header().Set("Content-Type", "text/event-stream")
	tw := &trackWriter{rw: rw, start: time.Now(), keep: true}
	text := "data: héllo 日本 🎉 end\n\n"
	b := []byte(text)
	cuts := []int{9, 10, 17, 18, 21, 24, 25, len(b)}
	at := 0
	for _, c := range cuts {
		tw.Write(b[at:c])
		at = c
	}
	tw.finish()
	var joined strings.Builder
	for i, c := range tw.recorded {
		if !utf8.ValidString(c.Data) {
			t.Errorf("chunk %d %q is not valid UTF-8", i, c.Data)
		}
		joined.WriteString(c.Data)
	}
	if joined.String() != text || rw.Body.String() != text || tw.lossy {
		t.Errorf("recorded %q, sent %q, lossy %v", joined.String(), rw.Body.String(), tw.lossy)
	}
	if len(tw.recorded) != len(cuts) {
		t.Errorf("%d chunks recorded for %d writes", len(tw.recorded), len(cuts))
	}
}

// Bytes that are not UTF-8 at all are flagged, so the recording says it holds U+FFFD instead.
func TestChunksNotUTF8(t *testing.T) {
	rw := httptest.NewRecorder()
	rw.Header().Set("Content-Type", "text/event-stream")
	tw := &trackWriter{rw: rw, start: time.Now(), keep: true}
	tw.Write([]byte("data: \xff\xfe\n\n"))
	tw.Write([]byte("data: \xe6\x97"))
	tw.finish()
	if !tw.lossy {
		t.Error("invalid bytes not flagged")
	}
}
