package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/live"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/live/livetarget"
	"github.com/LLeMbas/lembas-check/internal/report"
	"github.com/LLeMbas/lembas-check/runner"
)

func cmdLive(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("live", stderr)
	st := live.Settings{Log: stderr, Tool: tool, Version: runner.ToolVersion}
	fs.StringVar(&st.Agent, "agent", "",
		"the agent: a profile `NAME` ("+strings.Join(agents.Names(), ", ")+"), a profile FILE (.json), "+
			"or a command 'CMD ARGS'")
	fs.StringVar(&st.Profile, "profile", "",
		"the agent profile `NAME` (or FILE) of --agent's command; none: run the command with no profile")
	fs.BoolVar(&st.ACP, "acp", false, "drive it over ACP (the default when its profile has an ACP command)")
	fs.BoolVar(&st.Oneshot, "oneshot", false,
		"drive it one prompt at a time (the default when it has neither an ACP nor an RPC command)")
	fs.BoolVar(&st.A2A, "a2a", false,
		"drive it as an A2A server, its profile's a2a command (the default when it has no other)")
	fs.BoolVar(&st.HTTP, "http", false,
		"drive it as a server through its own HTTP API, its profile's http section (docs/live.md)")
	fs.Var((*repeatFlag)(&st.Scenarios), "scenario", "a built-in scenario `NAME` ("+strings.Join(live.Scenarios(),
		", ")+") or a scenario FILE (repeatable; default: every built-in one)")
	fs.StringVar(&st.Record, "record", "",
		"keep each scenario's recording in `DIR` (<scenario>.jsonl), and its transcript beside it "+
			"(<scenario>.<acp|rpc|one-shot>.log)")
	fs.StringVar(&st.Cassette, "cassette", "",
		"answer each scenario from its recording in `DIR` (an earlier --record's)")
	fs.DurationVar(&st.StepTimeout, "timeout", 5*time.Minute, "the longest one prompt may take")
	var strict bool
	addStrictFlag(fs, &strict, true)
	field := fs.String("field-report", "",
		"run every profiled agent (or those --agent names, comma-separated) through the midnight, mode and "+
			"compaction scenarios and write the field report to `FILE` (docs/field-report.md)")
	rf := addReportFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "live takes no arguments (got %q): name the agent with --agent", pos)
	}
	if *field != "" {
		return fieldReport(ctx, *field, st.Agent, st.StepTimeout, stdout, stderr)
	}
	if _, err := report.Formats.Lookup(rf.Format); err != nil {
		return errorf(stderr, "%v", err)
	}
	// A live run not made still writes its report, saying ERROR and why (rf.notMade).
	who := runner.Unstarted("--agent", st.Agent)
	expect, err := rf.expectations()
	if err != nil {
		return rf.notMade(stdout, stderr, runner.NotMade(who, nil, err.Error(), false))
	}
	if err := format.MakeDir("--record", st.Record); err != nil {
		return rf.notMade(stdout, stderr, runner.NotMade(who, nil, err.Error(), false))
	}
	st.Lax, st.Stream, st.Verbose = !strict, rf.Stream(stdout), rf.Verbose
	rep, err := st.Run(ctx, expect)
	if err != nil {
		return rf.notMade(stdout, stderr, runner.NotMade(who, nil, err.Error(), false))
	}
	if err := rf.Write(stdout, stderr, rep, expect, "verdict"); err != nil {
		return errorf(stderr, "%v", err)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "lembas-check: live: interrupted")
		return 2
	}
	return report.Status(rep).Code()
}

// fieldReport is live --field-report (livetarget.FieldReport).
func fieldReport(ctx context.Context, file, names string, timeout time.Duration, stdout, stderr io.Writer) int {
	n, whole, err := livetarget.FieldReport(ctx, livetarget.FieldOptions{File: file, Agents: names, Timeout: timeout,
		Log: stderr, Tool: tool, Version: runner.ToolVersion})
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d agents\n", file, n)
	if !whole {
		return 2
	}
	return 0
}
