package fsaccess

import (
	"fmt"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// deepView is a view with n grants spread over a wide tree, and one deep path 64 directories
// down, with grants and floors along the way.
func deepView(b *testing.B, n int) (*View, []string) {
	grants := map[string]Level{"/": RO}
	floor := map[string]Level{}
	var tree []string
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("/team%03d/project%03d/area%d", i%100, i/100, i%7)
		grants[p] = Level(i % 4)
		tree = append(tree, p+"/file.md")
	}
	deep := ""
	for d := 0; d < 64; d++ {
		deep += fmt.Sprintf("/level%02d", d)
		if d%8 == 0 {
			grants[deep] = Stage
		}
		if d%16 == 0 {
			floor[deep] = Commit
		}
	}
	tree = append(tree, deep+"/leaf.md")
	v, err := New(Config{Tree: tree, Grants: grants, Floor: floor})
	if err != nil {
		b.Fatal(err)
	}
	paths := []string{deep + "/leaf.md", deep + "/missing/x.md", "/team042/project050/area0/file.md", "/nowhere/at/all.md",
		strings.Join(strings.Split(deep, "/")[:20], "/")}
	return v, paths
}

// BenchmarkLevel: a level is a walk up the path's ancestors with a map lookup each, so its cost
// follows the path's depth, not the number of grants (compare grants=100 with grants=10000).
func BenchmarkLevel(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("grants=%d", n), func(b *testing.B) {
			v, paths := deepView(b, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = v.Level(paths[i%len(paths)])
			}
		})
	}
}

// BenchmarkRead is the hot path of a look: resolve, level, visibility and the answer.
func BenchmarkRead(b *testing.B) {
	v, paths := deepView(b, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = v.Read(paths[i%len(paths)])
	}
}

// BenchmarkParseTexts is the first use of the error texts and the listing's marks: what every
// process pays once, before its first answer.
func BenchmarkParseTexts(b *testing.B) {
	md, err := spec.ReadFile("filesystem.md")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseTexts(md); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseDeviceSkipped is the first use of a device's build directories.
func BenchmarkParseDeviceSkipped(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseDeviceSkipped(); err != nil {
			b.Fatal(err)
		}
	}
}
