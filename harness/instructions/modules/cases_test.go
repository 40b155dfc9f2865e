package modules_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

// ownCases parses conformance/cases/modules.json through the area, as the runner does.
func ownCases(t testing.TB) []conformance.Case {
	t.Helper()
	b, err := os.ReadFile("../../../conformance/cases/modules.json")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.ParseFile("modules.json", b, conformance.Modules)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestOwnCases runs the area's cases against the reference here too, so the package's own
// tests fail when a case and the reference part, before the registry is involved.
func TestOwnCases(t *testing.T) {
	for _, c := range ownCases(t) {
		t.Run(c.ID, func(t *testing.T) {
			got, err := conformance.Modules.Reference(c.Decoded)
			if err != nil {
				t.Fatalf("%s: %v", c.Where(), err)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if d := conformance.Diff(c.Expect, b); d != "" {
				t.Errorf("%s %s\n(-want +got)\n%s", c.Where(), c.About, d)
			}
		})
	}
}
