package modules_test

import (
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

// BenchmarkCases is the reference answering every embedded modules case, as `run` does: many
// small sessions, each a disk of a few files built, spawned and requested a few times. The
// larger benchmarks (Request, Select) miss what such cases cost: a disk's index built per case,
// the root's real path taken per touched path, a queue and a few maps per request.
func BenchmarkCases(b *testing.B) {
	var decoded []any
	for _, c := range conformancetest.Cases(b, conformance.Modules) {
		d, err := conformance.Modules.Decode(c.Input)
		if err != nil {
			b.Fatal(err)
		}
		decoded = append(decoded, d)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range decoded {
			if _, err := conformance.Modules.Reference(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}
