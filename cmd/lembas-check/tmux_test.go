package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/term"
)

// On a 100×40 terminal (tmux) no table or summary line of run, diff, audit -v or bench -v wraps:
// the pane, its wrapped rows joined (capture-pane -J), has no line wider than 100 (issue 27).
func TestTablesFitATmuxTerminal(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := filepath.Abs(recDir + "date-in-system.jsonl")
	var script []string
	for _, args := range []string{"run", "diff --a builtin --b builtin", "audit " + rec + " -v", "bench " + rec + " --sim --variant date-in-system -v"} {
		script = append(script, "env LEMBAS_CHECK_TEST_MAIN=1 COLUMNS= "+shellQuote(self)+" "+args)
	}
	sock := "lembas-check-test-" + filepath.Base(t.TempDir())
	cmd := strings.Join(script, "; ") + "; echo __END__; sleep 60"
	if out, err := exec.Command(tmux, "-L", sock, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "40", "sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Skipf("tmux cannot start a session here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command(tmux, "-L", sock, "kill-server").Run() })
	var pane string
	// Wait for the commands to end: a bound for a hung run only, never a measure of speed.
	for range 600 {
		out, err := exec.Command(tmux, "-L", sock, "capture-pane", "-p", "-J", "-S", "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		if pane = string(out); strings.Contains(pane, "__END__") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(pane, "__END__") {
		t.Fatalf("the commands did not end:\n%s", pane)
	}
	// Every line, not only the tables' (issue 27: bench's headline and its "predicted with" line
	// wrapped too); the pane's joined rows are the lines as written.
	for _, l := range strings.Split(pane, "\n") {
		if n := term.DisplayWidth(strings.TrimRight(l, " ")); n > 100 {
			t.Errorf("a line of %d columns in a 100-column terminal:\n%s", n, l)
		}
	}
}
