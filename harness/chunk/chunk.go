// Package chunk is the reference of areas chunk_tokens and chunk: the splitters that cut a text
// into the pieces indexed for search, by tokens (filesystem.md "Indexing, by tokens",
// conformance/chunk_tokens.json) and by characters (conformance/chunk.json). filesystem.md says
// "The cut rules are the character splitter's (conformance/chunk.json) measured in tokens", so
// both are one loop over a measure that counts characters (Unicode code points), a tokenizer's
// tokens, or — where no tokenizer is given — the stand-in count ceil(UTF-8 bytes / 2)
// (Estimated). SplitRefused splits a piece the embedder refuses for its length. Pure: no I/O.
package chunk

import (
	"strings"
	"unicode/utf8"
)

// measure is what a splitter counts. Offsets are bytes of the normalized text; a "unit" is a
// character or a token.
type measure interface {
	// window is the end of the longest stretch of at most size units beginning at s (the start
	// of a unit), and whether that stretch reaches the end of the text.
	window(s, size int) (end int, last bool)
	// back is where the next piece begins after a cut: the start of the unit n units before the
	// cut, but always after s, so that every piece moves on.
	back(s, cut, n int) int
}

// span is a piece before trimming: bytes [start, end) of the normalized text.
type span struct{ start, end int }

// breaks are the cuts in order of preference: a paragraph break, a line break, a sentence's ". ".
var breaks = []string{"\n\n", "\n", ". "}

// Normalize is the text a splitter cuts: CRLF read as LF (one pass, as Python's str.replace and
// JavaScript's replace(/\r\n/g) do), then trimmed of Unicode white space. Bytes that are not
// UTF-8 (never in a case: JSON text is Unicode) are read as U+FFFD, so that every offset the
// splitter meets is a character boundary.
func Normalize(text string) string {
	return strings.TrimSpace(strings.ReplaceAll(strings.ToValidUTF8(text, "\uFFFD"), "\r\n", "\n"))
}

// spans cuts the normalized text t into pieces: each window is the longest stretch of at most
// size units; the piece ends at the window's best break, else at the window's end; the next
// piece begins overlap units before that cut. The last window reaches the end of the text.
func spans(t string, m measure, size, overlap int) []span {
	var out []span
	s := 0
	for {
		end, last := m.window(s, size)
		if last {
			return append(out, span{s, len(t)})
		}
		cut := cutIn(t, s, end)
		out = append(out, span{s, cut})
		s = m.back(s, cut, overlap)
	}
}

// cutIn is where the piece of the window [s, end) ends: just after the window's last paragraph
// break, else its last line break, else its last ". ", the break lying wholly in the window's
// last third by characters; else the window's end. The last third of n characters begins after
// the first ceil(2n/3) = n - floor(n/3) of them: exactly the positions p with 3p >= 2n.
func cutIn(t string, s, end int) int {
	n := utf8.RuneCountInString(t[s:end])
	from := s
	for skip := n - n/3; skip > 0; skip-- {
		_, w := utf8.DecodeRuneInString(t[from:end])
		from += w
	}
	third := t[from:end]
	for _, b := range breaks {
		if i := strings.LastIndex(third, b); i >= 0 {
			return from + i + len(b)
		}
	}
	return end
}

// pieces trims the spans and drops those under minChars characters. A text that fits in one
// window is one piece whatever its length ("a text that fits is one piece"); an empty text is none.
func pieces(t string, ss []span, minChars int) []string {
	out := []string{}
	if t == "" {
		return out
	}
	if len(ss) == 1 {
		return append(out, t)
	}
	for _, sp := range ss {
		p := strings.TrimSpace(t[sp.start:sp.end])
		if utf8.RuneCountInString(p) >= minChars {
			out = append(out, p)
		}
	}
	return out
}

// limits raises size to the rule's minimum and holds overlap to [0, size/2]: "at most half the
// size", rounded down for an odd size.
func limits(r Rule, size, overlap int) (int, int) {
	size = max(size, r.MinSize)
	return size, min(max(overlap, 0), size/2)
}
