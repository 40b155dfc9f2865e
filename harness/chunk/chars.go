package chunk

import "unicode/utf8"

// Chars is the character splitter (conformance/chunk.json): pieces of about size characters,
// overlap characters repeated. A character is a Unicode code point (what Python's len counts;
// JavaScript must count [...text], not .length, which counts UTF-16 units). The answer is never
// nil: no pieces is an empty list.
func Chars(text string, size, overlap int) []string {
	size, overlap = limits(CharRule(), size, overlap)
	t := Normalize(text)
	return pieces(t, spans(t, chars(t), size, overlap), CharRule().MinPiece)
}

// chars measures in code points; an invalid UTF-8 byte counts as one, as utf8.RuneCount does.
type chars string

func (t chars) window(s, size int) (int, bool) {
	i := s
	for n := 0; n < size && i < len(t); n++ {
		_, w := utf8.DecodeRuneInString(string(t[i:]))
		i += w
	}
	return i, i == len(t)
}

func (t chars) back(s, cut, n int) int {
	i := cut
	for ; n > 0 && i > s; n-- {
		_, w := utf8.DecodeLastRuneInString(string(t[s:i]))
		i -= w
	}
	if i <= s {
		_, w := utf8.DecodeRuneInString(string(t[s:]))
		return s + w
	}
	return i
}
