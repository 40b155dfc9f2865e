package gherkin

import (
	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/selection"
	"github.com/LLeMbas/lembas-check/runner"
)

// RunItems is what a run sends: the JSON cases of the suites and, with features (--features,
// dir its folder or "" the embedded ones), the scenarios, then those the selection holds (one
// selection for both). With the embedded suites left out and no suite named, the features run
// alone.
func RunItems(suites runner.SuiteOptions, features bool, dir string, sel selection.Selection) ([]runner.Item, error) {
	var items []runner.Item
	if !features || !suites.NoEmbedded || len(suites.Dirs) > 0 {
		cases, err := runner.LoadCases(suites)
		if err != nil {
			return nil, err
		}
		items = runner.CaseItems(cases)
	}
	if features {
		scs, err := LoadDir(dir)
		if err != nil {
			return nil, err
		}
		items = append(items, Items(scs)...)
	}
	return selection.Apply(sel, items, func(it runner.Item) conformance.Case { return it.Case })
}
