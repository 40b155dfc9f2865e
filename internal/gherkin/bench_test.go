package gherkin

import (
	"context"
	"io/fs"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
	"github.com/LLeMbas/lembas-check/internal/gherkin/features"
	"github.com/LLeMbas/lembas-check/runner"
)

// Loading: the embedded features (parsed by cucumber's parser, every step run to build its case)
// beside two baselines: the same through godog, as Load did until lembas-check stopped linking
// it, and the embedded JSON suites parsed and decoded from their files (as a --suite folder is;
// a run takes the embedded ones from their table). Per case, so the three compare.
func BenchmarkLoad(b *testing.B) {
	for _, c := range []struct {
		name string
		load func(fs.FS, string) ([]Scenario, error)
	}{{"features", Load}, {"features-godog", loadWithGodog}} {
		b.Run(c.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				scs, err := c.load(features.FS, "features")
				if err != nil {
					b.Fatal(err)
				}
				n = len(scs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/case")
		})
	}
	b.Run("json-cases", func(b *testing.B) {
		n := 0
		for b.Loop() {
			cases, err := conformance.Load(conformance.EmbeddedSuites(), conformance.All())
			if err != nil {
				b.Fatal(err)
			}
			n = len(cases)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/case")
	})
}

// Running against the builtin: every scenario (answer, then each Then checked) beside the
// baseline, every JSON case (answer, then one diff of the whole expectation).
func BenchmarkRun(b *testing.B) {
	ctx := context.Background()
	scs, err := Embedded()
	if err != nil {
		b.Fatal(err)
	}
	cases := conformancetest.All(b)
	info, _ := runner.Builtin{}.Start(ctx)
	b.Run("scenarios", func(b *testing.B) {
		for b.Loop() {
			RunScenarios(ctx, runner.Builtin{}, info, scs, runner.Options{})
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(scs)), "ns/case")
	})
	b.Run("json-cases", func(b *testing.B) {
		for b.Loop() {
			runner.Run(ctx, runner.Builtin{}, info, runner.CaseItems(cases), runner.Options{})
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
	})
}
