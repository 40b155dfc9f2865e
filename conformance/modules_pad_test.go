package conformance

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/instructions/modules"
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

// A file over the cap stands as a zeroed slice of its length (bytes): the reference reads no more
// of it, so every modules case answers the same as with the file's real bytes. A reference that
// read an oversized file's content would fail this.
func TestOverCapIsItsLength(t *testing.T) {
	over := 0
	for _, c := range Embedded() {
		if c.Area != "modules" {
			continue
		}
		v, err := c.Decode()
		if err != nil {
			t.Fatal(err)
		}
		mc := v.(modulesCase)
		for _, f := range mc.Files {
			if f != nil && f.Size != nil && *f.Size > modules.SpecTexts().MaxBytes {
				over++
			}
		}
		stand, err := answerModules(mc)
		if err != nil {
			t.Fatalf("%s: %v", c.Where(), err)
		}
		padOverCap = true
		real, err := answerModules(mc)
		padOverCap = false
		if err != nil {
			t.Fatalf("%s: %v", c.Where(), err)
		}
		if !reflect.DeepEqual(stand, real) {
			t.Errorf("%s: with the files over the cap as their length, %+v; with their bytes, %+v", c.Where(), stand,
				real)
		}
	}
	if over == 0 {
		t.Error("no embedded modules case holds a file over the cap: the test checks nothing")
	}
	pad, size := "a", 262145
	f := modulesFile{Text: "# big\n", Pad: &pad, Size: &size}
	if b := f.bytes(); len(b) != size || cap(b) != size {
		t.Errorf("a file over the cap is %d bytes (cap %d), want %d", len(b), cap(b), size)
	}
}
