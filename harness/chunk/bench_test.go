package chunk

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func newRand() *rand.Rand { return rand.New(rand.NewPCG(5, 6)) }

// corpus is n bytes of prose: sentences, lines and paragraphs, some of them not in English.
func corpus(n int) string {
	r := newRand()
	words := []string{"the", "index", "is", "keyed", "by", "content", "hash", "so", "a", "file", "in", "many", "places", "embedded", "once", "café", "naïve", "Straße", "日本語", "😀", "a3f29c0e1b7d"}
	var b strings.Builder
	b.Grow(n + 64)
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		switch k := r.IntN(100); {
		case k < 6:
			b.WriteString(". ")
		case k < 9:
			b.WriteString("\n")
		case k < 10:
			b.WriteString("\n\n")
		default:
			b.WriteString(" ")
		}
	}
	return b.String()[:n]
}

const mb = 1 << 20

// bySize times split over 1 MB and 10 MB of corpus, a sub-benchmark each, in bytes per second.
func bySize(b *testing.B, split func(b *testing.B, text string)) {
	for _, n := range []int{mb, 10 * mb} {
		text := corpus(n)
		b.Run(sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				split(b, text)
			}
		})
	}
}

func BenchmarkTokens(b *testing.B) {
	bySize(b, func(b *testing.B, text string) {
		if _, err := Tokens(text, Words, 480, 64); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkChars(b *testing.B) {
	bySize(b, func(b *testing.B, text string) { Chars(text, 1000, 150) })
}

func sizeName(n int) string { return itoa(n/mb) + "MB" }

// The splitters scan each window once: the bytes they look at, summed over all windows, grow
// with the text (ten times the text, about ten times the bytes) and stay within six times it
// (each piece moves on by at least a sixth of a window: a cut at two thirds, half repeated).
// Counted, not timed, so that it holds on a loaded machine; BenchmarkTokens/BenchmarkChars time
// 1 MB and 10 MB.
func TestSplittersAreLinear(t *testing.T) {
	scanned := func(name string, n int) int {
		norm := Normalize(corpus(n))
		var m measure
		var size, overlap int
		switch name {
		case "tokens":
			size, overlap = limits(TokenRule(), 480, 64)
			m = tokens{ts: Words.Tokens(norm), len: len(norm)}
		default:
			size, overlap = limits(CharRule(), 1000, 150)
			m = chars(norm)
		}
		total := 0
		for _, sp := range spans(norm, m, size, overlap) {
			end, _ := m.window(sp.start, size)
			total += end - sp.start
		}
		if total > 6*len(norm) {
			t.Errorf("%s: %d bytes scanned for a text of %d", name, total, len(norm))
		}
		return total
	}
	for _, name := range []string{"tokens", "chars"} {
		small, large := scanned(name, mb), scanned(name, 10*mb)
		if r := float64(large) / float64(small); r < 9 || r > 11 {
			t.Errorf("%s: 10 MB scans %.2f× the bytes of 1 MB, want about 10×", name, r)
		}
	}
}
