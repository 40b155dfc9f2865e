package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents/agentstest"
)

// diff-recordings' exit status: 0 for a recording against itself, 1 for two versions of a
// harness whose difference changes the cached prefix, 2 for a damaged file (named with its line)
// or a wrong number of arguments.
func TestDiffRecordingsExit(t *testing.T) {
	rec := "../../testdata/recordings/"
	code, out, errs := runCLI(t, "diff-recordings", rec+"clean.jsonl", rec+"clean.jsonl")
	if code != 0 || !strings.HasPrefix(out, "ok\t") {
		t.Errorf("against itself: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "diff-recordings", rec+"clean.jsonl", rec+"tool-churn.jsonl")
	if code != 1 || !strings.Contains(out, "tools added mcp__tickets__search") {
		t.Errorf("a tool added: exit %d\n%s", code, out)
	}
	damaged := filepath.Join(t.TempDir(), "cut.jsonl")
	os.WriteFile(damaged, []byte(`{"model":"m","messages":[]}`+"\n"+`{"model":`), 0o644)
	code, _, errs = runCLI(t, "diff-recordings", rec+"clean.jsonl", damaged)
	if code != 2 || !strings.Contains(errs, damaged+":line 2") {
		t.Errorf("a damaged file: exit %d, %s", code, errs)
	}
	if code, _, errs = runCLI(t, "diff-recordings", rec+"clean.jsonl"); code != 2 || !strings.Contains(errs, "usage") {
		t.Errorf("one argument: exit %d, %s", code, errs)
	}
}

// Two real agents from npm, pi and opencode, recorded on one prompt through the fake and diffed:
// the report names their system prompts, their tools (opencode's added and pi's changed) and the
// session headers opencode sends, opencode's title request is left unpaired, and it exits 1.
// Each recording diffed with itself exits 0. Skipped when an agent is not installed.
func TestDiffRecordingsOfTwoAgents(t *testing.T) {
	names := []string{"pi", "opencode"}
	for _, n := range names {
		agentstest.Installed(t, n)
	}
	recs := make([]string, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() {
			rec, code, out, errs := recordRun(t, "--agent", n, "--timeout", "240s", "--",
				"Read README.md and NOTES.md, then tell me what the project is.")
			if code != 0 {
				t.Errorf("record %s: exit %d\n%s%s", n, code, out, errs)
			}
			recs[i] = rec
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	code, out, errs := runCLI(t, "diff-recordings", recs[0], recs[1], "--format", "markdown")
	if code != 1 {
		t.Fatalf("pi vs opencode: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"| system | `$.messages[0].content` | the system prompt changed", "| tools |",
		"tools added glob", "| header | `x-session-affinity` | added", "- unpaired: b request 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	for _, r := range recs {
		if code, out, _ := runCLI(t, "diff-recordings", r, r); code != 0 {
			t.Errorf("%s against itself: exit %d\n%s", r, code, out)
		}
	}
}
