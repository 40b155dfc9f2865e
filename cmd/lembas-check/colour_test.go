//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// On a terminal the report is in colour (issue 16: no colour anywhere); with NO_COLOR set, or
// written to a pipe or a file, it is not.
func TestReportColourOnATerminal(t *testing.T) {
	run := func(noColor string) string {
		t.Setenv("NO_COLOR", noColor)
		t.Setenv("TERM", "xterm")
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skipf("SKIP: no pty: %v", err)
		}
		defer ptmx.Close()
		read := make(chan string)
		go func() {
			b, _ := io.ReadAll(ptmx)
			read <- string(b)
		}()
		var errb bytes.Buffer
		code := dispatch(context.Background(), []string{"run", "--area", "jobs"}, tty, &errb)
		tty.Close()
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return <-read
	}
	if s := run(""); !strings.Contains(s, "\x1b[32mok\x1b[0m\t") {
		t.Errorf("no colour on a terminal:\n%q", s)
	}
	if s := run("1"); strings.Contains(s, "\x1b[") || !strings.Contains(s, "ok\t") {
		t.Errorf("colour with NO_COLOR:\n%q", s)
	}
	_, out, _ := runCLI(t, "run", "--area", "jobs")
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colour in a buffer:\n%q", out)
	}
}
