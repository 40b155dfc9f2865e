package livetarget

import (
	"context"
	"fmt"
	"slices"

	"github.com/LLeMbas/lembas-check/live"
	"github.com/LLeMbas/lembas-check/runner"
)

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
