package main

import (
	"context"
	"fmt"
	"io"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/report"
)

// reportFlags are the flags that say how a report is written, shared by run and diff.
type reportFlags struct {
	format  string
	out     string
	verbose bool
	expect  string
}

func addReportFlags(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
}) *reportFlags {
	r := &reportFlags{}
	fs.StringVar(&r.format, "format", "table", "report `FORMAT`: "+report.Formats.Help())
	fs.StringVar(&r.out, "out", "", "write the report to `FILE` (the table summary still goes to stdout)")
	fs.BoolVar(&r.verbose, "v", false, "list every case, not only failures")
	fs.StringVar(&r.expect, "expect", "", "known failures: `FILE` of id (or glob) and reason per line, or a JSON object id → reason")
	return r
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	cf := addCaseFlags(fs)
	rf := addReportFlags(fs)
	af := addAdapterFlags(fs)
	impl := addCommandFlag(fs, "impl", "", "run an implementation through its adapter: `'CMD ARGS'`, split like shell words (no shell runs it); see docs/protocol.md")
	ff := addFeatureFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "run takes no arguments (got %q); cases are chosen with --area, --run and --suite", pos)
	}
	if err := af.check(); err != nil {
		return errorf(stderr, "%v", err)
	}
	if _, err := report.Formats.Lookup(rf.format); err != nil {
		return errorf(stderr, "%v", err)
	}
	items, err := loadItems(cf, ff)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	var expect *runner.Expectations
	if rf.expect != "" {
		if expect, err = runner.LoadExpectations(rf.expect); err != nil {
			return errorf(stderr, "%v", format.FileErr("--expect", rf.expect, err))
		}
	}
	target := runner.Target(runner.Builtin{})
	if *impl != "" {
		a, err := runner.NewAdapter(*impl, af.options())
		if err != nil {
			return errorf(stderr, "--impl: %v", err)
		}
		target = a
	}
	// A hello that fails is an error here: the run could not be made (exit 2).
	rep, err := runTarget(ctx, target, items, runner.Options{Expect: expect, Workers: af.jobs}, "run", stderr)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	for _, p := range expect.Unused() {
		fmt.Fprintf(stderr, "lembas-check: warning: --expect %s: %s matched no case of this run\n", rf.expect, p)
	}
	out := format.Output{Format: rf.format, Out: rf.out, Verbose: rf.verbose}
	if err := format.Write(report.Formats, out, rep, stdout, func(w io.Writer, r *runner.Report) error { return report.WriteTable(w, r, rf.verbose) }); err != nil {
		return errorf(stderr, "%v", err)
	}
	return report.Status(rep).Code()
}
