package main

import (
	"context"
	"fmt"
	"io"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/report"
	"github.com/LLeMbas/lembas-check/runner/selection"
)

func cmdDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	cf := addCaseFlags(fs)
	af := addAdapterFlags(fs)
	a := addCommandFlag(fs, "a", "builtin", "one implementation `X`: builtin, an adapter command ('CMD ARGS'), or a JSON report saved by run --format json")
	b := addCommandFlag(fs, "b", "", "the other implementation `Y`, as --a")
	form := fs.String("format", "table", "report `FORMAT`: "+report.DiffFormats.Help())
	out := fs.String("out", "", "write the report to `FILE` (the table still goes to stdout)")
	verbose := fs.Bool("v", false, "list the cases only one side has, too")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 || *b == "" {
		return errorf(stderr, "usage: lembas-check diff --a X --b Y (each builtin, an adapter command, or a JSON report saved by `run --format json`)")
	}
	if _, err := report.DiffFormats.Lookup(*form); err != nil {
		return errorf(stderr, "%v", err)
	}
	if err := af.check(); err != nil {
		return errorf(stderr, "%v", err)
	}
	sel, err := cf.selection()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	var cases []conformance.Case // loaded once, for the live sides
	var reports [2]*runner.Report
	for i, s := range []struct{ flag, spec string }{{"a", *a}, {"b", *b}} {
		rep, err := openSide(ctx, s.flag, s.spec, sel, &cases, cf, af, stderr)
		if err != nil {
			return errorf(stderr, "--%s %v", s.flag, err)
		}
		reports[i] = rep
	}
	c := report.Compare(reports[0], reports[1])
	c.A.Label, c.B.Label = *a, *b
	o := format.Output{Format: *form, Out: *out, Verbose: *verbose}
	if err := format.Write(report.DiffFormats, o, c, stdout, func(w io.Writer, c *report.Comparison) error { return report.WriteDiffTable(w, c, *verbose) }); err != nil {
		return errorf(stderr, "%v", err)
	}
	return report.DiffStatus(c).Code()
}

// openSide makes one side's report: the builtin or an adapter run on the selected cases, or a saved
// report's results the selection holds.
func openSide(ctx context.Context, name, spec string, sel selection.Selection, cases *[]conformance.Case, cf *caseFlags, af *adapterFlags, stderr io.Writer) (*runner.Report, error) {
	src, err := report.SourceOf(spec)
	if err != nil {
		return nil, err
	}
	var target runner.Target = runner.Builtin{}
	switch src {
	case report.Saved:
		rep, err := report.ReadFile(spec)
		if rep == nil {
			return nil, err
		}
		if err != nil {
			// A report cut short still holds every case it got to: compare those, and say so.
			fmt.Fprintf(stderr, "lembas-check: warning: %v\n", err)
		}
		if rep, err = report.Select(sel, rep); err != nil {
			return nil, fmt.Errorf("%s: %v", spec, err)
		}
		return rep, nil
	case report.Command:
		if target, err = runner.NewAdapter(spec, af.options()); err != nil {
			return nil, err
		}
	}
	if *cases == nil {
		if *cases, err = cf.selected(); err != nil {
			return nil, err
		}
	}
	return runTarget(ctx, target, runner.CaseItems(*cases), runner.Options{Workers: af.jobs}, "diff "+name, stderr)
}
