package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/report"
	"github.com/LLeMbas/lembas-check/runner/selection"
)

func cmdDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	cf := addCaseFlags(fs)
	af := addAdapterFlags(fs)
	a := fs.String("a", "builtin", "one implementation: `builtin`, an adapter command ('CMD ARGS'), or a JSON report saved by `run --format json`")
	b := fs.String("b", "", "the other, as --a")
	format := fs.String("format", "table", "report format: table, json (JSON lines), markdown or html (one self-contained page)")
	out := fs.String("out", "", "write the report to `FILE` (the table still goes to stdout)")
	verbose := fs.Bool("v", false, "list the cases only one side has, too")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 || *b == "" {
		return errorf(stderr, "usage: lembas-check diff --a X --b Y (each builtin, an adapter command, or a JSON report saved by `run --format json`)")
	}
	if !slices.Contains(report.DiffFormats, *format) {
		return errorf(stderr, "--format %q: want one of %s", *format, strings.Join(report.DiffFormats, ", "))
	}
	if err := af.check(); err != nil {
		return errorf(stderr, "%v", err)
	}
	var cases []conformance.Case
	load := func() ([]conformance.Case, error) {
		if cases != nil {
			return cases, nil
		}
		var err error
		cases, err = cf.load()
		return cases, err
	}
	var reports [2]*runner.Report
	for i, s := range []struct{ flag, spec string }{{"a", *a}, {"b", *b}} {
		rep, err := openSide(ctx, s.flag, s.spec, load, cf, af, stderr)
		if err != nil {
			return errorf(stderr, "--%s %v", s.flag, err)
		}
		reports[i] = rep
	}
	c := report.Compare(reports[0], reports[1])
	c.A.Label, c.B.Label = *a, *b
	if code := writeDiff(c, *format, *out, *verbose, stdout, stderr); code != 0 {
		return code
	}
	if c.Disagrees() {
		return 1
	}
	return 0
}

// openSide makes one side's report: the builtin or an adapter run on the chosen cases, or a saved
// report filtered by --area and --run.
func openSide(ctx context.Context, name, spec string, load func() ([]conformance.Case, error), cf *caseFlags, af *adapterFlags, stderr io.Writer) (*runner.Report, error) {
	var target runner.Target
	switch kind, err := sideKind(spec); {
	case err != nil:
		return nil, err
	case kind == "builtin":
		target = runner.Builtin{}
	case kind == "report":
		return readReport(spec, cf, stderr)
	default:
		a, err := runner.NewAdapter(spec, af.options())
		if err != nil {
			return nil, err
		}
		target = a
	}
	cases, err := load()
	if err != nil {
		return nil, err
	}
	return runTarget(ctx, target, runner.CaseItems(cases), runner.Options{Workers: af.jobs}, "diff "+name, stderr)
}

// sideKind tells what a --a/--b value names: "builtin"; "report", a file that starts with "{" as
// a JSON report does; else "adapter", a command line.
func sideKind(spec string) (string, error) {
	if spec == "builtin" {
		return "builtin", nil
	}
	st, err := os.Stat(spec)
	if err != nil || !st.Mode().IsRegular() {
		return "adapter", nil
	}
	f, err := os.Open(spec)
	if err != nil {
		return "", fmt.Errorf("%s: %v", spec, err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	if t := bytes.TrimSpace(head[:n]); len(t) > 0 && t[0] == '{' {
		return "report", nil
	}
	if st.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("%s: neither a JSON report saved by `run --format json` nor a program to run", spec)
	}
	return "adapter", nil
}

func readReport(path string, cf *caseFlags, stderr io.Writer) (*runner.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := report.ReadJSON(bufio.NewReader(f))
	if err != nil {
		if rep == nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		// A report cut short still holds every case it got to: compare those, and say so.
		fmt.Fprintf(stderr, "lembas-check: warning: %s: %v\n", path, err)
	}
	var g *selection.Glob
	if cf.run != "" {
		if g, err = selection.CompileGlob(cf.run); err != nil {
			return nil, fmt.Errorf("--run %q: %v", cf.run, err)
		}
	}
	return report.FilterReport(rep, cf.areas, g), nil
}

// writeDiff writes the comparison in the chosen format to --out or stdout; with --out, the table to
// stdout as well.
func writeDiff(c *report.Comparison, format, out string, verbose bool, stdout, stderr io.Writer) int {
	if out == "" {
		if err := report.WriteDiff(stdout, c, format, verbose); err != nil {
			return errorf(stderr, "%v", err)
		}
		return 0
	}
	f, err := os.Create(out)
	if err != nil {
		return errorf(stderr, "--out: %v", err)
	}
	if err := report.WriteDiff(f, c, format, verbose); err != nil {
		f.Close()
		return errorf(stderr, "%v", err)
	}
	if err := f.Close(); err != nil {
		return errorf(stderr, "--out: %v", err)
	}
	if format != "table" {
		if err := report.WriteDiffTable(stdout, c, verbose); err != nil {
			return errorf(stderr, "%v", err)
		}
	}
	return 0
}
