package proc

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTail(t *testing.T) {
	tl := &Tail{Max: 10}
	io.WriteString(tl, "abc\n")
	if tl.String() != "abc\n" {
		t.Errorf("%q", tl.String())
	}
	for range 100 {
		io.WriteString(tl, "line\n")
	}
	io.WriteString(tl, "end\n")
	if got := tl.String(); got != "…\nline\nend\n" {
		t.Errorf("%q", got)
	}
	if len(tl.buf) > 2*tl.Max {
		t.Errorf("the tail holds %d bytes for a max of %d", len(tl.buf), tl.Max)
	}
}

// A tail cut inside a character, with no line break to start from, shows whole characters
// only; what the process wrote that is not UTF-8 is shown replaced, not passed on.
func TestTailUTF8(t *testing.T) {
	tl := &Tail{Max: 7}
	io.WriteString(tl, strings.Repeat("é", 20)) // 40 bytes: the last 7 start inside an é
	got := tl.String()
	if !utf8.ValidString(got) || got != "…\n"+strings.Repeat("é", 3) {
		t.Errorf("%q", got)
	}
	var raw Tail
	raw.Write([]byte("bad \xff byte\n"))
	if got := raw.String(); got != "bad \uFFFD byte\n" {
		t.Errorf("%q", got)
	}
}

// The zero value keeps DefaultTail bytes, and says it dropped the rest.
func TestTailDefault(t *testing.T) {
	var tl Tail
	io.WriteString(&tl, "first line\n")
	io.WriteString(&tl, strings.Repeat("x\n", DefaultTail))
	got := tl.String()
	if !strings.HasPrefix(got, "…\nx\n") || strings.Contains(got, "first") || len(got) > DefaultTail+len("…\n") {
		t.Errorf("%d bytes kept, starting %q", len(got), got[:min(len(got), 20)])
	}
}
