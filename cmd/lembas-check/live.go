package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/agents"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/live"
	"github.com/LLeMbas/lembas-check/livetarget"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/report"
)

func cmdLive(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("live", stderr)
	agent := fs.String("agent", "", "the agent: a profile `NAME` ("+strings.Join(agents.Names(), ", ")+"), a profile FILE (.json), or a command 'CMD ARGS'")
	overACP := fs.Bool("acp", false, "drive it over ACP (the default when its profile has an ACP command)")
	oneshot := fs.Bool("oneshot", false, "drive it one prompt at a time (the default when it has no ACP command)")
	var scenarios repeatFlag
	fs.Var(&scenarios, "scenario", "a built-in scenario `NAME` ("+strings.Join(live.Scenarios(), ", ")+") or a scenario FILE (repeatable; default: every built-in one)")
	recDir := fs.String("record", "", "keep each scenario's recording in `DIR` (<scenario>.jsonl), and the ACP transcript beside it")
	timeout := fs.Duration("timeout", 5*time.Minute, "the longest one prompt may take")
	var strict bool
	addStrictFlag(fs, &strict, true)
	field := fs.String("field-report", "", "run every profiled agent (or those --agent names, comma-separated) through the midnight, mode and compaction scenarios and write the field report to `FILE` (docs/field-report.md)")
	rf := addReportFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "live takes no arguments (got %q): name the agent with --agent", pos)
	}
	if *field != "" {
		return fieldReport(ctx, *field, *agent, *timeout, stdout, stderr)
	}
	if *agent == "" {
		return errorf(stderr, "live: --agent is required: a profile (%s), a profile file, or 'CMD ARGS'", strings.Join(agents.Names(), ", "))
	}
	if *overACP && *oneshot {
		return errorf(stderr, "live: --acp and --oneshot: give one")
	}
	var expect *runner.Expectations
	if rf.expect != "" {
		if expect, err = runner.LoadExpectations(rf.expect); err != nil {
			return errorf(stderr, "%v", format.FileErr("--expect", rf.expect, err))
		}
	}
	if _, err := report.Formats.Lookup(rf.format); err != nil {
		return errorf(stderr, "%v", err)
	}
	p, bin, err := liveAgent(*agent)
	if err != nil {
		return errorf(stderr, "live: %v", err)
	}
	useACP := p.ACP != nil && !*oneshot
	if *overACP && p.ACP == nil {
		return errorf(stderr, "live: the %s profile has no ACP command: drive it with --oneshot", p.Name)
	}
	if !useACP && p.Oneshot == nil {
		return errorf(stderr, "live: the %s profile has no one-shot command: drive it with --acp", p.Name)
	}
	if len(scenarios) == 0 {
		scenarios = live.Scenarios()
	}
	var scs []*live.Scenario
	for _, s := range scenarios {
		sc, err := live.LoadScenario(s)
		if err != nil {
			return errorf(stderr, "--scenario %v", err)
		}
		scs = append(scs, sc)
	}
	o := live.Options{Profile: p, Bin: bin, ACP: useACP, StepTimeout: *timeout, Lax: !strict, Log: stderr, Tool: tool, Version: runner.ToolVersion}
	rep, err := live.Report(ctx, o, scs, *recDir, expect)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	for _, p := range expect.Unused() {
		fmt.Fprintf(stderr, "lembas-check: warning: --expect %s: %s matched no verdict of this run\n", rf.expect, p)
	}
	out := format.Output{Format: rf.format, Out: rf.out, Verbose: rf.verbose}
	if err := format.Write(report.Formats, out, rep, stdout, func(w io.Writer, r *runner.Report) error { return report.WriteTable(w, r, rf.verbose) }); err != nil {
		return errorf(stderr, "%v", err)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "lembas-check: live: interrupted")
		return 2
	}
	return report.Status(rep).Code()
}

// liveAgent is --agent's profile and program: a profile by name or file, else a command.
func liveAgent(s string) (*agents.Profile, string, error) { return agents.Resolve(s, "") }

// fieldReport is live --field-report (livetarget.FieldReport).
func fieldReport(ctx context.Context, file, names string, timeout time.Duration, stdout, stderr io.Writer) int {
	n, whole, err := livetarget.FieldReport(ctx, livetarget.FieldOptions{File: file, Agents: names, Timeout: timeout, Log: stderr, Tool: tool, Version: runner.ToolVersion})
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d agents\n", file, n)
	if !whole {
		return 2
	}
	return 0
}
