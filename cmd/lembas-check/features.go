package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
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

// loadWithFeatures loads the JSON cases the case flags name and, with --features, the scenarios,
// chosen by the same --area and --run. `--no-embedded --features` with no --suite runs the
// features alone.
func loadWithFeatures(cf *caseFlags, ff *featureFlag) ([]conformance.Case, []gherkin.Scenario, error) {
	var cases []conformance.Case
	if !ff.set || !cf.noEmbedded || len(cf.suites) > 0 {
		var err error
		if cases, err = cf.load(); err != nil {
			return nil, nil, err
		}
	}
	if !ff.set {
		return cases, nil, nil
	}
	var scs []gherkin.Scenario
	var err error
	if ff.dir == "" {
		scs, err = gherkin.Embedded()
	} else {
		st, serr := os.Stat(ff.dir)
		switch {
		case serr != nil:
			return nil, nil, fmt.Errorf("--features %s: %v", ff.dir, serr)
		case !st.IsDir():
			return nil, nil, fmt.Errorf("--features %s: not a directory (give the folder holding <area>.feature files)", ff.dir)
		}
		scs, err = gherkin.Load(os.DirFS(ff.dir), strings.TrimRight(ff.dir, "/"))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--features: %v", err)
	}
	var g *selection.Glob
	if cf.run != "" {
		if g, err = selection.CompileGlob(cf.run); err != nil {
			return nil, nil, fmt.Errorf("--run %q: %v", cf.run, err)
		}
	}
	want, have := map[string]bool{}, map[string]bool{}
	for _, a := range cf.areas {
		want[a] = true
	}
	for _, c := range cases {
		have[c.Area] = true
	}
	var out []gherkin.Scenario
	for _, s := range scs {
		have[s.Case.Area] = true
		if (len(want) == 0 || want[s.Case.Area]) && g.Match(s.Case.ID) {
			out = append(out, s)
		}
	}
	// A typo in --area must not pass as "nothing failed".
	for _, a := range cf.areas {
		if !have[a] {
			return nil, nil, fmt.Errorf("--area %s: no case or feature of that area (%s)", a, strings.Join(gherkin.Areas(), ", "))
		}
	}
	return cases, out, nil
}
