package refagent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// _lembas/configure before the first turn is what the session starts with (its prompt holds the
// memory, the personality, the MCP server's instructions); after it, the prompt keeps its bytes
// and the next user message's note says the change.
func TestConfigureSetsTheStartThenNotesAChange(t *testing.T) {
	dir := t.TempDir()
	clock, _ := fixed(t, "2026-11-04 12:00:00")
	c, s, got := start(t, dir, refagent.Options{Clock: clock})
	ctx := context.Background()
	err := c.Configure(ctx, s, map[string]any{"memory": "Uses fish.", "personality": "Be warm.",
		"mcp": map[string]string{"tickets": "Name the ticket."}, "mode": "plan"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "one"); err != nil {
		t.Fatal(err)
	}
	if err := c.Configure(ctx, s, map[string]any{"personality": "Be brief."}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "two"); err != nil {
		t.Fatal(err)
	}
	reqs := got.all()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	sys := reqs[0].Messages[0].Content
	for _, want := range []string{"Uses fish.", "Be warm.", "Name the ticket.", "plan"} {
		if !strings.Contains(sys, want) {
			t.Errorf("the first system prompt lacks %q:\n%s", want, sys)
		}
	}
	if reqs[1].Messages[0].Content != sys {
		t.Error("the personality's change remade the system prompt")
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.HasPrefix(last, "two\n\n<session-note>") || !strings.Contains(last, "Be brief.") {
		t.Errorf("the second user message is %q: no note of the new personality after the words", last)
	}
}

// An unknown mode is refused with the reason, and the session keeps its own.
func TestConfigureRefusesAnUnknownMode(t *testing.T) {
	c, s, _ := start(t, t.TempDir(), refagent.Options{})
	err := c.Configure(context.Background(), s, map[string]any{"mode": "yolo"})
	if err == nil || !strings.Contains(err.Error(), "yolo") {
		t.Fatalf("configure mode yolo: %v", err)
	}
}

// The person's permission rules (_lembas/configure grants) make the view: a write where the
// grant is ro is refused with filesystem.md's error, and the file is left as it was.
func TestConfigureGrantsMakeTheView(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "alpha\n")
	c, s, got := start(t, dir, refagent.Options{}, call("call_1", "write", `{"path":"a.md","content":"beta\n"}`))
	ctx := context.Background()
	if err := c.Configure(ctx, s, map[string]any{"grants": map[string]string{"/": "ro"}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "write it"); err != nil {
		t.Fatal(err)
	}
	reqs := got.all()
	res := reqs[len(reqs)-1].Messages
	if r := res[len(res)-1]; r.ToolCallID != "call_1" || strings.Contains(r.Content, "beta") || r.Content == "" {
		t.Errorf("the write's result is %q, want the view's refusal", r.Content)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != "alpha\n" {
		t.Errorf("a.md is %q: the write under an ro grant was made", b)
	}
	err := c.Configure(ctx, s, map[string]any{"grants": map[string]string{"/": "loud"}})
	if err == nil || !strings.Contains(err.Error(), "loud") {
		t.Errorf("a grant of no such level: %v", err)
	}
}

// The cap is the session's from its start: given before the first turn it caps a result; after
// it, it is refused with the reason.
func TestConfigureCap(t *testing.T) {
	dir := t.TempDir()
	c, s, got := start(t, dir, refagent.Options{}, call("call_1", "bash", `{"command":"seq 1 10"}`))
	ctx := context.Background()
	limits := map[string]int{"max_lines": 4, "max_chars": 1000, "head_lines": 2, "head_chars": 1000,
		"tail_lines": 1, "tail_chars": 1000}
	if err := c.Configure(ctx, s, map[string]any{"cap": limits}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "read it"); err != nil {
		t.Fatal(err)
	}
	reqs := got.all()
	res := reqs[len(reqs)-1].Messages
	if r := res[len(res)-1].Content; strings.Contains(r, "\n5\n") || !strings.Contains(r, "10") {
		t.Errorf("the read was not capped at 4 lines: %q", r)
	}
	if err := c.Configure(ctx, s, map[string]any{"cap": limits}); err == nil || !strings.Contains(err.Error(), "cap") {
		t.Errorf("a cap after the first turn: %v", err)
	}
}

// What the session meets goes by configure, and names only what it could meet: forge, which a
// device never could, is refused with the reason.
func TestConfigureMetNamesOnlyWhatItCould(t *testing.T) {
	c, s, _ := start(t, t.TempDir(), refagent.Options{})
	ctx := context.Background()
	if err := c.Configure(ctx, s, map[string]any{"met": []string{}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "one"); err != nil {
		t.Fatal(err)
	}
	err := c.Configure(ctx, s, map[string]any{"met": []string{"forge"}})
	if err == nil || !strings.Contains(err.Error(), "forge") {
		t.Errorf("met forge on a session that could not meet it: %v", err)
	}
}

// Instruction texts by path or heading go by configure: before the first turn they ride the
// system prompt after those on disk; after it, the next note says the one that changed.
func TestConfigureFiles(t *testing.T) {
	c, s, got := start(t, t.TempDir(), refagent.Options{})
	ctx := context.Background()
	if err := c.Configure(ctx, s, map[string]any{"files": map[string]string{"/p/AGENTS.md": "Build with make."}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "one"); err != nil {
		t.Fatal(err)
	}
	if err := c.Configure(ctx, s, map[string]any{"files": map[string]string{"/p/AGENTS.md": "Build with make test."}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "two"); err != nil {
		t.Fatal(err)
	}
	reqs := got.all()
	if sys := reqs[0].Messages[0].Content; !strings.Contains(sys, "Build with make.") || reqs[1].Messages[0].Content != sys {
		t.Errorf("the system prompt lacks the text, or changed with it:\n%s", sys)
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.Contains(last, "/p/AGENTS.md") || !strings.Contains(last, "Build with make test.") {
		t.Errorf("the second message is %q: no note of the changed text", last)
	}
}
