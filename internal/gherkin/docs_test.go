package gherkin

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/runner"
)

// docs/features.md lists every step of every area, as the unknown-step message shows it.
func TestDocsListEveryStep(t *testing.T) {
	b, err := os.ReadFile("../../docs/features.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, a := range Areas() {
		if !strings.Contains(doc, "`internal/gherkin/features/"+a+".feature`") {
			t.Errorf("docs/features.md has no section for %s", a)
		}
		area, _ := conformance.ByName(a)
		for _, d := range area.Steps.Docs() {
			if !strings.Contains(doc, "| `"+strings.ReplaceAll(d.Step, "|", `\|`)+"` | "+strings.ReplaceAll(d.Doc, "|", `\|`)+" |") {
				t.Errorf("docs/features.md lacks the %s step %q (%s)", a, d.Step, d.Doc)
			}
		}
	}
}

// Each area's example in docs/features.md is a scenario that runs and passes against the builtin.
func TestDocsExamplesPass(t *testing.T) {
	b, err := os.ReadFile("../../docs/features.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := strings.Split(string(b), "\n### ")
	seen := 0
	for _, sec := range sections[1:] {
		area, _, _ := strings.Cut(sec, " ")
		if a, ok := conformance.ByName(area); !ok || a.Steps == nil {
			continue
		}
		start := strings.Index(sec, "```gherkin\n")
		if start < 0 {
			t.Errorf("%s: no example", area)
			continue
		}
		block := sec[start+len("```gherkin\n"):]
		block = block[:strings.Index(block, "```")]
		src := "Feature: " + area + "\n" + table.Indent(block, "  ")
		scs, err := Load(fstest.MapFS{area + ".feature": {Data: []byte(src)}}, "docs")
		if err != nil {
			t.Errorf("%s: %v", area, err)
			continue
		}
		info, _ := runner.Builtin{}.Start(context.Background())
		for _, r := range RunScenarios(context.Background(), runner.Builtin{}, info, scs, runner.Options{}) {
			if r.Verdict != runner.Pass {
				t.Errorf("%s: the docs' example fails:\n%s", area, Failure(r))
			}
		}
		seen++
	}
	if seen != len(Areas()) {
		t.Errorf("%d examples for %d areas", seen, len(Areas()))
	}
}
