package syncbuf

import (
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
