//go:build unix

package proc

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// Run gives the command's exit status, names one that could not start as a StartError, and
// says why one was stopped.
func TestRun(t *testing.T) {
	var log bytes.Buffer
	o := RunOptions{Log: &log}
	if status, err := Run(context.Background(), exec.Command("sh", "-c", "exit 3"), o); status != 3 || err != nil {
		t.Errorf("exit 3: status %d, %v", status, err)
	}
	var se *StartError
	if _, err := Run(context.Background(), exec.Command("/nonexistent/lembas-none"), o); !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "starting /nonexistent/lembas-none: ") {
		t.Errorf("a command that cannot start: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, exec.Command("sleep", "30"), o); err == nil || err.Error() != "was stopped by terminated (forwarded)" {
		t.Errorf("a command whose context ended: %v", err)
	}
}
