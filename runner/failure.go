package runner

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/term"
	"github.com/LLeMbas/lembas-check/internal/textdiff"
)

// Name is how reports name the target: the implementation, its version, and the command for an
// adapter.
func (t TargetInfo) Name() string {
	name := t.Implementation.Name
	if t.Implementation.Version != "" {
		name += " " + t.Implementation.Version
	}
	if t.Command != "" {
		name += " (" + t.Command + ")"
	}
	return name
}

// Failure is the result as `go test` shows a failure: the verdict and the case, where it is, want,
// got, the diff and the tail of the adapter's stderr. Reports and TestTarget show it.
func (x Result) Failure() string {
	var b strings.Builder
	x.WriteFailure(&b)
	return b.String()
}

// WriteHeading writes the line `go test` heads a test's result with — "--- FAIL: ID (1.2ms)",
// the verdict in colour when w takes it — with tail after the time (a skip's reason).
func (x Result) WriteHeading(w io.Writer, tail string) {
	fmt.Fprintf(w, "%s %s (%s)%s\n", term.Word(w, "--- "+strings.ToUpper(string(x.Verdict))+":"), x.Case.ID,
		table.Millis(x.Duration), tail)
}

// WriteFailure writes Failure to w, its verdict and diff lines in colour when w takes it
// (internal/term).
func (x Result) WriteFailure(w io.Writer) { x.writeFailure(w, false) }

// FailureText is Failure with the case, want and got as text, a field a line and a string's
// lines as lines (table.Text), and their line diff (-want +got) instead of go-cmp's report: for
// a viewer that shows a body as it is (JUnit), where one line of escaped JSON is unreadable.
func (x Result) FailureText() string {
	var b strings.Builder
	x.writeFailure(&b, true)
	return b.String()
}

func (x Result) writeFailure(w io.Writer, text bool) {
	x.WriteHeading(w, "")
	fmt.Fprintf(w, "    %s\n", x.Case.Where())
	if title := x.Case.Title(); title != "" {
		fmt.Fprintf(w, "    %s\n", title)
	}
	if note := x.ExpectNote(); note != "" {
		fmt.Fprintf(w, "    %s\n", note)
		if x.Verdict == UnlistedSkip {
			return // nothing was sent: no answer, no diff
		}
	}
	marked := false
	show := func(name string, raw []byte) {
		if text {
			s, m := textdiff.VisibleText(table.Text(raw))
			marked = marked || m
			fmt.Fprintf(w, "    %s:\n%s", name, table.Indent(s, "        "))
			return
		}
		fmt.Fprintf(w, "    %-7s %s\n", name+":", table.JSON(raw, "            "))
	}
	show("case", x.Case.Input)
	show("want", x.Case.Expect)
	if x.Answer != nil {
		show("got", x.Answer)
	}
	if x.Message != "" {
		fmt.Fprintf(w, "    %s: %s\n", x.Verdict, x.Message)
	}
	x.writeDiff(w, text)
	if marked {
		fmt.Fprintf(w, "    %s\n", textdiff.Legend)
	}
	WriteStderr(w, "    ", x.Stderr)
}

// writeDiff writes what differs: go-cmp's report, read by its first column and without its
// non-breaking spaces; as text, the line diff of want and got as text.
func (x Result) writeDiff(w io.Writer, text bool) {
	if x.Diff == "" {
		return
	}
	lines := textdiff.Cmp(x.Diff)
	if text && x.Answer != nil {
		want, _ := textdiff.VisibleText(table.Text(x.Case.Expect))
		got, _ := textdiff.VisibleText(table.Text(x.Answer))
		lines = textdiff.Lines(strings.Split(want, "\n"), strings.Split(got, "\n"))
		for i, l := range lines {
			lines[i].Text = string(l.Op) + " " + l.Text
		}
	}
	fmt.Fprintf(w, "    diff (-want +got):\n")
	for _, l := range lines {
		fmt.Fprintf(w, "        %s\n", term.Diff(w, l.Text))
	}
}

// WriteShown writes what a person is shown of the result as it ends, the one place a run's
// table and its stream decide it: a verdict that fails the run whole (WriteFailure); with verbose
// every other verdict's heading, with why (a skip's reason, a pass's evidence).
func (x Result) WriteShown(w io.Writer, verbose bool) {
	switch {
	case x.Verdict == Interrupted:
		if verbose {
			fmt.Fprintf(w, "--- INTERRUPTED: %s: %s\n", x.Case.ID, x.Message)
		}
	case x.Verdict.Failed():
		x.WriteFailure(w)
	case verbose:
		tail := x.suffix()
		if title := x.Case.Title(); title != "" {
			tail = " — " + title + tail
		}
		x.WriteHeading(w, tail)
	}
}

// Stream writes WriteShown's text to w in one Write (StreamTo).
func (x Result) Stream(w io.Writer, verbose bool) {
	StreamTo(w, func(w io.Writer) { x.WriteShown(w, verbose) })
}

// StreamTo writes what write writes to w in one Write, so that a writer that puts it above a
// progress line (Progress.Above) erases and redraws the line once; colour as w takes it.
func StreamTo(w io.Writer, write func(io.Writer)) {
	var b bytes.Buffer
	var bw io.Writer = &b
	if _, ok := w.(term.Writer); ok {
		bw = term.Writer{Writer: &b}
	}
	write(bw)
	if b.Len() > 0 {
		w.Write(b.Bytes())
	}
}

// suffix is what follows a heading that is not a failure's: why it was skipped or expected to
// fail, what a pass rests on.
func (x Result) suffix() string {
	switch {
	case x.Verdict == Skip && x.Expected != "":
		return ": " + x.Message + " (expected: " + x.Expected + ")"
	case x.Verdict == Skip && x.Message != "":
		return ": " + x.Message
	case x.Expected != "":
		return ": expected to fail: " + x.Expected
	case x.Verdict == Pass && x.Evidence != "":
		return ": " + x.Evidence
	}
	return ""
}

// ExpectNote says why the expectations file (--expect) made this verdict fail the run: an
// unlisted skip, or an xpass (a listed failure or skip that passes); "" for any other verdict.
func (x Result) ExpectNote() string {
	switch {
	case x.Verdict == UnlistedSkip:
		why := x.Message
		if why == "" {
			why = "no reason given"
		}
		return fmt.Sprintf("skipped (%s), and the expectations file does not list it: list it as `%s skip WHY`, or "+
			"make the target answer it", why, x.Case.ID)
	case x.Verdict == XPass && strings.HasPrefix(x.Expected, skipWord+": "):
		return fmt.Sprintf("listed as skipped (%s) but it was checked and passes: take it off the expectations file",
			strings.TrimPrefix(x.Expected, skipWord+": "))
	case x.Verdict == XPass:
		return fmt.Sprintf("listed as a known failure (%s) but it passes: take it off the expectations file",
			x.Expected)
	}
	return ""
}

// WriteStderr writes the tail of what a target wrote on stderr as a failure or a disagreement
// shows it, under indent: its last stderrLines lines ("" writes nothing).
func WriteStderr(w io.Writer, indent, stderr string) {
	if stderr != "" {
		fmt.Fprintf(w, "%sstderr (tail):\n%s", indent, table.Indent(lastLines(stderr, stderrLines), indent+"    "))
	}
}

// stderrLines is how much of an adapter's stderr a person is shown with a failure.
const stderrLines = 20

// lastLines keeps the last n lines of s, after a "…" line when it cut (the JSON report keeps
// the whole tail the runner kept).
func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\n' {
			n--
			if n == 0 {
				return "…\n" + s[i+1:]
			}
		}
	}
	return s
}
