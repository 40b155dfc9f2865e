package refagent_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// answersOf is each call's result in the last request, by the call's id.
func answersOf(got *requests) map[string]string {
	answers := map[string]string{}
	reqs := got.all()
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.ToolCallID != "" {
			answers[m.ToolCallID] = m.Content
		}
	}
	return answers
}

// edit refuses a file the session has not read, and one that changed since it read it, in the
// spec's words naming the real path; a read (or the session's own change) lets it edit again.
func TestEditNeedsWhatTheSessionSaw(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "alpha\n")
	clock, _ := fixed(t, "2026-11-04 12:00:00")
	c, s, got := start(t, dir, refagent.Options{Clock: clock},
		call("call_1", "edit", `{"path":"a.md","old":"alpha","new":"beta"}`),
		call("call_2", "read", `{"path":"a.md"}`),
		call("call_3", "edit", `{"path":"a.md","old":"alpha","new":"beta"}`),
		call("call_4", "edit", `{"path":"a.md","old":"beta","new":"gamma"}`),
		script.Reply{Text: "done"},
		call("call_5", "edit", `{"path":"a.md","old":"delta","new":"epsilon"}`),
		call("call_6", "read", `{"path":"a.md"}`),
		call("call_7", "edit", `{"path":"a.md","old":"delta","new":"epsilon"}`))
	if _, _, err := c.Prompt(context.Background(), s.ID, "edit it"); err != nil {
		t.Fatal(err)
	}
	first := answersOf(got)
	write(t, dir, "a.md", "delta\n") // changed by someone else after the session's last look
	if _, _, err := c.Prompt(context.Background(), s.ID, "edit it again"); err != nil {
		t.Fatal(err)
	}
	second := answersOf(got)
	a := filepath.Join(dir, "a.md")
	for id, want := range map[string]string{
		"call_1": "[#0001]\n" + a + " exists and has not been read in this session. Read it first.",
		"call_5": "[#0005]\n" + a + " changed since you last read it. Read it again before changing it.",
	} {
		if got := second[id]; got != want {
			t.Errorf("%s answered %q, want %q", id, got, want)
		}
	}
	for _, id := range []string{"call_3", "call_4"} {
		if r := first[id]; len(r) < 7 || r[:7] != "[#000"+id[5:]+" " {
			t.Errorf("%s answered %q, want the edit's diff", id, r)
		}
	}
	if b, _ := os.ReadFile(a); string(b) != "epsilon\n" {
		t.Errorf("a.md holds %q, want the last edit's epsilon", b)
	}
}

// list shows filesystem.md's listing: a tree two levels deep by default, directories first,
// `(empty)` for an empty directory; read of one is its own level, `(empty directory)` when empty.
// mv moves a file, and refuses a target that exists. Listings are a device's: no node_modules,
// nothing .gitignore names, no directory that holds no file it would list — but the one listed.
func TestListingAndMv(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "z.md", "z\n")
	write(t, dir, ".gitignore", "*.log\n")
	write(t, dir, "today.log", "x\n")
	write(t, dir, "web/node_modules/left-pad/index.js", "x\n")
	write(t, dir, "d/e/deep.md", "x\n")
	write(t, dir, "d/b.md", "b\n")
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	clock, _ := fixed(t, "2026-11-04 12:00:00")
	c, s, got := start(t, dir, refagent.Options{Clock: clock},
		call("call_1", "list", `{}`),
		call("call_2", "list", `{"path":"empty"}`),
		call("call_3", "read", `{"path":"empty"}`),
		call("call_4", "read", `{"path":"d"}`),
		call("call_5", "mv", `{"from":"z.md","to":"d/z.md"}`),
		call("call_6", "mv", `{"from":"d/z.md","to":"d/b.md"}`))
	if _, _, err := c.Prompt(context.Background(), s.ID, "look around"); err != nil {
		t.Fatal(err)
	}
	answers := answersOf(got)
	for id, want := range map[string]string{
		"call_1": "[#0001]\nd/\n  e/\n  b.md\n.gitignore\nz.md",
		"call_2": "[#0002]\n(empty)",
		"call_3": "[#0003]\n(empty directory)",
		"call_4": "[#0004]\ne/\nb.md",
		"call_5": "[#0005]",
		"call_6": "[#0006]\nAlready exists: " + filepath.Join(dir, "d/b.md"),
	} {
		if answers[id] != want {
			t.Errorf("%s answered %q, want %q", id, answers[id], want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "d/z.md")); err != nil {
		t.Errorf("mv made no d/z.md: %v", err)
	}
}
