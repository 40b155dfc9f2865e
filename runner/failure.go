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
	fmt.Fprintf(w, "%s %s (%s)%s\n", term.Word(w, "--- "+strings.ToUpper(string(x.Verdict))+":"), x.Case.ID, table.Millis(x.Duration), tail)
}

// WriteFailure writes Failure to w, its verdict and diff lines in colour when w takes it
// (internal/term).
func (x Result) WriteFailure(w io.Writer) {
	x.WriteHeading(w, "")
	fmt.Fprintf(w, "    %s\n", x.Case.Where())
	if x.Case.About != "" {
		fmt.Fprintf(w, "    %s\n", x.Case.About)
	}
	if note := x.ExpectNote(); note != "" {
		fmt.Fprintf(w, "    %s\n", note)
		if x.Verdict == UnlistedSkip {
			return // nothing was sent: no answer, no diff
		}
	}
	fmt.Fprintf(w, "    case:   %s\n", table.JSON(x.Case.Input, "            "))
	fmt.Fprintf(w, "    want:   %s\n", table.JSON(x.Case.Expect, "            "))
	if x.Answer != nil {
		fmt.Fprintf(w, "    got:    %s\n", table.JSON(x.Answer, "            "))
	}
	if x.Message != "" {
		fmt.Fprintf(w, "    %s: %s\n", x.Verdict, x.Message)
	}
	if x.Diff != "" {
		// go-cmp's report, read by its first column and without its non-breaking spaces.
		fmt.Fprintf(w, "    diff (-want +got):\n")
		for _, l := range textdiff.Cmp(x.Diff) {
			fmt.Fprintf(w, "        %s\n", term.Diff(w, l.Text))
		}
	}
	WriteStderr(w, "    ", x.Stderr)
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
		x.WriteHeading(w, x.suffix())
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
		return fmt.Sprintf("skipped (%s), and the expectations file does not list it: list it as `%s skip WHY`, or make the target answer it", why, x.Case.ID)
	case x.Verdict == XPass && strings.HasPrefix(x.Expected, skipWord+": "):
		return fmt.Sprintf("listed as skipped (%s) but it was checked and passes: take it off the expectations file", strings.TrimPrefix(x.Expected, skipWord+": "))
	case x.Verdict == XPass:
		return fmt.Sprintf("listed as a known failure (%s) but it passes: take it off the expectations file", x.Expected)
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
