package main

import (
	"flag"

	"github.com/LLeMbas/lembas-check/internal/cli"
	"github.com/LLeMbas/lembas-check/internal/gherkin"
	"github.com/LLeMbas/lembas-check/runner"
)

// addFeatureFlag is `--features [DIR]`: alone, the features embedded in the binary; with a folder,
// that folder's <area>.feature files instead.
func addFeatureFlag(fs *flag.FlagSet) *cli.Optional {
	f := &cli.Optional{}
	fs.Var(f, "features",
		"also run the Gherkin features: the embedded ones, or with `[DIR]` that folder's <area>.feature files "+
			"(docs/features.md)")
	return f
}

// loadItems loads what a run sends (gherkin.RunItems).
func loadItems(cf *caseFlags, ff *cli.Optional) ([]runner.Item, error) {
	sel, err := cf.selection()
	if err != nil {
		return nil, err
	}
	return gherkin.RunItems(cf.suites, ff.Given, ff.Value, sel)
}
