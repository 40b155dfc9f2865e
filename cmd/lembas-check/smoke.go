package main

import (
	"context"
	"io"

	"github.com/LLeMbas/lembas-check/internal/report"
	"github.com/LLeMbas/lembas-check/runner"
)

func cmdSmoke(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("smoke", stderr)
	cf := addCaseFlags(fs)
	af := addAdapterFlags(fs)
	impl := addCommandFlag(fs, "impl", "",
		"the adapter to check: `'CMD ARGS'`, split like shell words (no shell runs it)")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 || *impl == "" {
		return errorf(stderr, "usage: lembas-check smoke --impl 'CMD ARGS'")
	}
	if err := af.Check(); err != nil {
		return errorf(stderr, "%v", err)
	}
	cases, err := cf.selected()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	a, err := runner.NewAdapter(*impl, *af)
	if err != nil {
		return errorf(stderr, "--impl: %v", err)
	}
	checks := runner.Smoke(ctx, a, cases)
	if err := report.WriteSmoke(stdout, *impl, checks); err != nil {
		return errorf(stderr, "%v", err)
	}
	return report.SmokeStatus(checks).Code()
}
