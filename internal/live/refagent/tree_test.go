package refagent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// mkdir and rm change the view, then the disk; what the view refuses is answered in the spec's
// words, naming the real path, and the disk is left as it was.
func TestMkdirRm(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "alpha\n")
	clock, _ := fixed(t, "2026-11-04 12:00:00")
	c, s, got := start(t, dir, refagent.Options{Clock: clock},
		call("call_1", "mkdir", `{"path":"d"}`),
		call("call_2", "mkdir", `{"path":"a.md"}`),
		call("call_3", "rm", `{"path":"a.md"}`),
		call("call_4", "rm", `{"path":"nowhere.md"}`),
		call("call_5", "mkdir", `{"path":"x/y"}`))
	if _, _, err := c.Prompt(context.Background(), s.ID, "tidy up"); err != nil {
		t.Fatal(err)
	}
	answers := map[string]string{}
	reqs := got.all()
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.ToolCallID != "" {
			answers[m.ToolCallID] = m.Content
		}
	}
	for id, want := range map[string]string{
		"call_1": "[#0001]",
		"call_3": "[#0003 a.md deleted]",
		"call_4": "[#0004]\nNo such file or directory: " + filepath.Join(dir, "nowhere.md"),
		"call_5": "[#0005]",
	} {
		if answers[id] != want {
			t.Errorf("%s answered %q, want %q", id, answers[id], want)
		}
	}
	if a := answers["call_2"]; !strings.HasPrefix(a, "[#0002]\n") || !strings.Contains(a, filepath.Join(dir, "a.md")) {
		t.Errorf("mkdir of a file answered %q, want its refusal naming %s", a, filepath.Join(dir, "a.md"))
	}
	for _, d := range []string{"d", "x/y"} {
		if fi, err := os.Stat(filepath.Join(dir, d)); err != nil || !fi.IsDir() {
			t.Errorf("mkdir %s made no directory: %v", d, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.md")); !os.IsNotExist(err) {
		t.Errorf("rm a.md left it: %v", err)
	}
}
