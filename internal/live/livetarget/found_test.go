package livetarget

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

func TestFoundTree(t *testing.T) {
	src := "src"
	files, err := foundTree("grep", foundArgs{Path: &src}, "src/a.ts:3: // TODO\nb.ts:1: TODO b")
	if err != nil {
		t.Fatal(err)
	}
	if c := files["src/a.ts"]; c == nil || *c != "\n\n// TODO\n" {
		t.Errorf("src/a.ts = %v", c)
	}
	if c := files["src/b.ts"]; c == nil || *c != "TODO b\n" {
		t.Errorf("src/b.ts = %v", c)
	}
	if _, err := foundTree("grep", foundArgs{}, "a:1"); err == nil {
		t.Error("a grep line with no text said a tree")
	}
	files, _ = foundTree("list", foundArgs{Path: &src}, "src/\n  a.ts\n  d/")
	if _, ok := files["src/a.ts"]; !ok || len(files) != 2 {
		t.Errorf("list's tree: %v", files)
	}
	if _, ok := files["src/d/"]; !ok {
		t.Errorf("list's directory: %v", files)
	}
}

// A harness's body stands for the case's text only where texts and bodies pair one to one.
func TestFoundBodies(t *testing.T) {
	step := func(text string) conformance.ContextStep {
		tool := "list"
		return conformance.ContextStep{Op: "output", Tool: &tool, Text: &text}
	}
	steps := []conformance.ContextStep{step("a.md"), step("a.md"), step("a.md\nb.md")}
	got := []string{"[#0001]\n.git/\na.md", "[#0002] Same result as #0001.", "[#0003]\n.git/\na.md\nb.md"}
	foundBodies(steps, got)
	want := []string{"[#0001]\na.md", "[#0002] Same result as #0001.", "[#0003]\na.md\nb.md"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: %q, want %q", i+1, got[i], want[i])
		}
	}
	// Two texts printed alike: nothing is written as the case's, so the diff shows it.
	got = []string{"[#0001]\nx", "[#0002] Same result as #0001.", "[#0003]\nx"}
	foundBodies(steps, got)
	if got[0] != "[#0001]\nx" || got[2] != "[#0003]\nx" {
		t.Errorf("a clash was written as the case's: %q", got)
	}
}

func TestDescendants(t *testing.T) {
	tree := []string{"/AGENTS.md", "/Dir1/", "/Dir1/FILE1.txt", "/Dir1/Dir3/", "/Dir1/Dir3/a.md", "/Dir10/x"}
	got := descendants(tree, "/Dir1")
	want := []string{"/Dir1/FILE1.txt", "/Dir1/Dir3/", "/Dir1/Dir3/a.md"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("below /Dir1: %q, want %q", got, want)
	}
	if got := descendants(tree, "/AGENTS.md"); len(got) != 0 {
		t.Errorf("below a file: %q", got)
	}
}
