//go:build unix

package live

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/format"
)

// Record's status: a command that fails is a failure found; one that sends no request, or
// cannot start, is a recording not made; one that asks the fake is ok.
func TestRecord(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl on PATH: it plays the command that asks the fake")
	}
	dir := t.TempDir()
	fake := fakeprovider.Settings{Usage: "openai", CacheSlots: 1}
	ask := `curl -s -o /dev/null "$OPENAI_BASE_URL/models"`
	for _, c := range []struct {
		argv []string
		want format.Status
		said string
	}{
		{[]string{"sh", "-c", ask}, format.OK, "lembas-check: recorded 1 exchanges"},
		{[]string{"sh", "-c", ask + "; exit 3"}, format.Failed, "sh exited with status 3"},
		{[]string{"true"}, format.Unfinished, "holds no request: did the agent reach the fake?"},
		{[]string{"/nonexistent/lembas-none"}, format.Unfinished, "starting /nonexistent/lembas-none: "},
	} {
		var stderr bytes.Buffer
		s := RecordSettings{Fake: fake, Out: filepath.Join(dir, "rec.jsonl"), Tool: "lembas-check test"}
		if got := Record(t.Context(), s, c.argv, &bytes.Buffer{}, &stderr); got != c.want || !strings.Contains(stderr.String(), c.said) {
			t.Errorf("%q: %v, want %v saying %q:\n%s", c.argv, got, c.want, c.said, stderr.String())
		}
	}
}
