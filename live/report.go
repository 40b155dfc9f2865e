package live

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/runner"
)

// Report drives the agent o names through each scenario in turn and judges each run (`live`):
// one report of every verdict, known failures applied. Each scenario's recording and ACP
// transcript are kept in dir (<scenario>.jsonl, <scenario>.acp.log); with no dir they are judged,
// then go. A scenario not run makes the report's NotRun (said on o.Log); an error is a run that
// could not be made at all, said as `live` says it. An interrupt ends it after the scenario it cut short.
func Report(ctx context.Context, o Options, scs []*Scenario, dir string, expect *runner.Expectations) (*runner.Report, error) {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("--record: %v", err)
		}
	} else {
		tmp, err := os.MkdirTemp("", "lembas-live-rec-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	driven := "one-shot"
	if o.ACP {
		driven = "acp"
	}
	p := o.Profile
	rep := &runner.Report{Tool: "lembas-check", Version: o.Version, Spec: spec.Version(), Started: time.Now(),
		Target: runner.TargetInfo{Kind: "live", Command: o.Bin + " (" + driven + ")", Implementation: runner.Implementation{Name: p.Name, Version: p.Version}, Areas: []string{"live"}}}
	for _, sc := range scs {
		o.Scenario = sc
		o.Record = filepath.Join(dir, sc.Name+".jsonl")
		o.Transcript = filepath.Join(dir, sc.Name+".acp.log")
		start := time.Now()
		run, err := Drive(ctx, o)
		if err != nil {
			return nil, fmt.Errorf("live: %s: %v", sc.Name, err)
		}
		j, err := Judge(ctx, run)
		if err != nil {
			return nil, fmt.Errorf("live: judging %s: %v", sc.Name, err)
		}
		if run.AgentVersion != "" {
			rep.Target.Implementation.Version = run.AgentVersion
		}
		if j.NotRun != "" {
			// A scenario not run is a run not made: its verdicts are skips, and the run is
			// unfinished, whatever the other scenarios found.
			if o.Log != nil {
				fmt.Fprintf(o.Log, "lembas-check: live: %s: %s\n", sc.Name, j.NotRun)
			}
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
	return rep, nil
}
