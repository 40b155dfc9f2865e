package runner

import (
	"context"

	"github.com/LLeMbas/lembas-check/conformance"
)

// runCases is what the tests did before the caller owned Start and Close: start the target, run
// the cases, close it.
func runCases(ctx context.Context, t Target, cases []conformance.Case, opts Options) (*Report, error) {
	info, err := t.Start(ctx)
	if err != nil {
		return nil, err
	}
	rep := Run(ctx, t, info, CaseItems(cases), opts)
	rep.Closed(t.Close())
	return rep, nil
}
