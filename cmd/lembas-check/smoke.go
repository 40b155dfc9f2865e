package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/LLeMbas/lembas-check/runner"
)

func cmdSmoke(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("smoke", stderr)
	cf := addCaseFlags(fs)
	af := addAdapterFlags(fs)
	impl := addCommandFlag(fs, "impl", "", "the adapter to check: `'CMD ARGS'`, split like shell words (no shell runs it)")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 || *impl == "" {
		return errorf(stderr, "usage: lembas-check smoke --impl 'CMD ARGS'")
	}
	if err := af.check(); err != nil {
		return errorf(stderr, "%v", err)
	}
	cases, err := cf.selected()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	a, err := runner.NewAdapter(*impl, af.options())
	if err != nil {
		return errorf(stderr, "--impl: %v", err)
	}
	failed := 0
	for _, c := range runner.Smoke(ctx, a, cases) {
		detail := strings.ReplaceAll(c.Detail, "\n", "\n"+strings.Repeat(" ", 29))
		fmt.Fprintf(stdout, "%-5s %-22s %s\n", c.Status, c.Step, detail)
		if c.Stderr != "" {
			fmt.Fprintf(stdout, "%28s stderr (tail):\n%s", "", indentLines(c.Stderr, strings.Repeat(" ", 33)))
		}
		if c.Status == runner.SmokeFail {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "FAIL\t%s: %d problem(s), each marked FAIL above\n", *impl, failed)
		return 1
	}
	fmt.Fprintf(stdout, "ok\t%s speaks the adapter protocol; `lembas-check run --impl …` runs the suite through it\n", *impl)
	return 0
}

func indentLines(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(prefix + l + "\n")
	}
	return b.String()
}
