package term

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
)

// DefaultWidth is the width of output that is not a terminal and gives no COLUMNS.
const DefaultWidth = 100

// Width is how many columns w shows: the terminal's own (TIOCGWINSZ; the console's on Windows)
// when w is one, else COLUMNS (getenv reads the environment: os.Getenv), else DefaultWidth.
// It is read anew at each call, so a caller that asks at each redraw follows a resize.
func Width(w io.Writer, getenv func(string) string) int {
	if f, ok := w.(*os.File); ok && IsTerminal(w) {
		if n := fdWidth(f.Fd()); n > 0 {
			return n
		}
	}
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return DefaultWidth
}

// Ellipsis ends a line cut by Fit.
const Ellipsis = "…"

// Fit is s cut to width display columns (a wide character counts two), ending with Ellipsis; it
// never splits a character (a grapheme: a letter with its accents, an emoji with its joiners).
// s without control characters: escapes and tabs are not measured.
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return runewidth.Truncate(s, width, Ellipsis)
}

// DisplayWidth is how many columns s takes.
func DisplayWidth(s string) int { return runewidth.StringWidth(s) }

// Words is s wrapped at spaces to lines of width display columns, each line after the first
// starting with indent (a word wider than a line stands alone on its line); s's leading spaces
// are kept.
func Words(s string, width int, indent string) string {
	var b strings.Builder
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	b.WriteString(lead)
	col := len(lead)
	for i, word := range strings.Fields(s) {
		n := DisplayWidth(word)
		switch {
		case i == 0:
		case col+1+n > width:
			b.WriteString("\n" + indent)
			col = DisplayWidth(indent)
		default:
			b.WriteString(" ")
			col++
		}
		b.WriteString(word)
		col += n
	}
	return b.String()
}
