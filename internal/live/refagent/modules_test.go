package refagent_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// Rule modules (seeds/004): an unconditional one rides the system prompt at spawn; a
// conditional one is appended, in its envelope, to the request after a read touched a path its
// globs match — once: the next request after another touch appends nothing again.
func TestRuleModules(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	write(t, dir, ".elowen/rules/style.md", "# Style\nUse tabs.\n")
	write(t, dir, ".elowen/rules/api.md", "---\npaths:\n  - \"src/api/**\"\n---\n# API rules\nValidate inputs.\n")
	write(t, dir, "src/api/users.ts", "export {}\n")
	c, s, got := start(t, dir, refagent.Options{},
		call("call_1", "read", `{"path":"src/api/users.ts"}`), call("call_2", "read", `{"path":"src/api/users.ts"}`))
	if _, _, err := c.Prompt(context.Background(), s.ID, "go"); err != nil {
		t.Fatal(err)
	}
	reqs := got.all()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	sys := reqs[0].Messages[0].Content
	style := `<instruction_module path="` + filepath.ToSlash(filepath.Join(dir, ".elowen/rules/style.md")) + `">`
	if !strings.Contains(sys, style) || strings.Contains(sys, "API rules") {
		t.Errorf("the system prompt does not hold the unconditional module alone:\n%s", sys)
	}
	second := reqs[1].Messages
	last := second[len(second)-1]
	if last.Role != "user" || !strings.Contains(last.Content, "# API rules\nValidate inputs.") || !strings.Contains(last.Content, "api.md\">") {
		t.Errorf("the request after the read ends with %+v, want the api module's envelope", last)
	}
	third := reqs[2].Messages
	n := strings.Count(third[len(third)-1].Content, "API rules") + strings.Count(third[len(third)-2].Content, "API rules")
	if n != 0 {
		t.Error("the module was appended again after a second touch")
	}
}
