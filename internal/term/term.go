// Package term says what the terminal lembas-check writes to can do — redraw a line in place
// (progress), how wide it is (Width), show colour (reports) — and paints a report's words: ok and
// pass green, FAIL red, ERROR and skips yellow, a diff's removed lines red and added lines green.
// Colour is shown on a terminal whose TERM is not "dumb", or anywhere FORCE_COLOR or
// CLICOLOR_FORCE asks for it (a CI log that renders colour), and never when NO_COLOR is set
// (no-color.org), which wins over both; a report written to a file by --out is never painted.
package term

import (
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
)

// IsTerminal says whether w is a terminal, where a line can be redrawn in place.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// Writer is output that takes colour: a report's writer paints its words only when it is given
// one. Colour makes it for a terminal.
type Writer struct{ io.Writer }

// Colour is w as a Writer when w should show colour (getenv reads the environment: os.Getenv),
// else w itself: never with NO_COLOR set; always with FORCE_COLOR or CLICOLOR_FORCE set (to
// anything but "0"), even in a pipe or with TERM=dumb; otherwise on a terminal not dumb.
func Colour(w io.Writer, getenv func(string) string) io.Writer {
	switch {
	case getenv("NO_COLOR") != "":
		return w
	case forced(getenv("FORCE_COLOR")) || forced(getenv("CLICOLOR_FORCE")):
		return Writer{w}
	case !IsTerminal(w) || getenv("TERM") == "dumb":
		return w
	}
	return Writer{w}
}

// forced says whether a FORCE_COLOR or CLICOLOR_FORCE value asks for colour: set, and not "0"
// (bixense.com/clicolors; FORCE_COLOR=0 is how Node's tools say "no").
func forced(v string) bool { return v != "" && v != "0" }

// A Hue is one of the few colours a report uses.
type Hue string

// The hues, as SGR parameters.
const (
	Green  Hue = "32"
	Red    Hue = "31"
	Yellow Hue = "33"
	Bold   Hue = "1"
)

// Paint is s in hue when w takes colour, else s as it is.
func Paint(w io.Writer, h Hue, s string) string {
	if _, ok := w.(Writer); !ok || s == "" {
		return s
	}
	return "\x1b[" + string(h) + "m" + s + "\x1b[0m"
}

// Word is a summary's or a heading's status word painted by what it says: ok, PASS and XFAIL green;
// FAIL, XPASS, BREAK, DISAGREE and the verdicts of a case that went wrong red; ERROR, SKIP,
// ALLOWED, INTERRUPTED and ONLY IN yellow.
// The word may be a heading's, "--- FAIL:".
func Word(w io.Writer, word string) string {
	switch strings.TrimSuffix(strings.TrimPrefix(word, "--- "), ":") {
	case "ok", "PASS", "XFAIL", "AGREE":
		return Paint(w, Green, word)
	case "ERROR", "SKIP", "ALLOWED", "INTERRUPTED", "ONLY IN A", "ONLY IN B", "SKIPPED BY BOTH":
		return Paint(w, Yellow, word)
	}
	return Paint(w, Red, word)
}

// Line is a summary line with its first word — up to the first tab: "ok", "FAIL", "ERROR" —
// painted as Word paints it, and its tab-separated fields laid out within w's width (Width): a
// field that would pass it starts a line of its own, after a tab, so that a terminal of 100
// columns wraps none of it (issue 27: 130 to 250 columns) and the line is read back whole by
// joining each line that starts with a tab to the one before.
func Line(w io.Writer, line string) string {
	word, rest, ok := strings.Cut(line, "\t")
	if !ok {
		return line
	}
	under := w
	if t, ok := w.(Writer); ok {
		under = t.Writer
	}
	return Word(w, word) + Wrap(rest, len(word), Width(under, os.Getenv))
}

// Wrap is the tab-separated fields of a line that began with `used` columns, each after a tab,
// a field that would pass width after a newline and a tab instead of on the line so far; a field
// too wide for a line of its own is cut after each "; " in it (and a part still too wide after
// each ", "), its parts on one line after a space.
func Wrap(fields string, used, width int) string {
	var b strings.Builder
	col := used
	for _, f := range strings.Split(fields, "\t") {
		for i, p := range pieces(f, width-8) {
			sep, at := "\t", (col/8+1)*8 // the tab stop a field starts at
			if i > 0 {
				sep, at = " ", col+1
			}
			if col != 8 && at+DisplayWidth(p) > width {
				b.WriteString("\n")
				sep, at = "\t", 8
			}
			b.WriteString(sep + p)
			col = at + DisplayWidth(p)
		}
	}
	return b.String()
}

// pieces is a field cut for lines of width: whole when it fits, else after each "; ", a part
// still too wide after each ", " (the space after the cut left out).
func pieces(f string, width int) []string {
	if DisplayWidth(f) <= width {
		return []string{f}
	}
	var out []string
	for _, p := range strings.SplitAfter(f, "; ") {
		if DisplayWidth(p) <= width {
			out = append(out, strings.TrimSuffix(p, " "))
			continue
		}
		for _, q := range strings.SplitAfter(p, ", ") {
			out = append(out, strings.TrimSuffix(q, " "))
		}
	}
	return out
}

// Diff is a diff line painted by its mark (its first byte): "-" red, "+" green.
func Diff(w io.Writer, line string) string {
	if line == "" {
		return line
	}
	switch line[0] {
	case '-':
		return Paint(w, Red, line)
	case '+':
		return Paint(w, Green, line)
	}
	return line
}
