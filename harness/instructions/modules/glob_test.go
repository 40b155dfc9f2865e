package modules

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCompileGlobRefuses(t *testing.T) {
	for _, p := range []string{"", "/src/**", `src\api\*.ts`, "..", "../x", "src/../x", "src/..", "a\\"} {
		if _, err := CompileGlob(p); err == nil {
			t.Errorf("CompileGlob(%q): no error", p)
		}
	}
	for _, p := range []string{"*", "**", "src/**/*.ts", "..x/y", "x../y", "./src/*", "a//b", "[x]", "{a,b}", "é?"} {
		if _, err := CompileGlob(p); err != nil {
			t.Errorf("CompileGlob(%q): %v", p, err)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		glob string
		yes  []string
		no   []string
	}{
		{"src/*.ts", []string{"src/a.ts", "src/.ts", "src/.hidden.ts"}, []string{"src/a/b.ts", "src/a.tsx", "a.ts", "src", "Src/a.ts"}},
		{"src/**/*.ts", []string{"src/a.ts", "src/a/b.ts", "src/a/b/c/d.ts"}, []string{"src.ts", "lib/src/a.ts", "src/a.js"}},
		{"**/*.go", []string{"main.go", "a/b/main.go", ".go"}, []string{"main.go/x", "main.gox"}},
		{"**", []string{"a", "a/b", ".x/y/z"}, nil},
		{"src/**", []string{"src", "src/a", "src/a/b"}, []string{"srcx", "lib/src/a"}},
		{"a/**/b", []string{"a/b", "a/x/b", "a/x/y/b"}, []string{"a/b/c", "ab", "a/xb"}},
		{"**/x/**", []string{"x", "x/y", "a/x", "a/b/x/c/d"}, []string{"a/xy", "xa/b"}},
		{"docs/?.md", []string{"docs/a.md", "docs/é.md", "docs/€.md"}, []string{"docs/ab.md", "docs/.md", "docs//.md"}},
		{"??", []string{"ab", "éé", "a€"}, []string{"a", "abc", "a/b"}},
		{"*?*", []string{"a", "ab", "€"}, []string{""}},
		{"a**b", []string{"ab", "axxb"}, []string{"a/b", "a/x/b"}},
		{"docs/[draft].md", []string{"docs/[draft].md"}, []string{"docs/d.md", "docs/r.md"}},
		{"{a,b}.md", []string{"{a,b}.md"}, []string{"a.md", "b.md"}},
		{"README.md", []string{"README.md"}, []string{"readme.md", "docs/README.md"}},
		{"*.env", []string{".env", "a.env"}, []string{"a/.env"}},
		{"./src/*", nil, []string{"src/a"}},
		{"a/*/", nil, []string{"a/b", "a/b/c"}},
	} {
		g, err := CompileGlob(c.glob)
		if err != nil {
			t.Fatalf("CompileGlob(%q): %v", c.glob, err)
		}
		for _, p := range c.yes {
			if !g.Match(p) || !naiveMatch(c.glob, p) {
				t.Errorf("%q should match %q (Match %v)", c.glob, p, g.Match(p))
			}
		}
		for _, p := range c.no {
			if g.Match(p) || naiveMatch(c.glob, p) {
				t.Errorf("%q should not match %q (Match %v)", c.glob, p, g.Match(p))
			}
		}
	}
}

func TestMatchAnyTriesOnlyThePathsUnderTheLiteralHead(t *testing.T) {
	ps := NewPaths([]string{"src/b.ts", "lib/a.ts", "src/a.ts", "src/a.ts", "srcx/a.ts", "src"})
	if ps.Len() != 5 {
		t.Fatalf("Len = %d, want 5 (one duplicate)", ps.Len())
	}
	for glob, want := range map[string]bool{"src/*.ts": true, "src/**": true, "srcx/*.ts": true, "lib/*.js": false, "src/c.ts": false, "**/a.ts": true, "src": true, "sr": false} {
		g, _ := CompileGlob(glob)
		if got := g.MatchAny(ps); got != want {
			t.Errorf("%q MatchAny = %v, want %v", glob, got, want)
		}
	}
}

// naiveMatch is the dialect written the slow, obvious way, to check Match against.
func naiveMatch(glob, p string) bool {
	var segs func(ps, ss []string) bool
	segs = func(ps, ss []string) bool {
		if len(ps) == 0 {
			return len(ss) == 0
		}
		if ps[0] == "**" {
			for k := 0; k <= len(ss); k++ {
				if segs(ps[1:], ss[k:]) {
					return true
				}
			}
			return false
		}
		return len(ss) > 0 && naiveName([]rune(ps[0]), []rune(ss[0])) && segs(ps[1:], ss[1:])
	}
	return segs(strings.Split(glob, "/"), strings.Split(p, "/"))
}

func naiveName(p, s []rune) bool {
	if len(p) == 0 {
		return len(s) == 0
	}
	switch p[0] {
	case '*':
		for k := 0; k <= len(s); k++ {
			if naiveName(p[1:], s[k:]) {
				return true
			}
		}
		return false
	case '?':
		return len(s) > 0 && naiveName(p[1:], s[1:])
	}
	return len(s) > 0 && s[0] == p[0] && naiveName(p[1:], s[1:])
}

// FuzzGlob checks Match against naiveMatch on any glob CompileGlob accepts and any path, and
// that compiling never panics.
func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{{"src/**/*.ts", "src/a/b.ts"}, {"**/x/**", "a/x/b"}, {"?é*", "aéé"}, {"a**b", "ab"}, {"**", "a"}, {"*.md", ".md"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, p string) {
		g, err := CompileGlob(glob)
		if err != nil {
			return
		}
		if !utf8.ValidString(glob) || !utf8.ValidString(p) || len(glob) > 64 || len(p) > 64 || strings.Count(glob, "*") > 8 {
			return // the oracle reads runes and is exponential in stars
		}
		if got, want := g.Match(p), naiveMatch(glob, p); got != want {
			t.Fatalf("%q.Match(%q) = %v, naive says %v", glob, p, got, want)
		}
		if got := g.MatchAny(NewPaths([]string{p})); got != g.Match(p) {
			t.Fatalf("%q: MatchAny([%q]) = %v, Match = %v", glob, p, got, !got)
		}
	})
}

// Discovery matches every rule file's path against the rules glob: a match makes nothing on the
// heap for a path of up to 16 segments.
func TestMatchDoesNotAllocate(t *testing.T) {
	g, err := CompileGlob(".elowen/rules/**/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { g.Match(".elowen/rules/team/sub/rule.md") }); n != 0 {
		t.Errorf("%v allocations per match", n)
	}
}

// BenchmarkGlobMatch is the rules glob against a rule file's path, as discovery does per file.
func BenchmarkGlobMatch(b *testing.B) {
	g, err := CompileGlob(".elowen/rules/**/*.md")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !g.Match(".elowen/rules/team/sub/rule.md") {
			b.Fatal("no match")
		}
	}
}
