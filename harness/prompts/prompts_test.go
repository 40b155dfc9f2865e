package prompts

import (
	"slices"
	"strings"
	"testing"
)

func TestNamesAreTheVendoredFiles(t *testing.T) {
	want := []string{"agents/explore.md", "agents/general.md", "blocks/context.md", "blocks/subagent.md",
		"blocks/workspace.md"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
}

func TestBodyDropsTheCommentOnly(t *testing.T) {
	for _, n := range Names() {
		b, err := Body(n)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b, "<!--") || strings.Contains(b, "-->") || b != strings.TrimSpace(b) || b == "" {
			t.Errorf("%s: body %q", n, b)
		}
	}
	b, _ := Body("agents/general.md")
	if want := "Do the task completely, check it, and report what you changed and how you verified it."; b != want {
		t.Errorf("general: %q, want %q", b, want)
	}
}

func TestVariables(t *testing.T) {
	for n, want := range map[string][]string{
		"blocks/subagent.md":  {"name", "instructions", "report", "read_only"},
		"blocks/workspace.md": {"start", "view", "repositories", "show", "python"},
		"agents/explore.md":   nil,
	} {
		got, err := Variables(n)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Variables(%s) = %q, %v; want %q", n, got, err, want)
		}
	}
}

func TestTextRefusesMissingAndUnknownVariables(t *testing.T) {
	for _, c := range []struct {
		name string
		vars map[string]string
		want string
	}{
		{"blocks/subagent.md", map[string]string{"name": "x"}, "no value for {{instructions}}"},
		{"agents/explore.md", map[string]string{"name": "x"}, "has no {{name}}"},
		{"blocks/skills.md", nil, "the spec has no prompts/blocks/skills.md"},
		{"../loop.partial.json", nil, "a clean path"},
	} {
		if _, err := Text(c.name, c.vars); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Text(%s, %v): %v, want %q", c.name, c.vars, err, c.want)
		}
	}
}

func TestSubagentFillsTheAgentsOwnInstructions(t *testing.T) {
	got, err := Subagent("explore", "", "")
	if err != nil {
		t.Fatal(err)
	}
	own, _ := Body("agents/explore.md")
	if !strings.HasPrefix(got, `You are the "explore" subagent.`) || !strings.Contains(got, "anything. "+own+"\n") ||
		!strings.HasSuffix(got, "could not settle.") {
		t.Errorf("Subagent(explore) = %q", got)
	}
	if v, _ := Text(SubagentBlock, map[string]string{"name": "{{name}}", "instructions": "", "report": "",
		"read_only": ""}); !strings.HasPrefix(v, `You are the "{{name}}" subagent.`) {
		t.Errorf("a value's braces were filled again: %q", v)
	}
	for _, a := range []string{"", "../x", "plan"} {
		if _, err := Subagent(a, "", ""); err == nil {
			t.Errorf("Subagent(%q): no error", a)
		}
	}
}
