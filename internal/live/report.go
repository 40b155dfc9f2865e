package live

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/runner"
)

// Settings are `live`'s settings as a person gives them (its flags; docs/live.md), all but the
// field report and how the report is written.
type Settings struct {
	// Agent is a profile's name, a profile file, or a command 'CMD ARGS'; Profile the profile of
	// that command ("none": none, agents.NoProfile).
	Agent, Profile string
	// ACP and Oneshot force how it is driven (default: over ACP where its profile can, else over
	// its RPC mode, else one-shot).
	ACP, Oneshot bool
	// A2A drives it as an A2A server (the profile's a2a command); the default for a profile
	// that has no other.
	A2A bool
	// HTTP drives it through its profile's http section.
	HTTP bool
	// Scenarios are built-in names or files (default: every built-in one).
	Scenarios []string
	// Record keeps each scenario's recording and ACP transcript in this folder.
	Record string
	// Cassette is a folder of an earlier Record: each scenario is answered from its recording
	// there (Options.Cassette).
	Cassette    string
	StepTimeout time.Duration
	Lax         bool
	Log         io.Writer
	Tool        string
	Version     string
	// Stream and Verbose are Options'.
	Stream  io.Writer
	Verbose bool
}

// Run checks the settings, finds the agent, loads the scenarios and drives them into one report
// (Report). Its errors are said as `live` says them.
func (s Settings) Run(ctx context.Context, expect *runner.Expectations) (*runner.Report, error) {
	if s.Agent == "" {
		return nil, fmt.Errorf("live: --agent is required: a profile (%s), a profile file, or 'CMD ARGS'",
			strings.Join(agents.Names(), ", "))
	}
	if s.ACP && s.Oneshot {
		return nil, fmt.Errorf("live: --acp and --oneshot: give one")
	}
	p, bin, err := agents.Resolve(s.Agent, s.Profile)
	if err != nil {
		return nil, fmt.Errorf("live: %v", err)
	}
	useA2A, err := s.UseA2A(p)
	if err != nil {
		return nil, err
	}
	if s.HTTP && p.HTTP == nil {
		return nil, fmt.Errorf("live: the %s profile has no http section (docs/live.md): drive it another way", p.Name)
	}
	var useACP, useRPC bool
	if !useA2A && !s.HTTP {
		if useACP, useRPC, err = s.How(p); err != nil {
			return nil, err
		}
	}
	names := s.Scenarios
	if len(names) == 0 {
		names = Scenarios()
	}
	var scs []*Scenario
	for _, n := range names {
		sc, err := LoadScenario(n)
		if err != nil {
			return nil, fmt.Errorf("--scenario %v", err)
		}
		scs = append(scs, sc)
	}
	o := Options{Profile: p, Bin: bin, ACP: useACP, RPC: useRPC, A2A: useA2A, HTTP: s.HTTP, StepTimeout: s.StepTimeout,
		Lax: s.Lax, Log: s.Log, Tool: s.Tool, Version: s.Version, Stream: s.Stream, Verbose: s.Verbose,
		Cassette: s.Cassette}
	if s.Cassette != "" && s.Record != "" && filepath.Clean(s.Cassette) == filepath.Clean(s.Record) {
		return nil, fmt.Errorf("live: --record %s is the --cassette: keep the new recordings elsewhere", s.Record)
	}
	return Report(ctx, o, scs, s.Record, expect)
}

// UseA2A says whether the agent of profile p is driven as an A2A server: --a2a as given, or a
// profile that has no other way.
func (s Settings) UseA2A(p *agents.Profile) (bool, error) {
	switch {
	case s.A2A && (s.ACP || s.Oneshot):
		return false, fmt.Errorf("live: --transport a2a with --acp or --oneshot: give one")
	case s.A2A && p.A2A == nil:
		return false, fmt.Errorf("live: the %s profile has no a2a command (docs/live.md): drive it another way", p.Name)
	}
	return s.A2A || p.A2A != nil && p.ACP == nil && p.RPC == nil && p.Oneshot == nil, nil
}

// How is how the agent of profile p is driven (live, and the field report's runs): --acp or --oneshot as given, else
// over ACP where
// the profile has an ACP command, else over its RPC mode (one process for the session, as a
// person's), else one-shot.
func (s Settings) How(p *agents.Profile) (useACP, useRPC bool, err error) {
	useACP = p.ACP != nil && !s.Oneshot
	useRPC = !useACP && p.RPC != nil && !s.Oneshot
	if s.ACP && p.ACP == nil {
		return false, false, fmt.Errorf("live: the %s profile has no ACP command: drive it with --oneshot", p.Name)
	}
	if !useACP && !useRPC && p.Oneshot == nil {
		return false, false, fmt.Errorf("live: the %s profile has no one-shot command: drive it with --acp", p.Name)
	}
	return useACP, useRPC, nil
}

// Report drives the agent o names through each scenario in turn and judges each run (`live`):
// one report of every verdict, known failures applied. Each scenario's recording and ACP
// transcript are kept in dir (<scenario>.jsonl, <scenario>.<acp|rpc|one-shot>.log); with no dir they are judged,
// then go. A scenario not run makes the report's NotRun (said on o.Log); an error is a run that
// could not be made at all, said as `live` says it. An interrupt ends it after the scenario it cut short.
func Report(ctx context.Context, o Options, scs []*Scenario, dir string, expect *runner.Expectations) (*runner.Report,
	error) {
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
	driven := o.Driven()
	p := o.Profile
	rep := &runner.Report{Tool: "lembas-check", Version: o.Version, Spec: spec.Version(), Started: time.Now(),
		Target: runner.TargetInfo{Kind: "live", Command: o.Bin + " (" + driven + ")",
			Implementation: runner.Implementation{Name: p.Name, Version: p.Version}, Areas: []string{"live"}},
		Streamed: o.Stream != nil}
	for _, sc := range scs {
		o.Scenario = sc
		o.Record = filepath.Join(dir, sc.Name+".jsonl")
		o.Transcript = filepath.Join(dir, sc.Name+"."+driven+".log")
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
			if o.Stream != nil {
				x.Stream(o.Stream, o.Verbose)
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	rep.Duration = time.Since(rep.Started)
	return rep, nil
}
