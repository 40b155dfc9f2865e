package live

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/proc"
)

// signalWriter closes started on the first write: the setup command has begun.
type signalWriter struct{ started chan struct{} }

func (w *signalWriter) Write(b []byte) (int, error) {
	select {
	case <-w.started:
	default:
		close(w.started)
	}
	return len(b), nil
}

// A setup command (cline's auth) is one of lembas-check's own processes: a proc.Sweep that runs
// meanwhile — a record or run ending in the same process, as go test runs them side by side —
// leaves it be. It was started behind the supervisor's back, so the sweep took it for a stray
// and ended it (CI: "setup … cline auth …: signal: terminated").
func TestSetupSurvivesSweep(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip(err)
	}
	// A process of the supervisor's own, so that Sweep walks the tree at all.
	p, err := proc.Start(exec.Command("true"), proc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()

	dir := t.TempDir()
	release := filepath.Join(dir, "release")
	a := &Agent{
		Profile: &agents.Profile{Name: "slow-auth", Setup: [][]string{{"sh", "-c",
			"echo started; while [ ! -e release ]; do sleep 0.01; done"}}},
		Vars: agents.Vars{Dir: dir},
		Env:  os.Environ(),
	}
	w := &signalWriter{started: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- a.Setup(context.Background(), w) }()
	<-w.started
	if left := proc.Sweep(time.Millisecond); len(left) != 0 {
		t.Errorf("the sweep ended %v", left)
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("setup: %v", err)
	}
}
