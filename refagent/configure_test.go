package refagent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/refagent"
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
