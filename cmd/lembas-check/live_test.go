package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An agent that cannot be started is a run not made (issue 12: it printed `--- ERROR: …
// executable file not found`, counted 4 pass and 1 fail, and ended `FAIL … 7 cases: 4 pass`, exit
// 1): exit 2, the summary ERROR saying what was not run, nothing passed and nothing failed.
func TestLiveAgentNotStarted(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "nosuch")
	code, out, errs := runCLI(t, "live", "--agent", bin, "--profile", "none", "--scenario", "midnight", "-v")
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

// live --strict=false, as record has it: the fake checks only what it reads. An agent that sends
// a parameter the API does not know is refused (400) by default, and its session crashes; with
// --strict=false it is answered.
func TestLiveStrictFlag(t *testing.T) {
	prof := helperProfile(t, "lax", os.Args[0], "unknown-parameter")
	code, out, errs := runCLI(t, "live", "--agent", prof, "--scenario", "two-prompts")
	if code != 1 || !strings.Contains(out, "--- CRASHED: live/two-prompts/session") || !strings.Contains(out, "400 Bad Request") {
		t.Errorf("strict: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "live", "--agent", prof, "--scenario", "two-prompts", "--strict=false", "-v")
	if code != 0 || !strings.Contains(out, "--- PASS: live/two-prompts/session") {
		t.Errorf("--strict=false: exit %d\n%s\n%s", code, out, errs)
	}
}

// A live target whose command matches no profile, given no --profile, is a run not made naming
// the profiles (issue 21: the reference agent under another file name ran with an empty profile,
// 7 pass, 260 skip, exit 0); --profile none runs it with none, on purpose.
func TestLiveCommandNeedsAProfile(t *testing.T) {
	lc := filepath.Join(t.TempDir(), "lc")
	if err := os.Symlink(os.Args[0], lc); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--live", lc + " agent", "--area", "prefix"},
		{"live", "--agent", lc + " agent", "--scenario", "two-prompts"},
	} {
		code, out, errs := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, "matches no agent profile") || !strings.Contains(errs, "lembas-check, opencode") || !strings.Contains(errs, "--profile none") {
			t.Errorf("%s: exit %d\n%s\n%s", args[0], code, out, errs)
		}
	}
}
