package fsaccess

import (
	"path"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	for _, c := range []struct{ cwd, p, want string }{
		{"/", "/", "/"},
		{"/", "", "/"},
		{"/a/b", "", "/a/b"},
		{"/a/b", ".", "/a/b"},
		{"/a/b", "..", "/a"},
		{"/a/b", "../..", "/"},
		{"/a/b", "../../../..", "/"},
		{"/", "/../x", "/x"},
		{"/Dir1/Dir3", "../FILE1.txt", "/Dir1/FILE1.txt"},
		{"/", "/Dir1/Dir3/../../Dir1//Dir3/", "/Dir1/Dir3"},
		{"/a", "b//c/", "/a/b/c"},
		{"/a", "./b/./c/.", "/a/b/c"},
		{"/a", "/b/", "/b"},
		{"a/b", "c", "/a/b/c"},
		{"/a/../b", "c", "/b/c"},
		{"/", "...", "/..."},
		{"/", ".hidden/..x", "/.hidden/..x"},
		{"/", "//", "/"},
		{"/x", "..//..//y", "/y"},
		{"/", "/a/b/", "/a/b"},
		{"/", "/a/b//", "/a/b"},
		{"/", "/a/../", "/"},
		{"/", "/a/./", "/a"},
	} {
		if got := Resolve(c.cwd, c.p); got != c.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", c.cwd, c.p, got, c.want)
		}
	}
}

// AboveRoot tells the `..` that Resolve keeps at `/` (a path that would leave a session directory
// placed under `/`); cwd's own `..` do not count.
func TestAboveRoot(t *testing.T) {
	for _, c := range []struct {
		cwd, p string
		want   bool
	}{
		{"/", "/a/../b", false},
		{"/", "/../b", true},
		{"/", "..", true},
		{"/Dir1/Dir3", "../FILE1.txt", false},
		{"/Dir1/Dir3", "../../../x", true},
		{"/Dir1/Dir3", "/Dir1/Dir3/../../Dir1//Dir3/", false},
		{"/a/b", "../..", false},
		{"/a/b", "../../x/../..", true},
		{"a//b/", "../../..", true},
		{"/..", "a", false},
		{"/a/../b", "..", false},
		{"/a", "/b/../..", true},
	} {
		if got := AboveRoot(c.cwd, c.p); got != c.want {
			t.Errorf("AboveRoot(%q, %q) = %v, want %v", c.cwd, c.p, got, c.want)
		}
	}
}

func TestIsClean(t *testing.T) {
	for p, want := range map[string]bool{
		"/": true, "/a": true, "/a/b.md": true, "/...": true, "/.a/a.": true,
		"": false, "a": false, "//": false, "/a/": false, "/a//b": false, "/./a": false, "/a/.": false, "/a/../b": false, "/..": false,
	} {
		if got := isClean(p); got != want {
			t.Errorf("isClean(%q) = %v", p, got)
		}
	}
}

func TestParentBaseWithinAncestors(t *testing.T) {
	for _, c := range []struct{ p, parent, base string }{{"/", "/", ""}, {"/a", "/", "a"}, {"/a/b.md", "/a", "b.md"}} {
		if got := Parent(c.p); got != c.parent {
			t.Errorf("Parent(%q) = %q, want %q", c.p, got, c.parent)
		}
		if got := Base(c.p); got != c.base {
			t.Errorf("Base(%q) = %q, want %q", c.p, got, c.base)
		}
	}
	for _, c := range []struct {
		dir, p string
		want   bool
	}{{"/", "/x", true}, {"/a", "/a", true}, {"/a", "/a/b", true}, {"/a", "/ab", false}, {"/a/b", "/a", false}, {"/a", "/b/a", false}} {
		if got := Within(c.dir, c.p); got != c.want {
			t.Errorf("Within(%q, %q) = %v", c.dir, c.p, got)
		}
	}
	if got := strings.Join(Ancestors("/a/b/c"), " "); got != "/a/b /a /" {
		t.Errorf("Ancestors(/a/b/c) = %q", got)
	}
	if got := Ancestors("/"); len(got) != 0 {
		t.Errorf("Ancestors(/) = %q", got)
	}
}

// FuzzResolve: whatever the call gave, the answer is absolute and clean, resolving it again
// changes nothing, and no `..` takes it above `/`.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"", ".", "..", "/", "a/../../b", "//x//", "/a/./b/../c/", "../../..", "a\x00b", "é/./ü"} {
		f.Add("/Dir1/Dir3", s)
		f.Add("rel/..", s)
	}
	f.Fuzz(func(t *testing.T, cwd, p string) {
		got := Resolve(cwd, p)
		if !isClean(got) {
			t.Fatalf("Resolve(%q, %q) = %q: not absolute and clean", cwd, p, got)
		}
		if again := Resolve("/elsewhere", got); again != got {
			t.Fatalf("Resolve(%q) again = %q", got, again)
		}
		if again := Resolve(cwd, got); again != got {
			t.Fatalf("Resolve(cwd, %q) again = %q", got, again)
		}
		for _, name := range strings.Split(got, "/")[1:] {
			if name == ".." || name == "." || (name == "" && got != "/") {
				t.Fatalf("Resolve(%q, %q) = %q holds %q", cwd, p, got, name)
			}
		}
		// A path given absolute does not depend on cwd.
		if strings.HasPrefix(p, "/") && Resolve("/other", p) != got {
			t.Fatalf("absolute %q depends on cwd", p)
		}
	})
}

// matchNaive is MatchGlob as it was written first, every split of the names among the "**"s
// tried: the reference matchSegments is held to.
func matchNaive(pat, names []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for skip := 0; skip <= len(names); skip++ {
				if matchNaive(pat[1:], names[skip:]) {
					return true
				}
			}
			return false
		}
		if len(names) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], names[0]); !ok {
			return false
		}
		pat, names = pat[1:], names[1:]
	}
	return len(names) == 0
}

// A pattern of many "**" on a deep path that it does not match ends (trying every split of the
// names among them never did), with the answer of trying them all on small ones.
func TestMatchGlobManyGlobstars(t *testing.T) {
	pat := strings.Repeat("**/", 30) + "nomatch"
	name := strings.TrimSuffix(strings.Repeat("d/", 60), "/")
	if MatchGlob(pat, name) {
		t.Errorf("%q matched %q", pat, name)
	}
	if !MatchGlob(pat, name+"/nomatch") {
		t.Errorf("%q did not match %q", pat, name+"/nomatch")
	}
	for _, c := range []struct{ pat, name string }{
		{"**/a/**/b", "a/b"}, {"**/a/**/b", "x/a/y/z/b"}, {"**/a/**/b", "a/b/c"}, {"**/**", ""},
		{"a/**/**/*.md", "a/x.md"}, {"**/*/**", "a"}, {"**/*/**", ""}, {"**/[/**", "a/["},
	} {
		want := matchNaive(strings.Split(c.pat, "/"), strings.Split(c.name, "/"))
		if got := MatchGlob(c.pat, c.name); got != want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", c.pat, c.name, got, want)
		}
	}
}

// FuzzGlobstarIsEverySplit holds matchSegments to trying every split, on patterns and paths of a few segments.
func FuzzGlobstarIsEverySplit(f *testing.F) {
	f.Add("**/a/**/b", "x/a/y/b")
	f.Add("**/**/*.go", "a/b.go")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		pat, names := strings.Split(pattern, "/"), strings.Split(name, "/")
		if len(pat) > 8 || len(names) > 8 {
			return
		}
		if got, want := MatchGlob(pattern, name), matchNaive(pat, names); got != want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", pattern, name, got, want)
		}
	})
}
