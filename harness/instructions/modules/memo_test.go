package modules

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
)

// A file's parse or hash is made once for its content, and the memo holds no more than memoMax
// files and memoBytes bytes whatever a long-lived process reads.
func TestMemoOnceByContentAndBounded(t *testing.T) {
	var f fileMemo[string]
	made := 0
	mk := func(b []byte) func() string { return func() string { made++; return sumNow(b) } }
	big := bytes.Repeat([]byte("a"), sumMemoMin)
	same := bytes.Clone(big)
	if a, b := f.get(big, mk(big)), f.get(same, mk(same)); a != b || a != sumNow(big) || made != 1 {
		t.Errorf("the same content made %d times (%s, %s), want once, the hash %s", made, a, b, sumNow(big))
	}
	for i := range 3 * memoMax {
		b := append(bytes.Clone(big), fmt.Sprint(i)...)
		f.get(b, mk(b))
		size := 0
		for k := range f.m {
			size += len(k)
		}
		if len(f.m) > memoMax || size > memoBytes || size != f.size {
			t.Fatalf("after %d files the memo holds %d of %d bytes (counted %d), want at most %d, %d bytes", i+1, len(f.m), size, f.size, memoMax, memoBytes)
		}
	}
}

// A frontmatter read again answers as the first reading did, for valid and invalid blocks alike,
// and is parsed once.
func TestParseFrontMemoIsParseFront(t *testing.T) {
	key := SpecTexts().Key
	for _, block := range []string{"paths:\n  - \"src/**\"\n", "nope: 1\n", "", "paths: [\n"} {
		want, wantErr := parseFront([]byte(block), key)
		for range 2 {
			got, err := parseFrontMemo([]byte(block), key)
			if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%q: remembered %v %v, parsed %v %v", block, got, err, want, wantErr)
			}
		}
		if _, ok := fronts.m[key+"\x00"+block]; !ok {
			t.Errorf("%q: not remembered", block)
		}
	}
}

// The hashes' memo keeps a file from its second sighting: one read once is not copied into it.
func TestSumsMemoKeepsTheSecondSighting(t *testing.T) {
	f := fileMemo[string]{second: true}
	made := 0
	big := bytes.Repeat([]byte("b"), sumMemoMin)
	mk := func() string { made++; return sumNow(big) }
	for i, want := range []struct{ made, size int }{{1, 0}, {2, len(big)}, {2, len(big)}} {
		if got := f.get(big, mk); got != sumNow(big) || made != want.made || f.size != want.size {
			t.Errorf("sighting %d: %s made %d times, memo %d bytes; want %s, %d, %d", i+1, got, made, f.size,
				sumNow(big), want.made, want.size)
		}
	}
}
