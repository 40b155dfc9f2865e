package spec

import (
	"regexp"
	"strings"
	"testing"
)

// BenchmarkRender is a compaction table's row (four short holes), a result with a whole file's
// content in its one long hole (the two shapes area context renders most), and a prompt block
// (holes between stretches of prose).
func BenchmarkRender(b *testing.B) {
	block, err := ReadFile("prompts/blocks/workspace.md")
	if err != nil {
		b.Fatal(err)
	}
	blockVars := map[string]string{}
	for _, m := range regexp.MustCompile(`\{\{(.*?)\}\}`).FindAllStringSubmatch(string(block), -1) {
		blockVars[m[1]] = "/work/" + m[1]
	}
	for _, c := range []struct {
		name, tmpl string
		vars       map[string]string
	}{
		{"row", Text("context.compaction.row"),
			map[string]string{"path": "docs/a.md", "lines": "1-200 of 340", "sha": "b6a98d9c", "id": "#2001"}},
		{"content", "[{{id}} {{path}} sha {{sha}}]\n{{content}}",
			map[string]string{"id": "#0001", "path": "a.md", "sha": "b6a98d9c", "content": strings.Repeat("x y\n", 5000)}},
		{"prompt", string(block), blockVars},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Render(c.tmpl, c.vars); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
