package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/LLeMbas/lembas-check/livetarget"

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

// expectations are the known failures --expect names (nil without it).
func (r *reportFlags) expectations() (*runner.Expectations, error) {
	if r.expect == "" {
		return nil, nil
	}
	e, err := runner.LoadExpectations(r.expect)
	return e, format.FileErr("--expect", r.expect, err)
}

// write writes the report as the flags say, after a warning for each known failure that
// matched no result (of what: "case", "verdict").
func (r *reportFlags) write(stdout, stderr io.Writer, rep *runner.Report, expect *runner.Expectations, what string) error {
	for _, p := range expect.Unused() {
		fmt.Fprintf(stderr, "lembas-check: warning: --expect %s: %s matched no %s of this run\n", r.expect, p, what)
	}
	o := format.Output{Format: r.format, Out: r.out, Verbose: r.verbose}
	return format.Write(report.Formats, o, rep, stdout, func(w io.Writer, rep *runner.Report) error { return report.WriteTable(w, rep, r.verbose) })
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	cf := addCaseFlags(fs)
	rf := addReportFlags(fs)
	af := addAdapterFlags(fs)
	impl := addCommandFlag(fs, "impl", "", "run an implementation through its adapter: `'CMD ARGS'`, split like shell words (no shell runs it); see docs/protocol.md")
	ff := addFeatureFlag(fs)
	lf := addLiveFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "run takes no arguments (got %q); cases are chosen with --area, --run and --suite", pos)
	}
	if err := af.Check(); err != nil {
		return errorf(stderr, "%v", err)
	}
	if _, err := report.Formats.Lookup(rf.format); err != nil {
		return errorf(stderr, "%v", err)
	}
	items, err := loadItems(cf, ff)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	expect, err := rf.expectations()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	target := runner.Target(runner.Builtin{})
	workers := af.Jobs
	switch {
	case lf.Agent != "" && *impl != "":
		return errorf(stderr, "--live and --impl: give one target")
	case lf.Agent != "":
		var timeout time.Duration // --timeout bounds each case only when given
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "timeout" {
				timeout = af.Timeout
			}
		})
		t, err := lf.Target(timeout, runner.ToolVersion)
		if err != nil {
			return errorf(stderr, "--live: %v", err)
		}
		target, workers = t, 1
	case lf.Profile != "":
		return errorf(stderr, "--profile names the profile of --live's harness: give --live too")
	}
	if *impl != "" {
		a, err := runner.NewAdapter(*impl, *af)
		if err != nil {
			return errorf(stderr, "--impl: %v", err)
		}
		target = a
	}
	// A hello that fails is an error here: the run could not be made (exit 2).
	rep, err := runner.RunShown(ctx, target, items, runner.Options{Expect: expect, Workers: workers}, "run", stderr)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	if err := rf.write(stdout, stderr, rep, expect, "case"); err != nil {
		return errorf(stderr, "%v", err)
	}
	return report.Status(rep).Code()
}

// addLiveFlags adds the flags that choose a live harness as run's target (docs/live.md).
func addLiveFlags(fs *flag.FlagSet) *livetarget.Settings {
	l := &livetarget.Settings{}
	fs.StringVar(&l.Agent, "live", "", "run the cases against a live harness, the fake as its model: an agent profile `NAME`, a profile FILE (.json), or 'CMD ARGS' ('lembas-check agent': the reference agent); see docs/live.md")
	fs.StringVar(&l.Profile, "profile", "", "the agent profile `NAME` (or FILE) of --live's command: how to point it at the fake, its tools' calls; none: run the command with no profile")
	fs.BoolVar(&l.OneShot, "oneshot", false, "drive --live's harness one prompt at a time, even where its profile has an ACP command")
	fs.StringVar(&l.Keep, "keep", "", "keep what --live's harness sent the fake (requests.jsonl) and the ACP transcript in `DIR`")
	return l
}
