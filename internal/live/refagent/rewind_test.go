package refagent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// A turn taken back leaves the history, and its read the request: the file read again after it
// is read in full with the next id, not a stub of the undone read. Too many turns is refused.
func TestRewindTakesTheTurnBack(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "alpha\n")
	c, s, got := start(t, dir, refagent.Options{},
		script.Reply{Text: "first"},
		call("call_1", "read", `{"path":"a.md"}`), script.Reply{Text: "read"},
		call("call_2", "read", `{"path":"a.md"}`), script.Reply{Text: "again"})
	ctx := context.Background()
	for _, words := range []string{"one", "two"} {
		if _, _, err := c.Prompt(ctx, s.ID, words); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Rewind(ctx, s, 3); err == nil {
		t.Error("a rewind of 3 turns of 2 was taken")
	}
	if n, err := c.Rewind(ctx, s, 1); err != nil || n != 1 {
		t.Fatalf("the rewind: %d, %v", n, err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "three"); err != nil {
		t.Fatal(err)
	}
	reqs := got.all()
	last := reqs[len(reqs)-1].Messages
	var users []string
	var result string
	for _, m := range last {
		switch m.Role {
		case "user":
			users = append(users, strings.SplitN(m.Content, "\n", 2)[0]) // the person's words, not the note
		case "tool":
			result = m.Content
		}
	}
	if strings.Join(users, "|") != "one|three" {
		t.Errorf("the messages after the rewind: %q, want one and three", users)
	}
	if !strings.HasPrefix(result, "[#0002 a.md lines 1-1 of 1") || strings.Contains(result, "Unchanged") {
		t.Errorf("the read after the rewind: %q, want a full read, #0002", result)
	}
}

// A client of an agent without the capability is told so, and nothing is sent.
func TestRewindUnsupported(t *testing.T) {
	var c acp.Client
	if _, err := c.Rewind(context.Background(), acp.Session{}, 1); err == nil {
		t.Error("a rewind of an agent with no rewind capability was sent")
	}
}
