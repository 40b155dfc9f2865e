package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizer of o200k_base written out by hand: it splits a text exactly where
// o200kPattern, run by regexp2 (a backtracking engine, the first alternative that matches
// wins), does — TestSplitMatchesRegexp2 and FuzzSplit hold the two together — at a fraction of
// the cost (regexp2 was about 45 % of a long audit's CPU). Each alternative of the pattern is a
// function below, tried in the pattern's order; each says where its match ends, or -1.

// Classes of a rune, as the pattern's character classes read them.
const (
	cUpper   = 1 << iota // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cLower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cLetter              // \p{L}
	cNumber              // \p{N}
	cSpace               // \s (regexp2: unicode.IsSpace)
	cNewline             // [\r\n]
)

func classOf(r rune) uint8 {
	switch {
	case 'a' <= r && r <= 'z':
		return cLower | cLetter
	case 'A' <= r && r <= 'Z':
		return cUpper | cLetter
	case '0' <= r && r <= '9':
		return cNumber
	case r == '\r' || r == '\n':
		return cSpace | cNewline
	case r < utf8.RuneSelf:
		if r == ' ' || '\t' <= r && r <= '\r' {
			return cSpace
		}
		return 0
	}
	return classOfWide(r)
}

func classOfWide(r rune) uint8 {
	switch {
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return cUpper | cLetter
	case unicode.IsLower(r):
		return cLower | cLetter
	case unicode.IsLetter(r): // Lm, Lo
		return cUpper | cLower | cLetter
	case unicode.IsMark(r):
		return cUpper | cLower
	case unicode.IsNumber(r):
		return cNumber
	case unicode.IsSpace(r):
		return cSpace
	}
	return 0
}

// isP is [^\r\n\p{L}\p{N}]; isS is [^\s\p{L}\p{N}].
func isP(c uint8) bool { return c&(cNewline|cLetter|cNumber) == 0 }
func isS(c uint8) bool { return c&(cSpace|cLetter|cNumber) == 0 }

// at is the class and width of the rune at i of s, or 0, 0 at its end. s is valid UTF-8.
func at(s string, i int) (uint8, int) {
	if i >= len(s) {
		return 0, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return classOf(rune(c)), 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return classOfWide(r), w
}

// run is where the run of runes from i with a class in want ends.
func run(s string, i int, want uint8) int {
	for {
		c, w := at(s, i)
		if w == 0 || c&want == 0 {
			return i
		}
		i += w
	}
}

// splitEnd is where the pre-tokenizer's match at i (< len(s)) ends.
func splitEnd(s string, i int) int {
	c, w := at(s, i)
	for _, alt := range [...]func(string, int) int{wordLower, wordUpper} {
		if isP(c) {
			if e := alt(s, i+w); e >= 0 {
				return e
			}
		}
		if e := alt(s, i); e >= 0 {
			return e
		}
	}
	if c&cNumber != 0 { // \p{N}{1,3}
		e := i
		for k := 0; k < 3; k++ {
			c, w := at(s, e)
			if c&cNumber == 0 {
				break
			}
			e += w
		}
		return e
	}
	if e := punct(s, i); e >= 0 {
		return e
	}
	return spaces(s, i, w)
}

// wordLower is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+ and a contraction,
// from j. The first run is greedy and gives back runes until the second can match: so the
// match ends after the lower run that follows the upper one, or else just after the last rune
// of the upper run that is also lower (Lm, Lo, M).
func wordLower(s string, j int) int {
	e, lastLower := j, -1
	for {
		c, w := at(s, e)
		if c&cUpper == 0 {
			break
		}
		e += w
		if c&cLower != 0 {
			lastLower = e
		}
	}
	if c, _ := at(s, e); c&cLower != 0 {
		return contraction(s, run(s, e, cLower))
	}
	if lastLower < 0 {
		return -1
	}
	return contraction(s, lastLower)
}

// wordUpper is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]* and a contraction.
func wordUpper(s string, j int) int {
	e := run(s, j, cUpper)
	if e == j {
		return -1
	}
	return contraction(s, run(s, e, cLower))
}

// contraction is (?i:'s|'t|'re|'ve|'m|'ll|'d)? at e: regexp2 compares unicode.ToLower of the
// text's runes with the pattern's.
func contraction(s string, e int) int {
	if e >= len(s) || s[e] != '\'' {
		return e
	}
	for _, suffix := range [...]string{"s", "t", "re", "ve", "m", "ll", "d"} {
		k, ok := e+1, true
		for _, want := range suffix {
			r, w := utf8.DecodeRuneInString(s[min(k, len(s)):])
			if w == 0 || unicode.ToLower(r) != want {
				ok = false
				break
			}
			k += w
		}
		if ok {
			return k
		}
	}
	return e
}

// punct is ` ?[^\s\p{L}\p{N}]+[\r\n/]*` at i.
func punct(s string, i int) int {
	j := i
	if s[i] == ' ' {
		j++
	}
	if c, w := at(s, j); w == 0 || !isS(c) {
		return -1
	}
	e := j
	for {
		c, w := at(s, e)
		if w == 0 || !isS(c) {
			break
		}
		e += w
	}
	for e < len(s) && (s[e] == '\r' || s[e] == '\n' || s[e] == '/') {
		e++
	}
	return e
}

// spaces is `\s*[\r\n]+|\s+(?!\S)|\s+` at i, whose rune (w bytes) is white space: the run up to
// its last newline; else the whole run at the text's end, or all of it but its last rune
// (which a following word or punctuation takes as its leading space); else the one rune.
func spaces(s string, i, w int) int {
	e, afterNewline, last := i, -1, i
	for {
		c, w := at(s, e)
		if w == 0 || c&cSpace == 0 {
			break
		}
		last = e
		e += w
		if c&cNewline != 0 {
			afterNewline = e
		}
	}
	switch {
	case afterNewline >= 0:
		return afterNewline
	case e == len(s):
		return e
	case last > i:
		return last
	}
	return i + w
}

// split calls each with every piece of text the pre-tokenizer makes, in order. Bytes that are
// not UTF-8 read as U+FFFD, one for each, as regexp2 (which matches on runes) reads them.
func split(text string, each func(piece string)) {
	if !utf8.ValidString(text) {
		text = string([]rune(text))
	}
	for i := 0; i < len(text); {
		e := splitEnd(text, i)
		each(text[i:e])
		i = e
	}
}
