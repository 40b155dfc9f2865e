package main

import (
	"context"
	"io"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/report"
)

func cmdDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	cf := addCaseFlags(fs)
	af := addAdapterFlags(fs)
	a := addCommandFlag(fs, "a", "builtin",
		"one implementation `X`: builtin, an adapter command ('CMD ARGS'), or a JSON report saved by run --format json")
	b := addCommandFlag(fs, "b", "", "the other implementation `Y`, as --a")
	form := fs.String("format", "table", "report `FORMAT`: "+report.DiffFormats.Help())
	out := fs.String("out", "", format.OutUsage)
	verbose := fs.Bool("v", false, "list the cases only one side has, too")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 || *b == "" {
		return errorf(stderr,
			"usage: lembas-check diff --a X --b Y (each builtin, an adapter command, or a JSON report saved by "+
				"`run --format json`)")
	}
	if _, err := report.DiffFormats.Lookup(*form); err != nil {
		return errorf(stderr, "%v", err)
	}
	if err := af.Check(); err != nil {
		return errorf(stderr, "%v", err)
	}
	sel, err := cf.selection()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	var cases []conformance.Case // loaded once, for the sides that run
	load := func() (_ []conformance.Case, err error) {
		if cases == nil {
			cases, err = cf.selected()
		}
		return cases, err
	}
	o := format.Output{Format: *form, Out: *out, Verbose: *verbose}
	d := report.DiffRun{A: *a, B: *b, Sel: sel, Side: report.SideOptions{Adapter: *af, Cases: load, Log: stderr},
		Output: o}
	c, err := d.Run(ctx, stdout)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	return report.DiffStatus(c).Code()
}
