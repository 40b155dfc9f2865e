package proc

import (
	"strings"
	"sync"
)

// DefaultTail is how much of a process's output a Tail with no Max keeps.
const DefaultTail = 8 << 10

// Tail keeps the last Max bytes written to it: a process's stderr, shown with the verdict on
// what the process did (an adapter's crash, an agent's fault). The zero value keeps DefaultTail.
type Tail struct {
	// Max is how many bytes are kept; 0 means DefaultTail.
	Max int

	mu      sync.Mutex
	buf     []byte
	dropped bool
}

func (t *Tail) max() int {
	if t.Max > 0 {
		return t.Max
	}
	return DefaultTail
}

func (t *Tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	m := t.max()
	if over := len(t.buf) - m; over > 0 {
		// Compact only when twice over, so a chatty process costs amortised O(1) per byte.
		if len(t.buf) >= 2*m {
			t.buf = append(t.buf[:0], t.buf[over:]...)
		}
		t.dropped = true
	}
	return len(b), nil
}

// String is the kept text as valid UTF-8; when its start was dropped, "…" on a line of its own
// and then the text from the first whole line on (or, with no line break, from the cut).
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if m := t.max(); len(b) > m {
		b = b[len(b)-m:]
	}
	if !t.dropped {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	if i := strings.IndexByte(string(b), '\n'); i >= 0 && i < len(b)-1 {
		b = b[i+1:]
	} else {
		// A cut inside a character is not shown as a broken one.
		for len(b) > 0 && b[0]&0xC0 == 0x80 {
			b = b[1:]
		}
	}
	return "…\n" + strings.ToValidUTF8(string(b), "\uFFFD")
}
