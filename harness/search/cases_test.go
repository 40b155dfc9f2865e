package search_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

// ownCases parses conformance/cases/search.json through the area, as the runner does.
func ownCases(t testing.TB) []conformance.Case {
	t.Helper()
	b, err := os.ReadFile("../../conformance/cases/search.json")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.ParseFile("search.json", b, conformance.Search)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestOwnCases runs the area's cases against the reference here too.
func TestOwnCases(t *testing.T) {
	for _, c := range ownCases(t) {
		t.Run(c.ID, func(t *testing.T) {
			got, err := conformance.Search.Reference(c.Decoded)
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
