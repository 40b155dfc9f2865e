package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cli"
	"github.com/LLeMbas/lembas-check/internal/format"
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
	if !strings.HasPrefix(last, "ERROR\t") || !strings.Contains(last, "0 of 8 checked, 8 skipped") ||
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
	// Answered, the session runs to its end. (The helper sends each prompt as a new conversation,
	// which the one-shot chain, one session, fails as nothing-rewritten: exit 1, not 2.)
	code, out, errs = runCLI(t, "live", "--agent", prof, "--scenario", "two-prompts", "--strict=false", "-v")
	if code != 1 || !strings.Contains(out, "--- PASS: live/two-prompts/session") || !strings.Contains(out, "--- FAIL: live/two-prompts/nothing-rewritten") {
		t.Errorf("--strict=false: exit %d\n%s\n%s", code, out, errs)
	}
}

// --record's folder is checked before any agent starts (issue 21: `live --record
// /nonexistent/dir` made the whole tree silently): a missing parent is exit 2 naming the flag, and
// nothing is made; a folder whose parent exists is made, as `mkdir` would.
func TestLiveRecordDir(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "nonexistent")
	dir := filepath.Join(parent, "dir")
	code, _, errs := runCLI(t, "live", "--agent", "lembas-check agent", "--scenario", "midnight", "--record", dir)
	if code != 2 || !strings.Contains(errs, "lembas-check: --record "+dir+": ") || !strings.Contains(errs, "its parent must exist") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(parent); err == nil {
		t.Errorf("%s was made", parent)
	}
	if err := format.MakeDir("--record", parent); err != nil {
		t.Errorf("a folder whose parent exists: %v", err)
	}
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		t.Errorf("%s was not made: %v", parent, err)
	}
}

// agent --base-url is checked at the start (issue 21: a malformed URL was found at the first
// prompt): exit 2 naming the flag.
func TestAgentBaseURLChecked(t *testing.T) {
	for _, u := range []string{"127.0.0.1:8080/v1", "ftp://127.0.0.1/v1", "http:///v1", "http://%zz/v1"} {
		if code, _, errs := runCLI(t, "agent", "--base-url", u); code != 2 || !strings.Contains(errs, "lembas-check: agent: --base-url "+strconv.Quote(u)) {
			t.Errorf("--base-url %s: exit %d, stderr %q", u, code, errs)
		}
	}
	if err := cli.CheckURL("--base-url", "http://127.0.0.1:8080/v1"); err != nil {
		t.Errorf("a good URL: %v", err)
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
