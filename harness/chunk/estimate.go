package chunk

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Where no tokenizer is given, filesystem.md's stand-in count: "Where it does not, a count of
// `ceil(UTF-8 bytes / 2)` stands in — an estimate, not a bound".

const perToken = "a count of `ceil(UTF-8 bytes / {})` stands in"

// EstimateBytes is the divisor of the stand-in count, read from filesystem.md's sentence.
var EstimateBytes = sync.OnceValue(func() int {
	b, err := spec.ReadFile("filesystem.md")
	if err != nil {
		panic(err)
	}
	n, ok := spec.FindNumber(string(b), perToken)
	if !ok || n < 1 {
		panic(fmt.Sprintf("harness/chunk: filesystem.md does not say %q with a divisor of 1 or more", perToken))
	}
	return n
})

// Estimate is the stand-in count of a text's tokens: ceil(UTF-8 bytes / EstimateBytes).
func Estimate(text string) int {
	per := EstimateBytes()
	return (len(text) + per - 1) / per
}

// Estimated is the token splitter (chunk_tokens' rules) counting with the stand-in: a piece
// is the longest stretch of whole characters whose estimate is at most size, and the next
// begins where the longest stretch before the cut whose estimate is at most overlap begins. The
// answer is never nil.
func Estimated(text string, size, overlap int) []string {
	size, overlap = limits(TokenRule(), size, overlap)
	t := Normalize(text)
	return pieces(t, spans(t, estimate{t, EstimateBytes()}, size, overlap), TokenRule().MinPiece)
}

// estimate measures in the stand-in count: a stretch of b bytes counts ceil(b/per) tokens, so
// at most n tokens are at most n*per bytes.
type estimate struct {
	t   string
	per int
}

func (m estimate) window(s, size int) (int, bool) {
	end := s + size*m.per
	if end >= len(m.t) {
		return len(m.t), true
	}
	for end > s && !utf8.RuneStart(m.t[end]) {
		end--
	}
	if end == s { // one character above the whole budget: it is the window, so the piece moves on
		_, w := utf8.DecodeRuneInString(m.t[s:])
		end = s + w
	}
	return end, false
}

func (m estimate) back(s, cut, n int) int {
	start := cut - n*m.per
	if start <= s {
		_, w := utf8.DecodeRuneInString(m.t[s:])
		return s + w
	}
	for start < cut && !utf8.RuneStart(m.t[start]) {
		start++
	}
	return start
}
