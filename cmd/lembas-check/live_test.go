package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// An agent that cannot be started is a run not made (issue 12: it printed `--- ERROR: …
// executable file not found`, counted 4 pass and 1 fail, and ended `FAIL … 7 cases: 4 pass`, exit
// 1): exit 2, the summary ERROR saying what was not run, nothing passed and nothing failed.
func TestLiveAgentNotStarted(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "nosuch")
	code, out, errs := runCLI(t, "live", "--agent", bin, "--scenario", "midnight", "-v")
	if code != 2 {
		t.Fatalf("exit %d, want 2\n%s\n%s", code, out, errs)
	}
	last := lastLine(out)
	if !strings.HasPrefix(last, "ERROR\t") || !strings.Contains(last, "7 cases: 0 pass, 0 fail, 0 xfail, 7 skip") ||
		!strings.Contains(last, "not run: midnight: at the start: starting "+bin) {
		t.Errorf("summary %q", last)
	}
	if strings.Contains(out, "--- PASS") || strings.Contains(out, "--- ERROR") || strings.Contains(out, "--- FAIL") {
		t.Errorf("a verdict other than skip:\n%s", out)
	}
	if !strings.Contains(errs, "lembas-check: live: midnight: not run: at the start: starting "+bin) {
		t.Errorf("stderr: %s", errs)
	}
}
