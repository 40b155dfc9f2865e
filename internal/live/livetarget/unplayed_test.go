package livetarget

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
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

// Every op harness/fsaccess knows has a play (planFS's own, planLevel's or fsPlays'); an op with
// none is a skip naming it, and no forge (once every unknown op read as commit's skip).
func TestEveryFSOpHasAPlay(t *testing.T) {
	// view (the levels the model is told) has no play: the reference agent writes no {{view}}; its
	// skip says what would carry it.
	own := map[fsaccess.Op]bool{fsaccess.OpLevel: true, fsaccess.OpRead: true, fsaccess.OpList: true,
		fsaccess.OpWrite: true, fsaccess.OpMkdir: true, fsaccess.OpRm: true, fsaccess.OpView: true}
	for _, op := range fsaccess.Ops() {
		if _, ok := fsPlays[string(op)]; !ok && !own[op] {
			t.Errorf("%s has no play", op)
		}
	}
	err := unplayedFS("chmod")
	if err == nil || !strings.Contains(err.Error(), "chmod") || strings.Contains(err.Error(), "forge") {
		t.Errorf("an unknown op: %v, want a skip naming it and no forge", err)
	}
}
