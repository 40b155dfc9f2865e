package gherkin

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/gherkin/features"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/cucumber/godog"
)

// loadWithGodog is Load as it was until lembas-check stopped linking godog (docs/design.md): godog
// parses the features and runs each pickle through one catch-all step that hands the line to
// the same vocabulary. It lives on, in the tests only, as the baseline BenchmarkLoad measures
// Load against, and TestLoadAgreesWithGodog checks the two make the same scenarios.
func loadWithGodog(fsys fs.FS, name string) ([]Scenario, error) {
	opts := &godog.Options{FS: fsys, Paths: []string{"."}, Output: io.Discard, Format: "progress", Strict: true, NoColors: true, Concurrency: 1}
	ts := godog.TestSuite{Name: "lembas-check features", Options: opts}
	feats, err := ts.RetrieveFeatures()
	if err := readError(name, len(feats), err); err != nil {
		return nil, err
	}
	parsed := make([]parsedFeature, 0, len(feats))
	for _, f := range feats {
		parsed = append(parsed, parsedFeature{doc: f.GherkinDocument, pickles: f.Pickles})
	}
	idx, err := index(parsed, name)
	if err != nil {
		return nil, err
	}
	done := map[string]Scenario{}
	ts.ScenarioInitializer = func(sc *godog.ScenarioContext) {
		var m pickleMeta
		var b *steps.Build
		var current *godog.Step
		var failed error
		sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
			m = idx.pickles[p.Id]
			area, _ := conformance.ByName(m.area)
			b = area.Steps.Begin(m.area)
			return ctx, nil
		})
		sc.StepContext().Before(func(ctx context.Context, s *godog.Step) (context.Context, error) {
			current = s
			return ctx, nil
		})
		sc.Step(`(?s)^(.*)$`, func(ctx context.Context, _ string) error {
			if err := runStep(b, m, idx.lines, current); err != nil {
				failed = err
				return err
			}
			return nil
		})
		sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
			if failed == nil && err != nil {
				failed = err // godog's own, e.g. a panic
			}
			if failed != nil {
				done[p.Id] = Scenario{Case: m.caseShell(), Checks: b.Checks(), Err: failed}
			} else {
				done[p.Id] = finish(m, b)
			}
			return ctx, nil
		})
	}
	ts.Run()
	out := make([]Scenario, 0, len(idx.order))
	for _, id := range idx.order {
		sc, ok := done[id]
		if !ok {
			// godog runs no hook for a scenario without steps.
			m := idx.pickles[id]
			sc = Scenario{Case: m.caseShell(), Err: fmt.Errorf("%s: scenario %q has no steps: Givens and Whens build its case, Thens say what the spec expects", m.where(), m.name)}
		}
		out = append(out, sc)
	}
	return out, nil
}

// Load (cucumber's parser and the vocabulary, no godog) makes exactly the scenarios godog made:
// the same ids, files, cases, Thens and errors, for the embedded features and for every feature
// the other tests load, good and bad.
func TestLoadAgreesWithGodog(t *testing.T) {
	sources := map[string]fs.FS{"embedded": features.FS}
	one := func(area, src string) fs.FS { return fstest.MapFS{area + ".feature": {Data: []byte(src)}} }
	sources["ids"] = one("jobs", idFeature)
	sources["failing seed"] = one("jobs", failingSeed)
	sources["no steps"] = one("jobs", "Feature: f\n  Scenario: empty\n\n  Scenario: full\n    Given a message to the subagent:\n      \"\"\"\n      hi\n      \"\"\"\n    Then the note has 2 lines\n")
	sources["no scenario"] = one("jobz", "Feature: nothing to run\n")
	sources["star"] = one("jobs", "Feature: f\n  Scenario: s\n    * a message to the subagent:\n      \"\"\"\n      hi\n      \"\"\"\n    * the note has 2 lines\n")
	for name, c := range scenarioErrors {
		sources["scenario error: "+name] = one(c.area, "Feature: f\n  Scenario: s\n"+c.steps)
	}
	for name, c := range featureErrors {
		fsys := fstest.MapFS{}
		for n, b := range c.files {
			fsys[n] = &fstest.MapFile{Data: []byte(b)}
		}
		sources["feature error: "+name] = fsys
	}
	for name, fsys := range sources {
		t.Run(name, func(t *testing.T) {
			own, ownErr := Load(fsys, "dir")
			base, baseErr := loadWithGodog(fsys, "dir")
			if fmt.Sprint(ownErr) != fmt.Sprint(baseErr) {
				t.Fatalf("Load: %v\ngodog: %v", ownErr, baseErr)
			}
			if len(own) != len(base) {
				t.Fatalf("Load made %d scenarios, godog %d", len(own), len(base))
			}
			for i := range own {
				o, b := own[i], base[i]
				if fmt.Sprint(o.Err) != fmt.Sprint(b.Err) {
					t.Errorf("%s: error\n  Load:  %v\n  godog: %v", b.Case.ID, o.Err, b.Err)
				}
				if !reflect.DeepEqual(o.Case, b.Case) || !reflect.DeepEqual(o.Checks, b.Checks) {
					t.Errorf("%s: Load made\n  %+v\n  %+v\ngodog\n  %+v\n  %+v", b.Case.ID, o.Case, o.Checks, b.Case, b.Checks)
				}
			}
			if name == "embedded" && len(own) < 295 {
				t.Errorf("%d embedded scenarios; there were 295", len(own))
			}
		})
	}
}
