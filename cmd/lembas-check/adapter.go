package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/LLeMbas/lembas-check/internal/progress"
	"github.com/LLeMbas/lembas-check/runner"
)

// addAdapterFlags adds the flags of the commands that start adapters: run, diff and smoke.
func addAdapterFlags(fs *flag.FlagSet) *runner.AdapterOptions {
	o := &runner.AdapterOptions{}
	fs.DurationVar(&o.Timeout, "timeout", runner.DefaultTimeout, "an adapter's time to answer hello, and each case")
	fs.IntVar(&o.Jobs, "jobs", 1,
		"run `N` adapter processes at once, each case going to one (the builtin: N workers, one per CPU if not given)")
	return o
}

// cmdAdapter serves the builtin reference over the adapter protocol on stdin and stdout, so the
// adapter path can be checked end to end: `run --impl 'lembas-check adapter'` must give the
// builtin's verdicts, and its transcript is the protocol's example (docs/protocol.md).
func cmdAdapter(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("adapter", stderr)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "adapter takes no arguments (got %q): it reads protocol lines on stdin", pos)
	}
	if progress.IsTerminal(os.Stdin) {
		fmt.Fprintln(
			stderr,
			`lembas-check adapter: reading adapter protocol lines on stdin (docs/protocol.md), `+
				`e.g. {"cmd": "hello", "protocol": 1}; Ctrl-D ends`,
		)
	}
	// A read of stdin does not see ctx; an interrupt must still end the command.
	stop := context.AfterFunc(ctx, func() {
		fmt.Fprintln(stderr, "lembas-check adapter: interrupted")
		os.Exit(2)
	})
	defer stop()
	if err := runner.Serve(ctx, os.Stdin, stdout, runner.Builtin{}); err != nil {
		return errorf(stderr, "adapter: %v", err)
	}
	return 0
}
