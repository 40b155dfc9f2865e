package report

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/selection"
	"github.com/LLeMbas/lembas-check/internal/term"
	"github.com/LLeMbas/lembas-check/runner"
)

// Source is what one side of a diff (--a, --b) names.
type Source int

const (
	// Builtin is the reference, named "builtin".
	Builtin Source = iota
	// Saved is a JSON report saved by `run --format json`.
	Saved
	// Command is an adapter command line.
	Command
)

// SourceOf tells what a side names: "builtin"; a saved report, a regular file whose first
// non-space byte is "{" as a JSON report's is; else an adapter command. A file that is neither a
// report nor a program, or a single word that is no file and no command on PATH, is an error that
// says so.
func SourceOf(spec string) (Source, error) {
	if spec == "builtin" {
		return Builtin, nil
	}
	st, err := os.Stat(spec)
	if err != nil {
		// A word with no space or quote is a file or a program: say which it is not.
		if !strings.ContainsAny(spec, " \t'\"\\") {
			if _, lerr := exec.LookPath(spec); lerr != nil {
				return 0,
					fmt.Errorf("%s: no such file, and not a command on PATH (a side is builtin, an adapter command, "+
						"or a report saved by `run --format json`)", spec)
			}
		}
		return Command, nil
	}
	if !st.Mode().IsRegular() {
		return Command, nil
	}
	f, err := os.Open(spec)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", spec, err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	if t := bytes.TrimSpace(head[:n]); len(t) > 0 && t[0] == '{' {
		return Saved, nil
	}
	if st.Mode().Perm()&0o111 == 0 {
		return 0, fmt.Errorf("%s: neither a JSON report saved by `run --format json` nor a program to run", spec)
	}
	return Command, nil
}

// ReadFile reads a saved JSON report. Any fault is an error naming the file; a report cut short,
// even at a line boundary (no footer line), is damaged: what it lacks was not checked, and a diff
// against it would count those cases as on one side only (issue 21: it was a warning, exit 0).
func ReadFile(path string) (*runner.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := ReadJSON(bufio.NewReader(f))
	switch {
	case err != nil && rep != nil:
		return nil,
			fmt.Errorf("%s: a damaged report: %v; save it again with `run --format json --out` and let the run finish",
				path, err)
	case err != nil:
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rep, nil
}

// SideOptions are what a side of a diff that runs needs.
type SideOptions struct {
	Adapter runner.AdapterOptions
	// Cases are the selected cases, asked for only when a side runs (once: the caller keeps them).
	Cases func() ([]conformance.Case, error)
	// Label names the side on the progress line ("diff a").
	Label string
	// Log gets the progress line.
	Log io.Writer
	// Stream and Show are runner.Options': how a side that runs shows each case as it ends.
	Stream io.Writer
	Show   func(io.Writer, runner.Result)
}

// OpenSide makes one side's report: the builtin or an adapter run on the selected cases, or a
// saved report's results the selection holds.
func OpenSide(ctx context.Context, spec string, sel selection.Selection, o SideOptions) (*runner.Report, error) {
	src, err := SourceOf(spec)
	if err != nil {
		return nil, err
	}
	var target runner.Target = runner.Builtin{}
	switch src {
	case Saved:
		rep, err := ReadFile(spec)
		if err != nil {
			return nil, err
		}
		if rep, err = Select(sel, rep); err != nil {
			return nil, fmt.Errorf("%s: %v", spec, err)
		}
		return rep, nil
	case Command:
		if target, err = runner.NewAdapter(spec, o.Adapter); err != nil {
			return nil, err
		}
	}
	cases, err := o.Cases()
	if err != nil {
		return nil, err
	}
	return runner.RunShown(ctx, target, runner.CaseItems(cases), runner.Options{Workers: o.Adapter.Jobs,
		Stream: o.Stream, Show: o.Show}, o.Label, o.Log)
}

// DiffRun is `diff`'s settings: the two sides as given (--a, --b), the selection, how a side
// runs, and how the report is written.
type DiffRun struct {
	A, B   string
	Sel    selection.Selection
	Side   SideOptions
	Output format.Output
}

// Run makes both sides' reports, compares them and writes the comparison to stdout as Output
// says. While b runs, each case that fails the diff is shown as it ends (a's report is known by
// then), as go test streams a failure, and the table at the end leaves it out. An error names the
// side (--a, --b) whose report could not be made.
func (d DiffRun) Run(ctx context.Context, stdout io.Writer) (*Comparison, error) {
	var reports [2]*runner.Report
	var streamed bool
	for i, s := range []struct{ flag, spec string }{{"a", d.A}, {"b", d.B}} {
		o := d.Side
		o.Label = "diff " + s.flag
		if i == 1 && d.Output.Out == "" && d.Output.Format == DiffFormats[0].Name {
			o.Stream, o.Show = term.Colour(stdout, os.Getenv), d.streamed(reports[0])
			streamed = true
		}
		rep, err := OpenSide(ctx, s.spec, d.Sel, o)
		if err != nil {
			return nil, fmt.Errorf("--%s %v", s.flag, err)
		}
		reports[i] = rep
	}
	c := Compare(reports[0], reports[1])
	c.A.Label, c.B.Label = d.A, d.B
	c.Streamed = streamed && reports[1].Streamed
	return c, format.Write(DiffFormats, d.Output, c, stdout, func(w io.Writer, c *Comparison) error {
		return WriteDiffTable(w, c, d.Output.Verbose)
	})
}

// streamed shows a case of b's run as the diff's table shows it when it fails the diff, compared
// with a's result; b is named as given, its hello not yet known here.
func (d DiffRun) streamed(a *runner.Report) func(io.Writer, runner.Result) {
	inA := map[string]*runner.Result{}
	for i := range a.Results {
		inA[a.Results[i].Case.ID] = &a.Results[i]
	}
	c := &Comparison{A: Side{Label: d.A, Target: a.Target}, B: Side{Label: d.B}}
	return func(w io.Writer, rb runner.Result) {
		dc := compareOne(inA[rb.Case.ID], &rb)
		if dc.fails() {
			writeFailing(w, c, dc)
			fmt.Fprintln(w)
		}
	}
}
