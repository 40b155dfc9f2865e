package chunk

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEstimate(t *testing.T) {
	if EstimateBytes() != 2 {
		t.Fatalf("filesystem.md's stand-in count divides by %d; the spec says 2", EstimateBytes())
	}
	for text, want := range map[string]int{"": 0, "a": 1, "ab": 1, "abc": 2, "é": 1, "😀": 2, "a😀": 3} {
		if got := Estimate(text); got != want {
			t.Errorf("Estimate(%q) = %d, want %d", text, got, want)
		}
	}
}

// checkEstimated: the pieces are trimmed stretches of the normalized text; each
// counts at most size by the estimate; nothing ends inside a character.
func checkEstimated(t *testing.T, text string, size, overlap int) {
	t.Helper()
	ps := Estimated(text, size, overlap)
	if ps == nil {
		t.Fatal("nil pieces")
	}
	raised, _ := limits(TokenRule(), size, overlap)
	norm := Normalize(text)
	for i, p := range ps {
		if p == "" || !utf8.ValidString(p) || strings.TrimSpace(p) != p || !strings.Contains(norm, p) {
			t.Fatalf("piece %d %q is not a trimmed stretch of the text", i, p)
		}
		if len(ps) > 1 && Estimate(p) > raised && utf8.RuneCountInString(p) > 1 {
			t.Fatalf("piece %d counts %d by the estimate, above the size %d", i, Estimate(p), raised)
		}
	}
}

func TestEstimated(t *testing.T) {
	r := newRand()
	for range 200 {
		checkEstimated(t, genText(r, 3000), r.IntN(200)-20, r.IntN(120)-10)
	}
}

// FuzzEstimated: the stand-in splitter never panics and keeps its properties on any text.
func FuzzEstimated(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		checkEstimated(t, text, size%300, overlap%300)
	})
}

// A refused piece is split while refused, and nothing is lost: the parts, joined, hold every
// token of the piece in order.
func TestSplitRefusedKeepsEveryToken(t *testing.T) {
	r := newRand()
	for range 200 {
		text := genText(r, 2000)
		ps, err := Tokens(text, Words, 16+r.IntN(100), r.IntN(30))
		if err != nil {
			t.Fatal(err)
		}
		limit := 1 + r.IntN(20)
		parts, err := SplitRefused(ps, Words, limit)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Fields(strings.Join(parts, " ")), strings.Fields(strings.Join(ps, " ")); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("limit %d: the parts lose or reorder tokens", limit)
		}
		for _, p := range parts {
			if n := len(strings.Fields(p)); n > limit && n > 1 {
				t.Fatalf("a part of %d tokens is still above the limit %d: %q", n, limit, p)
			}
		}
		est := SplitRefusedEstimated(ps, limit)
		if strings.Join(strings.Fields(strings.Join(est, "")), "") != strings.Join(strings.Fields(strings.Join(ps, "")), "") {
			t.Fatalf("limit %d: the estimated parts lose characters", limit)
		}
		for _, p := range est {
			if Estimate(p) > limit && utf8.RuneCountInString(p) > 1 {
				t.Fatalf("an estimated part counts %d, above the limit %d: %q", Estimate(p), limit, p)
			}
		}
	}
}

// A tokenizer that breaks its rules is an error from the split too, not a panic.
func TestSplitRefusedBadTokenizer(t *testing.T) {
	bad := TokenizerFunc(func(text string) []Span { return []Span{{0, len(text) + 1}} })
	if _, err := SplitRefused([]string{"a b c"}, bad, 1); err == nil {
		t.Error("no error for spans past the text")
	}
}
