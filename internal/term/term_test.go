//go:build unix

package term

import (
	"bytes"
	"os"
	"testing"

	"github.com/creack/pty"
)

// A terminal (a pty) takes colour unless NO_COLOR is set or TERM is dumb; a pipe, a file or a
// buffer never does.
func TestColourOnlyOnATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("SKIP: no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if !IsTerminal(tty) {
		t.Fatal("a pty is not a terminal")
	}
	if _, ok := Colour(tty, env(nil)).(Writer); !ok {
		t.Error("no colour on a terminal")
	}
	for _, e := range []map[string]string{{"NO_COLOR": "1"}, {"TERM": "dumb"}, {"NO_COLOR": "1", "FORCE_COLOR": "1"}, {"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}} {
		if _, ok := Colour(tty, env(e)).(Writer); ok {
			t.Errorf("colour with %v", e)
		}
	}
	if _, ok := Colour(tty, env(map[string]string{"TERM": "dumb", "CLICOLOR_FORCE": "1"})).(Writer); !ok {
		t.Error("no colour with CLICOLOR_FORCE on a dumb terminal")
	}
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	for _, out := range []any{w, devnull, &bytes.Buffer{}} {
		if _, ok := Colour(out.(interface{ Write([]byte) (int, error) }), env(nil)).(Writer); ok {
			t.Errorf("colour on %T", out)
		}
	}
	if got := Paint(&bytes.Buffer{}, Red, "FAIL"); got != "FAIL" {
		t.Errorf("%q", got)
	}
	if got := Diff(Writer{&bytes.Buffer{}}, "+ x"); got != "\x1b[32m+ x\x1b[0m" {
		t.Errorf("%q", got)
	}
	for word, want := range map[string]string{"ok": "\x1b[32mok\x1b[0m", "--- ALLOWED:": "\x1b[33m--- ALLOWED:\x1b[0m", "--- BREAK:": "\x1b[31m--- BREAK:\x1b[0m", "ERROR": "\x1b[33mERROR\x1b[0m"} {
		if got := Word(Writer{&bytes.Buffer{}}, word); got != want {
			t.Errorf("%q: %q", word, got)
		}
	}
	if got := Line(Writer{&bytes.Buffer{}}, "FAIL\tx.jsonl\t3 requests"); got != "\x1b[31mFAIL\x1b[0m\tx.jsonl\t3 requests" {
		t.Errorf("%q", got)
	}
}

// A terminal's width is its own (TIOCGWINSZ), read anew after a resize, whatever COLUMNS says.
func TestWidthOfATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("SKIP: no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	cols := func(string) string { return "80" }
	for _, n := range []uint16{100, 37} {
		if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: n}); err != nil {
			t.Fatal(err)
		}
		if got := Width(tty, cols); got != int(n) {
			t.Errorf("width %d, want %d", got, n)
		}
	}
}

// A summary's fields past the width go on in lines after a tab; a field too wide for a line is
// cut after "; " (issue 27: summary lines of 130 to 250 columns).
func TestWrapKeepsTheSummaryWithinTheWidth(t *testing.T) {
	got := Wrap("first field\tsecond field is here\tthird; and its second part", 2, 30)
	want := "\tfirst field\n\tsecond field is here\n\tthird;\n\tand its second part"
	if got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
