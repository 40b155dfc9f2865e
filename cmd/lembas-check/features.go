package main

import (
	"flag"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/cli"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/gherkin"
	"github.com/LLeMbas/lembas-check/runner/selection"
)

// addFeatureFlag is `--features [DIR]`: alone, the features embedded in the binary; with a folder,
// that folder's <area>.feature files instead.
func addFeatureFlag(fs *flag.FlagSet) *cli.Optional {
	f := &cli.Optional{}
	fs.Var(f, "features", "also run the Gherkin features: the embedded ones, or with `[DIR]` that folder's <area>.feature files (docs/features.md)")
	return f
}

// loadItems loads what a run sends: the JSON cases of the suites and, with --features, the
// scenarios, then keeps those the selection holds (one selection for both). `--no-embedded
// --features` with no --suite runs the features alone.
func loadItems(cf *caseFlags, ff *cli.Optional) ([]runner.Item, error) {
	sel, err := cf.selection()
	if err != nil {
		return nil, err
	}
	var items []runner.Item
	if !ff.Given || !cf.noEmbedded || len(cf.suites) > 0 {
		cases, err := cf.load()
		if err != nil {
			return nil, err
		}
		items = runner.CaseItems(cases)
	}
	if ff.Given {
		scs, err := gherkin.LoadDir(ff.Value)
		if err != nil {
			return nil, err
		}
		items = append(items, gherkin.Items(scs)...)
	}
	return selection.Apply(sel, items, func(it runner.Item) conformance.Case { return it.Case })
}
