package conformance

import (
	"bytes"
	"testing"
)

// A padded file is its text then the pad up to its size, made once for its text, pad and size
// and kept for at most paddedMax files.
func TestPaddedFileMadeOnce(t *testing.T) {
	pad, size := "a", 1<<18
	f := modulesFile{Text: "# big\n", Pad: &pad, Size: &size}
	g := modulesFile{Text: "# big\n", Pad: new("a"), Size: new(1 << 18)}
	a, b := f.bytes(), g.bytes()
	if want := append([]byte("# big\n"), bytes.Repeat([]byte("a"), size-6)...); !bytes.Equal(a, want) {
		t.Fatalf("padded file %.20q… of %d bytes, want %d", a, len(a), len(want))
	}
	if &a[0] != &b[0] {
		t.Error("the same padded file was made twice")
	}
	for i := range 2 * paddedMax {
		n := 100 + i
		(&modulesFile{Text: "x", Pad: &pad, Size: &n}).bytes()
		if len(padded.m) > paddedMax {
			t.Fatalf("%d padded files kept, want at most %d", len(padded.m), paddedMax)
		}
	}
}
