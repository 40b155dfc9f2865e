package workspace_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/workspace"
)

// ownCases parses conformance/cases/workspace.json through the area, as the runner does.
func ownCases(t testing.TB) []conformance.Case {
	t.Helper()
	b, err := os.ReadFile("../../conformance/cases/workspace.json")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.ParseFile("workspace.json", b, conformance.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestOwnCases runs the area's cases against the reference, and checks no answer names the
// temporary directory the tree was made in.
func TestOwnCases(t *testing.T) {
	for _, c := range ownCases(t) {
		t.Run(c.ID, func(t *testing.T) {
			got, err := conformance.Workspace.Reference(c.Decoded)
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
			if strings.Contains(string(b), os.TempDir()) || strings.Contains(string(b), workspace.TempPrefix) {
				t.Errorf("an answer names the temporary directory: %s", b)
			}
		})
	}
}
