package spec

import (
	"strconv"
	"strings"
)

// Find reads a sentence of the spec's prose: pattern is the sentence with each value it fixes
// written `{}`, and a hole is one or more bytes up to the pattern's next byte, never that byte
// (a regexp's `([^c]+)c`). The first place text says the sentence is read; ok is false where it
// never does. It stands for the regexps these values were read with: a search costs a process
// nothing to compile. A pattern that begins or ends with a hole, has two together, or a byte
// after a hole that is not ASCII panics.
func Find(text, pattern string) (holes []string, ok bool) {
	lits := strings.Split(pattern, "{}")
	for _, l := range lits {
		if l == "" || l[0] >= 0x80 {
			panic("spec.Find: a hole with no ASCII text before or after it in " + strconv.Quote(pattern))
		}
	}
	for from := 0; ; {
		i := strings.Index(text[from:], lits[0])
		if i < 0 {
			return nil, false
		}
		at := from + i + len(lits[0])
		if holes, ok := holesAt(text[at:], lits[1:]); ok {
			return holes, true
		}
		from += i + 1
	}
}

// holesAt reads the holes before each of lits, the first hole starting at s's first byte.
func holesAt(s string, lits []string) ([]string, bool) {
	holes := make([]string, 0, len(lits))
	for _, lit := range lits {
		end := strings.IndexByte(s, lit[0])
		if end <= 0 || !strings.HasPrefix(s[end:], lit) {
			return nil, false
		}
		holes = append(holes, s[:end])
		s = s[end+len(lit):]
	}
	return holes, true
}

// FindNumber is Find of a sentence with one hole that is a number: n, and ok false where text
// never says the sentence or its hole is not a whole number.
func FindNumber(text, pattern string) (n int, ok bool) {
	h, ok := Find(text, pattern)
	if !ok || len(h) != 1 {
		return 0, false
	}
	n, err := strconv.Atoi(h[0])
	if err != nil || n < 0 || h[0][0] == '+' {
		return 0, false
	}
	return n, true
}

// Backticked is every `…` span of s, without its backticks, in order (an empty pair is not one).
func Backticked(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], '`')
		switch {
		case j < 0:
			return out
		case j == 0:
			s = s[i+1:]
		default:
			out = append(out, s[i+1:i+1+j])
			s = s[i+1+j+1:]
		}
	}
}
