package syncbuf

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// Writers and a reader at once (go test -race): every write lands whole.
func TestConcurrentWritesAndReads(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("ab"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if b.Len() != 800 || strings.Count(b.String(), "ab") != 400 {
		t.Errorf("len %d: %q", b.Len(), b.String())
	}
}

// Writers at once through a Writer to a plain bytes.Buffer (go test -race): every write lands
// whole, none interleaved with another.
func TestWriterSerializesWrites(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			line := strings.Repeat(string(rune('a'+i)), 16) + "\n"
			for range 100 {
				w.Write([]byte(line))
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 400 {
		t.Fatalf("%d lines, want 400", len(lines))
	}
	for _, l := range lines {
		if len(l) != 16 || strings.Count(l, l[:1]) != 16 {
			t.Fatalf("a write was split or interleaved: %q", l)
		}
	}
}
