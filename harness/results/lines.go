package results

import (
	"strings"
	"unicode/utf8"
)

// splitLines is a text's lines without their breaks. A line ends at "\n"; the break after the
// last line ends it and does not begin another, so "a\nb\n" and "a\nb" are both two lines and ""
// is none. A "\r" is part of its line. final says whether the text ends in a break.
func splitLines(s string) (lines []string, final bool) {
	if s == "" {
		return nil, false
	}
	final = strings.HasSuffix(s, "\n")
	if final {
		s = s[:len(s)-1]
	}
	return strings.Split(s, "\n"), final
}

// countLines is len(splitLines(s)) without building the lines.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// chars counts characters as code points; a byte that is not UTF-8 counts as one.
func chars(s string) int { return utf8.RuneCountInString(s) }

// firstChars is the first n characters of s (all of it when it is shorter).
func firstChars(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
