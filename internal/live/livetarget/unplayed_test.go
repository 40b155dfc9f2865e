package livetarget

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/runner"
)

// The cases of an area whose rules a harness could show but none here carries are skips that
// say what would carry them, not the runner's bare "area not implemented".
func TestUnplayedAreasSayWhatWouldCarryThem(t *testing.T) {
	cases, err := runner.LoadCases(runner.SuiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var items []runner.Item
	seen := map[string]bool{}
	for _, c := range cases {
		if _, ok := Unplayed[c.Area]; ok && !seen[c.Area] {
			seen[c.Area] = true
			items = append(items, runner.Item{Case: c})
		}
	}
	if len(items) != len(Unplayed) {
		t.Fatalf("cases of %d of the %d unplayed areas", len(items), len(Unplayed))
	}
	rep := run(t, profile(t, "reference"), items, never)
	for _, r := range rep.Results {
		if r.Verdict != runner.Skip || r.Message != Unplayed[r.Case.Area] {
			t.Errorf("%s: %s %q, want a skip saying %q", r.Case.ID, r.Verdict, r.Message, Unplayed[r.Case.Area])
		}
	}
}

// An op with no play is a skip naming what it lacks: only commit needs a forge mount (every
// unknown op once read as commit's skip).
func TestUnplayedFSOpsSayWhatTheyLack(t *testing.T) {
	for op, want := range map[string]string{"commit": "forge mount", "list_text": "listing text",
		"read_text": "listing text", "edit": "read-before-change", "mv": "has an mv tool"} {
		err := unplayedFS(op)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a skip naming %q", op, err, want)
		}
		if op != "commit" && strings.Contains(err.Error(), "forge") {
			t.Errorf("%s: %v names a forge mount", op, err)
		}
	}
}
