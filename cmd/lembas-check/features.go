package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/gherkin"
	"github.com/LLeMbas/lembas-check/runner/selection"
)

// featureFlag is `--features [DIR]`: alone, the features embedded in the binary; with a folder,
// that folder's <area>.feature files instead.
type featureFlag struct {
	set bool
	dir string
}

func (f *featureFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return f.dir
}

func (f *featureFlag) Set(s string) error {
	f.set = true
	if s != "true" {
		f.dir = s
	}
	return nil
}

// IsBoolFlag lets `--features` stand alone; joinFeatureArg lets a folder follow it.
func (f *featureFlag) IsBoolFlag() bool { return true }

func addFeatureFlag(fs *flag.FlagSet) *featureFlag {
	f := &featureFlag{}
	fs.Var(f, "features", "also run the Gherkin features: the embedded ones, or `DIR`'s <area>.feature files (docs/features.md)")
	return f
}

// joinFeatureArg reads `--features DIR` as `--features=DIR` when the next word is not a flag, so
// the folder may follow the flag as --suite's does, while `--features` alone stays the embedded
// features.
func joinFeatureArg(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "--features" || a == "-features") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// loadItems loads what a run sends: the JSON cases of the suites and, with --features, the
// scenarios, then keeps those the selection holds (one selection for both). `--no-embedded
// --features` with no --suite runs the features alone.
func loadItems(cf *caseFlags, ff *featureFlag) ([]runner.Item, error) {
	sel, err := cf.selection()
	if err != nil {
		return nil, err
	}
	var items []runner.Item
	if !ff.set || !cf.noEmbedded || len(cf.suites) > 0 {
		cases, err := cf.load()
		if err != nil {
			return nil, err
		}
		items = runner.CaseItems(cases)
	}
	if ff.set {
		scs, err := loadFeatures(ff.dir)
		if err != nil {
			return nil, err
		}
		items = append(items, gherkin.Items(scs)...)
	}
	return selection.Apply(sel, items, func(it runner.Item) conformance.Case { return it.Case })
}

// loadFeatures loads the embedded features, or a folder's.
func loadFeatures(dir string) ([]gherkin.Scenario, error) {
	var scs []gherkin.Scenario
	var err error
	if dir == "" {
		scs, err = gherkin.Embedded()
	} else {
		st, serr := os.Stat(dir)
		switch {
		case serr != nil:
			return nil, fmt.Errorf("--features %s: %v", dir, serr)
		case !st.IsDir():
			return nil, fmt.Errorf("--features %s: not a directory (give the folder holding <area>.feature files)", dir)
		}
		scs, err = gherkin.Load(os.DirFS(dir), strings.TrimRight(dir, "/"))
	}
	if err != nil {
		return nil, fmt.Errorf("--features: %v", err)
	}
	return scs, nil
}
