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
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/selection"
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
				return 0, fmt.Errorf("%s: no such file, and not a command on PATH (a side is builtin, an adapter command, or a report saved by `run --format json`)", spec)
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
		return nil, fmt.Errorf("%s: a damaged report: %v; save it again with `run --format json --out` and let the run finish", path, err)
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
	return runner.RunShown(ctx, target, runner.CaseItems(cases), runner.Options{Workers: o.Adapter.Jobs}, o.Label, o.Log)
}
