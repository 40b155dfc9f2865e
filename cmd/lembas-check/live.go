package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/agents"
	"github.com/LLeMbas/lembas-check/harness/spec"
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
	if *recDir != "" {
		if err := os.MkdirAll(*recDir, 0o755); err != nil {
			return errorf(stderr, "--record: %v", err)
		}
	} else {
		// The recordings are judged after each run, then go.
		tmp, err := os.MkdirTemp("", "lembas-live-rec-")
		if err != nil {
			return errorf(stderr, "%v", err)
		}
		defer os.RemoveAll(tmp)
		*recDir = tmp
	}
	driven := "one-shot"
	if useACP {
		driven = "acp"
	}
	rep := &runner.Report{Tool: "lembas-check", Version: runner.ToolVersion, Spec: spec.Version(), Started: time.Now(),
		Target: runner.TargetInfo{Kind: "live", Command: bin + " (" + driven + ")", Implementation: runner.Implementation{Name: p.Name, Version: p.Version}, Areas: []string{"live"}}}
	for _, sc := range scs {
		o := live.Options{Profile: p, Bin: bin, ACP: useACP, Scenario: sc, StepTimeout: *timeout, Lax: !strict, Log: stderr, Tool: tool, Version: runner.ToolVersion}
		o.Record = filepath.Join(*recDir, sc.Name+".jsonl")
		o.Transcript = filepath.Join(*recDir, sc.Name+".acp.log")
		start := time.Now()
		run, err := live.Drive(ctx, o)
		if err != nil {
			return errorf(stderr, "live: %s: %v", sc.Name, err)
		}
		j, err := live.Judge(ctx, run)
		if err != nil {
			return errorf(stderr, "live: judging %s: %v", sc.Name, err)
		}
		if run.AgentVersion != "" {
			rep.Target.Implementation.Version = run.AgentVersion
		}
		if j.NotRun != "" {
			// A scenario not run is a run not made: its verdicts are skips, and the run is
			// unfinished, whatever the other scenarios found.
			fmt.Fprintf(stderr, "lembas-check: live: %s: %s\n", sc.Name, j.NotRun)
			rep.NotRun = append(rep.NotRun, sc.Name+": "+strings.TrimPrefix(j.NotRun, "not run: "))
		}
		for _, x := range j.Results {
			x.Duration = time.Since(start) / time.Duration(len(j.Results))
			expect.Apply(&x)
			if x.Verdict.Failed() && run.Stderr != "" {
				x.Stderr = run.Stderr
			}
			rep.Results = append(rep.Results, x)
		}
		if ctx.Err() != nil {
			break
		}
	}
	rep.Duration = time.Since(rep.Started)
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

// fieldReport drives each profiled agent through the field report's scenarios — over ACP where
// its profile has an ACP command — and writes one row per agent. An agent not installed is a row
// that says so: the report never counts what was not run.
func fieldReport(ctx context.Context, file, names string, timeout time.Duration, stdout, stderr io.Writer) int {
	list := agents.Names()
	if names != "" {
		list = strings.Split(names, ",")
	}
	var rows []live.FieldRow
	code := 0
	for _, name := range list {
		p, err := agents.Builtin(strings.TrimSpace(name))
		if err != nil {
			return errorf(stderr, "live: %v", err)
		}
		bin, err := p.Find()
		if err != nil {
			fmt.Fprintf(stderr, "lembas-check: live: %v\n", err)
			rows = append(rows, live.FieldRow{Agent: p.Name, Version: p.Version, API: p.API, Note: "not run: " + err.Error()})
			code = 2
			continue
		}
		outs := map[string]live.Outcome{}
		for _, s := range live.FieldScenarios {
			sc, err := live.LoadScenario(s)
			if err != nil {
				return errorf(stderr, "%v", err)
			}
			work, err := os.MkdirTemp("", "lembas-field-")
			if err != nil {
				return errorf(stderr, "%v", err)
			}
			run, err := live.Drive(ctx, live.Options{Profile: p, Bin: bin, ACP: p.ACP != nil, Scenario: sc, StepTimeout: timeout, Log: stderr,
				Tool: tool, Version: runner.ToolVersion, Work: work})
			if err != nil {
				os.RemoveAll(work)
				return errorf(stderr, "live: %s, %s: %v", p.Name, s, err)
			}
			j, err := live.Judge(ctx, run)
			os.RemoveAll(work)
			if err != nil {
				return errorf(stderr, "live: judging %s, %s: %v", p.Name, s, err)
			}
			outs[s] = live.Outcome{Run: run, Judgement: j}
			if j.NotRun != "" {
				code = 2 // its row says so; the report is written, but the run is not whole
			}
			if ctx.Err() != nil {
				return errorf(stderr, "live: interrupted; %s not written", file)
			}
		}
		row := live.Row(outs)
		// The conformance cases through the live target (run --live): its counts are a second table.
		fmt.Fprintf(stderr, "lembas-check live: %s: the conformance cases through the live target (run --live %s)\n", p.Name, p.Name)
		if row.Cases, err = livetarget.Field(ctx, livetarget.Options{Profile: p, Bin: bin, OneShot: p.ACP == nil, Timeout: timeout, Version: runner.ToolVersion}); err != nil {
			row.Cases = &live.Cases{Note: "not run: " + err.Error()}
		}
		rows = append(rows, row)
	}
	f, err := os.Create(file)
	if err != nil {
		return errorf(stderr, "--field-report: %v", err)
	}
	how := "lembas-check live --field-report " + filepath.ToSlash(file)
	if names != "" {
		how += " --agent " + names
	}
	if err := live.WriteFieldReport(f, rows, how); err != nil {
		f.Close()
		return errorf(stderr, "--field-report: %v", err)
	}
	if err := f.Close(); err != nil {
		return errorf(stderr, "--field-report: %v", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d agents\n", file, len(rows))
	return code
}
