package livetarget

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/runner"
)

// FieldOptions say which agents the field report runs, and where it goes.
type FieldOptions struct {
	// File is the report's path (live --field-report FILE).
	File string
	// Agents are the profiles' names, comma-separated (live --agent); "": every built-in profile.
	Agents string
	// Timeout bounds one prompt, and each case of the live target.
	Timeout time.Duration
	// Log gets what happens, for a person watching.
	Log io.Writer
	// Tool is lembas-check's name and version, Version its version.
	Tool, Version string
}

// FieldReport drives each profiled agent through the field report's scenarios — over ACP where
// its profile has an ACP command, else over its RPC mode, else one-shot — and the conformance
// cases through the live target, and writes one row per agent to o.File (docs/field-report.md).
// An agent not installed is a row that says so: the report never counts what was not run, and
// whole is false then (as when a scenario was not run). It returns how many rows it wrote; an
// error, said as `live` says it, is a report not written.
func FieldReport(ctx context.Context, o FieldOptions) (rows int, whole bool, err error) {
	list := agents.Names()
	if o.Agents != "" {
		list = strings.Split(o.Agents, ",")
	}
	var out []live.FieldRow
	whole = true
	for _, name := range list {
		p, err := agents.Builtin(strings.TrimSpace(name))
		if err != nil {
			return 0, false, fmt.Errorf("live: %v", err)
		}
		bin, err := p.Find()
		if err != nil {
			fmt.Fprintf(o.Log, "lembas-check: live: %v\n", err)
			out = append(out, live.FieldRow{Agent: p.Name, Version: p.Version, API: p.API,
				Note: "not run: " + err.Error()})
			whole = false
			continue
		}
		how, err := fieldHow(p)
		if err != nil {
			return 0, false, err
		}
		outs, all, err := fieldRuns(ctx, o, p, bin, how)
		if err != nil {
			return 0, false, err
		}
		whole = whole && all
		row := live.Row(outs)
		// The conformance cases through the live target (run --live): its counts are a second table.
		fmt.Fprintf(o.Log, "lembas-check live: %s: the conformance cases through the live target (run --live %s)\n",
			p.Name, p.Name)
		if row.Cases, err = Field(ctx, Options{Profile: p, Bin: bin, OneShot: p.ACP == nil && p.A2A == nil,
			A2A: p.ACP == nil && p.A2A != nil, Timeout: o.Timeout, Version: o.Version}); err != nil {
			row.Cases = &live.Cases{Note: "not run: " + err.Error()}
		}
		out = append(out, row)
		if p.HTTP != nil && !how.HTTP {
			// The same harness through its other door (docs/live.md, Transports): its own row.
			outs, all, err := fieldRuns(ctx, o, p, bin, live.Options{HTTP: true})
			if err != nil {
				return 0, false, err
			}
			whole = whole && all
			out = append(out, live.Row(outs))
		}
	}
	f, err := os.Create(o.File)
	if err != nil {
		return 0, false, fmt.Errorf("--field-report: %v", err)
	}
	how := "lembas-check live --field-report " + filepath.ToSlash(o.File)
	if o.Agents != "" {
		how += " --agent " + o.Agents
	}
	if err := live.WriteFieldReport(f, out, how); err != nil {
		f.Close()
		return 0, false, fmt.Errorf("--field-report: %v", err)
	}
	if err := f.Close(); err != nil {
		return 0, false, fmt.Errorf("--field-report: %v", err)
	}
	return len(out), whole, nil
}

// Field runs every embedded case of the live target's areas on a harness and counts them for the
// field report: per area what it played and passed, per universal rule what kept it. The error
// is a run that could not be made (the harness did not start).
func Field(ctx context.Context, o Options) (*live.Cases, error) {
	cases, err := runner.LoadCases(runner.SuiteOptions{})
	if err != nil {
		return nil, err
	}
	var items []runner.Item
	for _, c := range cases {
		if slices.Contains(Areas, c.Area) {
			items = append(items, runner.Item{Case: c})
		}
	}
	t := New(o)
	info, err := t.Start(ctx)
	if err != nil {
		t.Close()
		return nil, err
	}
	rep := runner.Run(ctx, t, info, items, runner.Options{Workers: 1})
	rep.Closed(t.Close())
	return Count(rep, t.Kept()), nil
}

// Count is a report's cases and the universal rules they kept, as the field report counts them.
func Count(rep *runner.Report, kept []Kept) *live.Cases {
	out := &live.Cases{}
	by := map[string]*live.CaseCount{}
	for _, a := range Areas {
		out.Areas = append(out.Areas, live.CaseCount{Name: a})
	}
	for i := range out.Areas {
		by[out.Areas[i].Name] = &out.Areas[i]
	}
	crashed := 0
	for _, r := range rep.Results {
		c := by[r.Case.Area]
		if c == nil || r.Verdict == runner.Skip {
			continue
		}
		c.Of++
		if r.Verdict == runner.Pass || r.Verdict == runner.XPass {
			c.Held++
		} else if c.First == "" {
			c.First = fmt.Sprintf("%s (%s)", r.Case.ID, r.Verdict)
		}
		if r.Verdict == runner.Crashed {
			crashed++
		}
	}
	for _, rule := range Universal {
		c := live.CaseCount{Name: rule}
		for _, k := range kept {
			c.Of++
			if b, ok := k.Broke[rule]; ok {
				if c.First == "" {
					c.First = fmt.Sprintf("%s: %s", k.ID, b)
				}
				continue
			}
			c.Held++
		}
		out.Universal = append(out.Universal, c)
	}
	if crashed > 0 {
		out.Note = fmt.Sprintf("%d cases crashed the harness", crashed)
	}
	if rep.CloseErr != "" {
		out.Note += " " + rep.CloseErr
	}
	return out
}

// fieldHow is how the field report drives the agent of profile p: as `live` would by default.
func fieldHow(p *agents.Profile) (live.Options, error) {
	if a2a, _ := (live.Settings{}).UseA2A(p); a2a {
		return live.Options{A2A: true}, nil
	}
	useACP, useRPC, err := live.Settings{}.How(p)
	return live.Options{ACP: useACP, RPC: useRPC}, err
}

// fieldRuns drives the agent through the field report's scenarios the way how says, each judged;
// whole is false when one was not run.
func fieldRuns(ctx context.Context, o FieldOptions, p *agents.Profile, bin string,
	how live.Options) (outs map[string]live.Outcome, whole bool, err error) {
	outs, whole = map[string]live.Outcome{}, true
	for _, s := range live.FieldScenarios {
		sc, err := live.LoadScenario(s)
		if err != nil {
			return nil, false, err
		}
		work, err := os.MkdirTemp("", "lembas-field-")
		if err != nil {
			return nil, false, err
		}
		run, err := live.Drive(ctx, live.Options{Profile: p, Bin: bin, ACP: how.ACP, RPC: how.RPC, A2A: how.A2A,
			HTTP: how.HTTP, Scenario: sc,
			StepTimeout: o.Timeout, Log: o.Log, Tool: o.Tool, Version: o.Version, Work: work})
		if err != nil {
			os.RemoveAll(work)
			return nil, false, fmt.Errorf("live: %s, %s: %v", p.Name, s, err)
		}
		j, err := live.Judge(ctx, run)
		os.RemoveAll(work)
		if err != nil {
			return nil, false, fmt.Errorf("live: judging %s, %s: %v", p.Name, s, err)
		}
		outs[s] = live.Outcome{Run: run, Judgement: j}
		if j.NotRun != "" {
			whole = false // its row says so; the report is written, but the run is not whole
		}
		if ctx.Err() != nil {
			return nil, false, fmt.Errorf("live: interrupted; %s not written", o.File)
		}
	}
	return outs, whole, nil
}
