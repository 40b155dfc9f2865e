package spec

import (
	"strconv"
	"strings"
)

// pattern is a FindAll pattern split at its holes.
type pattern struct {
	lits  []string // one more than holes, none empty
	holes []byte   // 0 for `{}`, else the letter
}

// parsePattern splits p at its holes; other braces are the sentence's own.
func parsePattern(p string) pattern {
	n := strings.Count(p, "{") // at least the holes
	pt := pattern{lits: make([]string, 0, n+1), holes: make([]byte, 0, n)}
	lit := 0
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] != '{':
			continue
		case i+1 < len(p) && p[i+1] == '}':
			pt.lits, pt.holes = append(pt.lits, p[lit:i]), append(pt.holes, 0)
			lit = i + 2
		case i+2 < len(p) && p[i+2] == '}' && strings.IndexByte("tnw", p[i+1]) >= 0:
			pt.lits, pt.holes = append(pt.lits, p[lit:i]), append(pt.holes, p[i+1])
			lit = i + 3
		default:
			continue
		}
		i = lit - 1
	}
	pt.lits = append(pt.lits, p[lit:])
	for k, l := range pt.lits {
		if l == "" || k > 0 && (l[0] >= 0x80 || inHole(pt.holes[k-1], l[0], l[0])) {
			panic("spec: a hole not between two texts, or one the text after it could continue, in " +
				strconv.Quote(p))
		}
	}
	return pt
}

// inHole says whether hole h, followed by the byte next, can hold c.
func inHole(h, next, c byte) bool {
	switch h {
	case 0:
		return c != next
	case 't':
		return c != '`'
	case 'n':
		return '0' <= c && c <= '9'
	}
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// FindAll reads a sentence of the spec's prose without a regexp (compiling one costs a process
// more than the search): pattern is the sentence with each value a hole, `{}` the bytes up to the
// byte after it ([^c]+), `{t}` [^`]+, `{n}` \d+, `{w}` [0-9A-Za-z_]+; the answer is each
// non-overlapping match's holes, as FindAllStringSubmatch finds them. The byte after a hole is
// ASCII and one the hole cannot hold, so the hole's longest run is the only match; a pattern
// otherwise, or beginning or ending with a hole, panics.
func FindAll(text, pattern string) [][]string {
	pt := parsePattern(pattern)
	var out [][]string
	for from := 0; ; {
		holes, end, ok := pt.next(text, from)
		if !ok {
			return out
		}
		out = append(out, holes)
		from = end
	}
}

// Find is FindAll's first match; ok is false where there is none.
func Find(text, pattern string) (holes []string, ok bool) {
	pt := parsePattern(pattern)
	holes, _, ok = pt.next(text, 0)
	return holes, ok
}

// next is the first match in text[from:]: its holes, and where it ends.
func (pt *pattern) next(text string, from int) ([]string, int, bool) {
	var buf []string // made at the first hole read, kept for the next place tried
	for {
		i := strings.Index(text[from:], pt.lits[0])
		if i < 0 {
			return nil, 0, false
		}
		start := from + i
		if end, ok := pt.holesAt(text, start+len(pt.lits[0]), &buf); ok {
			if buf == nil {
				buf = []string{}
			}
			return buf, end, true
		}
		buf = buf[:0]
		from = start + 1
	}
}

// holesAt reads each hole and the text after it from text[at:], appending the holes to *buf.
func (pt *pattern) holesAt(text string, at int, buf *[]string) (end int, ok bool) {
	for k, h := range pt.holes {
		lit := pt.lits[k+1]
		e := at
		if h == 0 || h == 't' {
			// A hole of every byte but the one after it (a `{t}`'s is a backtick): IndexByte finds its end.
			e = len(text)
			if j := strings.IndexByte(text[at:], lit[0]); j >= 0 {
				e = at + j
			}
		} else {
			for e < len(text) && inHole(h, lit[0], text[e]) {
				e++
			}
		}
		if e == at || !strings.HasPrefix(text[e:], lit) {
			return 0, false
		}
		if *buf == nil {
			*buf = make([]string, 0, len(pt.holes))
		}
		*buf = append(*buf, text[at:e])
		at = e + len(lit)
	}
	return at, true
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
