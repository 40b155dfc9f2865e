package report

import (
	"fmt"
	"io"
	"os"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/term"
	"github.com/LLeMbas/lembas-check/runner"
)

// Output is where and how a run's report goes, as run's and live's flags say: the format and
// file (format.Output), and the expectations files, --expect's (for its warnings) and
// --write-expect's.
type Output struct {
	format.Output
	Expect, WriteExpect string
}

// Write writes rep as o says: on stderr a warning for each --expect entry that matched no result
// (of what: "case", "verdict") and the skips it does not list; the baseline --write-expect asks
// for (never from a run not made or not finished); then the report, its summary on stdout.
func (o Output) Write(stdout, stderr io.Writer, rep *runner.Report, expect *runner.Expectations, what string) error {
	for _, p := range expect.Unused() {
		fmt.Fprintf(stderr, "lembas-check: warning: --expect %s: %s matched no %s of this run\n", o.Expect, p, what)
	}
	if s := UnlistedSkips(rep); s != "" {
		fmt.Fprintf(stderr, "lembas-check: --expect %s: %s\n", o.Expect, s)
	}
	if o.WriteExpect != "" && Status(rep) != format.Unfinished {
		if err := format.WriteFile("--write-expect", o.WriteExpect,
			func(w io.Writer) error { return runner.WriteExpectations(w, rep) }); err != nil {
			return err
		}
	}
	if rep.Streamed && o.Out == "" && o.Format == Formats[0].Name {
		// Each case's verdict was shown as it ended (Stream): the table and the summary are left.
		return writeTable(term.Colour(stdout, os.Getenv), rep, o.Verbose, false)
	}
	return format.Write(Formats, o.Output, rep, stdout, func(w io.Writer,
		rep *runner.Report) error {
		return WriteTable(w, rep, o.Verbose)
	})
}

// Stream is where a run shows each verdict as its case ends (runner.Options.Stream): stdout,
// painted as the table is, when it carries the table or the summary; nil when stdout is the
// report of another format (JSON, JUnit, markdown), which a verdict would break.
func (o Output) Stream(stdout io.Writer) io.Writer {
	if o.Out == "" && o.Format != Formats[0].Name {
		return nil
	}
	return term.Colour(stdout, os.Getenv)
}
