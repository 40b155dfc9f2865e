package chunk

import (
	"fmt"
	"sort"
	"unicode"
	"unicode/utf8"
)

// Span is one token: bytes [Start, End) of the text given to the tokenizer. Bytes, not
// characters, because a real tokenizer (byte-level BPE) may end a token inside a character.
type Span struct{ Start, End int }

// Tokenizer cuts a text into tokens: spans in order, none empty, none overlapping, each beginning
// and ending on a character boundary (an adapter for a byte-level tokenizer merges the tokens
// that part a character, so that no piece ends inside one). Gaps (the white space between
// words) may belong to no token. An embedder's own tokenizer plugs in here.
type Tokenizer interface {
	Tokens(text string) []Span
}

// TokenizerFunc makes a function a Tokenizer.
type TokenizerFunc func(text string) []Span

// Tokens calls f.
func (f TokenizerFunc) Tokens(text string) []Span { return f(text) }

// Words is the spec's stand-in tokenizer (`tokenizer: words`): "a token is a run of
// non-whitespace characters", white space being Unicode's White_Space (unicode.IsSpace).
var Words Tokenizer = TokenizerFunc(words)

// Tokenizers are the tokenizers a case may name.
var Tokenizers = map[string]Tokenizer{"words": Words}

func words(text string) []Span {
	out := make([]Span, 0, len(text)/6)
	start := -1
	for i, r := range text {
		switch {
		case unicode.IsSpace(r):
			if start >= 0 {
				out = append(out, Span{start, i})
				start = -1
			}
		case start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, Span{start, len(text)})
	}
	return out
}

// Tokens is the token splitter (conformance/chunk_tokens.json): pieces of at most size tokens,
// the next beginning at the start of the token overlap tokens before the cut. The answer is
// never nil; the error is a tokenizer whose spans are not in order inside the text.
func Tokens(text string, tok Tokenizer, size, overlap int) ([]string, error) {
	size, overlap = limits(TokenRule(), size, overlap)
	t := Normalize(text)
	ts := tok.Tokens(t)
	if err := checkSpans(ts, t); err != nil {
		return nil, err
	}
	return pieces(t, spans(t, tokens{ts: ts, len: len(t)}, size, overlap), TokenRule().MinPiece), nil
}

func checkSpans(ts []Span, t string) error {
	boundary := func(p int) bool { return p == len(t) || utf8.RuneStart(t[p]) }
	prev := 0
	for i, s := range ts {
		if s.Start < prev || s.End <= s.Start || s.End > len(t) {
			return fmt.Errorf("chunk: token %d is bytes [%d, %d): tokens are non-empty, in order, not overlapping, "+
				"inside the %d bytes of the text", i, s.Start, s.End, len(t))
		}
		if !boundary(s.Start) || !boundary(s.End) {
			return fmt.Errorf("chunk: token %d, bytes [%d, %d), parts a character: a tokenizer's spans begin and end "+
				"on character boundaries", i, s.Start, s.End)
		}
		prev = s.End
	}
	return nil
}

// tokens measures in a tokenizer's tokens. Starts and ends rise strictly, so a piece's first
// token and the tokens before a cut are found by binary search. sum, when set, counts spans that
// hold several of the tokenizer's tokens (a character an embedder spells in bytes, Pieces):
// sum[i] is how many tokens the spans before span i hold; nil, each span is one token.
type tokens struct {
	ts  []Span
	len int
	sum []int
}

// first is the index of the first token beginning at or after s.
func (m tokens) first(s int) int {
	return sort.Search(len(m.ts), func(i int) bool { return m.ts[i].Start >= s })
}

// upTo is how many tokens the spans before span i hold.
func (m tokens) upTo(i int) int {
	if m.sum == nil {
		return i
	}
	return m.sum[i]
}

func (m tokens) window(s, size int) (int, bool) {
	i := m.first(s)
	base := m.upTo(i)
	if m.upTo(len(m.ts))-base <= size {
		return m.len, true
	}
	// j: the first span that does not fit; a span above the whole budget is the window alone,
	// so that the piece moves on.
	j := sort.Search(len(m.ts), func(j int) bool { return j >= i && m.upTo(j+1)-base > size })
	return m.ts[max(j-1, i)].End, false
}

// back: "the next one beginning at the start of the token `overlap` tokens before the cut". The
// tokens before the cut are those ending at or before it; if fewer than overlap+1 of them lie in
// the piece (a cut early in a window of long tokens), the next piece begins one token on. A span
// of several tokens is taken whole or not at all, so that no piece begins inside a character.
func (m tokens) back(s, cut, n int) int {
	before := sort.Search(len(m.ts), func(i int) bool { return m.ts[i].End > cut })
	j := sort.Search(before, func(j int) bool { return m.upTo(before)-m.upTo(j) <= n })
	j = max(j, m.first(s)+1)
	return m.ts[j].Start
}
