package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/livetarget"

	"github.com/LLeMbas/lembas-check/internal/cli"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/report"
	"github.com/LLeMbas/lembas-check/runner"
)

// reportFlags are the flags that say how a run's report is written, shared by run and live.
type reportFlags struct{ report.Output }

func addReportFlags(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
}) *reportFlags {
	r := &reportFlags{}
	fs.StringVar(&r.Format, "format", "table", "report `FORMAT`: "+report.Formats.Help())
	fs.StringVar(&r.Out, "out", "", format.OutUsage)
	fs.BoolVar(&r.Verbose, "v", false, "list every case, not only failures")
	fs.StringVar(&r.Expect, "expect", "",
		"known failures and skips: `FILE` of id (or glob) and reason per line (`skip` first for a known skip), or a "+
			"JSON object id → reason; a skip it does not list fails the run")
	fs.StringVar(&r.WriteExpect, "write-expect", "",
		"write the run's failures and skips to `FILE` as --expect reads them (a baseline)")
	return r
}

// expectations are the known failures --expect names (nil without it).
func (r *reportFlags) expectations() (*runner.Expectations, error) {
	if r.Expect == "" {
		return nil, nil
	}
	e, err := runner.LoadExpectations(r.Expect)
	return e, format.FileErr("--expect", r.Expect, err)
}

// runGCPercent is run's GOGC. A run of the embedded suite is a process of some 20 ms that
// allocates about 6 MB: at the default 100 the collector ran three or four times and cost about a
// quarter of the process's CPU; at 400 it does not run (docs/performance.md). A longer run (an
// adapter, --live) keeps a small live heap too. GOGC in the environment still wins.
const runGCPercent = 400

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(runGCPercent)
	}
	fs := newFlags("run", stderr)
	cf := addCaseFlags(fs)
	rf := addReportFlags(fs)
	af := addAdapterFlags(fs)
	impl := addCommandFlag(fs, "impl", "",
		"run an implementation through its adapter: `'CMD ARGS'`, split like shell words (no shell runs it); see "+
			"docs/protocol.md")
	ff := addFeatureFlag(fs)
	lf := addLiveFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if _, err := report.Formats.Lookup(rf.Format); err != nil {
		return errorf(stderr, "%v", err)
	}
	// From here on a run not made still writes its report, saying ERROR and why (rf.notMade).
	who := runner.Unstarted("--impl", *impl, "--live", lf.Agent)
	fail := func(f string, a ...any) int {
		return rf.notMade(stdout, stderr, runner.NotMade(who, nil, fmt.Sprintf(f, a...), false))
	}
	if len(pos) > 0 {
		return fail("run takes no arguments (got %q); cases are chosen with --area, --run and --suite", pos)
	}
	if err := af.Check(); err != nil {
		return fail("%v", err)
	}
	items, err := loadItems(cf, ff)
	if err != nil {
		return fail("%v", err)
	}
	expect, err := rf.expectations()
	if err != nil {
		return fail("%v", err)
	}
	target, workers, err := runTarget(fs, af, lf, *impl)
	if err != nil {
		return fail("%v", err)
	}
	// A hello that fails is an error here: the run could not be made (exit 2).
	rep, err := runner.RunShown(ctx, target, items, runner.Options{Expect: expect, Workers: workers,
		Stream: rf.Stream(stdout), Verbose: rf.Verbose}, "run", stderr)
	if err != nil {
		return rf.notMade(stdout, stderr, runner.NotMade(who, items, err.Error(), ctx.Err() != nil))
	}
	if err := rf.Write(stdout, stderr, rep, expect, "case"); err != nil {
		return errorf(stderr, "%v", err)
	}
	return report.Status(rep).Code()
}

// runTarget is the target run's flags name: --live's harness, --impl's adapter, or the builtin
// reference, and how many cases it takes at once.
func runTarget(fs *flag.FlagSet, af *runner.AdapterOptions, lf *livetarget.Settings, impl string) (runner.Target, int,
	error) {
	switch {
	case lf.Agent != "" && impl != "":
		return nil, 0, errors.New("--live and --impl: give one target")
	case lf.Agent != "":
		var timeout time.Duration // --timeout bounds each case only when given
		if cli.Given(fs, "timeout") {
			timeout = af.Timeout
		}
		t, err := lf.Target(timeout, runner.ToolVersion)
		if err != nil {
			return nil, 0, fmt.Errorf("--live: %v", err)
		}
		return t, 1, nil
	case lf.Profile != "":
		return nil, 0, errors.New("--profile names the profile of --live's harness: give --live too")
	case impl != "":
		a, err := runner.NewAdapter(impl, *af)
		if err != nil {
			return nil, 0, fmt.Errorf("--impl: %v", err)
		}
		return a, af.Jobs, nil
	}
	if !cli.Given(fs, "jobs") {
		// The builtin's cases are pure functions: one worker per CPU, as go test runs packages.
		return runner.Builtin{}, runtime.GOMAXPROCS(0), nil
	}
	return runner.Builtin{}, af.Jobs, nil
}

// notMade ends a run that could not be made (runner.NotMade): the report the flags promise is
// written, saying ERROR and why (never left as an older run's), and the error goes to stderr.
func (r *reportFlags) notMade(stdout, stderr io.Writer, rep *runner.Report) int {
	if err := r.Write(stdout, stderr, rep, nil, ""); err != nil {
		fmt.Fprintf(stderr, "lembas-check: %v\n", err)
	}
	return errorf(stderr, "%s", rep.NotRun[0])
}

// addLiveFlags adds the flags that choose a live harness as run's target (docs/live.md).
func addLiveFlags(fs *flag.FlagSet) *livetarget.Settings {
	l := &livetarget.Settings{}
	cli.CommandTo(fs, &l.Agent, "live",
		"run the cases against a live harness, the fake as its model: an agent profile `NAME`, a profile FILE "+
			"(.json), or 'CMD ARGS' ('lembas-check agent': the reference agent); see docs/live.md")
	fs.StringVar(&l.Profile, "profile", "",
		"the agent profile `NAME` (or FILE) of --live's command: how to point it at the fake, its tools' calls; "+
			"none: run the command with no profile")
	fs.BoolVar(&l.OneShot, "oneshot", false,
		"drive --live's harness one prompt at a time, even where its profile has an ACP command")
	fs.StringVar(&l.Transport, "transport", "",
		"drive --live's harness over `NAME`: acp, one-shot, a2a (its profile's a2a command: an A2A server) or http "+
			"(its profile's http section); default acp where it has one")
	fs.StringVar(&l.Keep, "keep", "",
		"keep what --live's harness sent the fake (requests.jsonl) and the ACP transcript in `DIR`")
	return l
}
