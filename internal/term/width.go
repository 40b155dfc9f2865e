package term

import (
	"io"
	"os"
	"strconv"

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
