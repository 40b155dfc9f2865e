package term

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// FORCE_COLOR and CLICOLOR_FORCE paint what goes to a pipe (a CI log that renders colour); "0"
// forces nothing; NO_COLOR wins over both.
func TestColourForcedInAPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"FORCE_COLOR": "1"}, true},
		{map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{map[string]string{"FORCE_COLOR": "3", "TERM": "dumb"}, true},
		{map[string]string{"FORCE_COLOR": "0"}, false},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false},
		{map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false},
		{map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false},
	} {
		for _, out := range []io.Writer{w, &bytes.Buffer{}} {
			_, got := Colour(out, func(k string) string { return c.env[k] }).(Writer)
			if got != c.want {
				t.Errorf("%v on %T: colour %v, want %v", c.env, out, got, c.want)
			}
		}
	}
}

// Fit cuts a line to the width by display columns, ending with …, never splitting a character;
// a line that fits is left whole.
func TestFit(t *testing.T) {
	for _, c := range []struct {
		s     string
		width int
		want  string
	}{
		{"0123456789", 10, "0123456789"},
		{"0123456789x", 10, "012345678…"},
		// 日本 are two columns each: 4 columns hold 日 and …, not half of 本.
		{"日本語です", 4, "日…"},
		{"日本語です", 5, "日本…"},
		// é as e and a combining accent: one character, kept whole.
		{"abe\u0301cd", 4, "abe\u0301…"},
		{"abc", 0, ""},
	} {
		got := Fit(c.s, c.width)
		if got != c.want || DisplayWidth(got) > c.width {
			t.Errorf("Fit(%q, %d) = %q (%d columns), want %q", c.s, c.width, got, DisplayWidth(got), c.want)
		}
	}
}

// The width is COLUMNS where the output is not a terminal, else 100.
func TestWidthNotATerminal(t *testing.T) {
	for cols, want := range map[string]int{"": 100, "80": 80, "x": 100, "-3": 100} {
		if got := Width(&bytes.Buffer{}, func(string) string { return cols }); got != want {
			t.Errorf("COLUMNS=%q: %d, want %d", cols, got, want)
		}
	}
}
