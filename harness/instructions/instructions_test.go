package instructions

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

func view(t testing.TB, files []string, grants map[string]fsaccess.Level) *fsaccess.View {
	t.Helper()
	if grants == nil {
		grants = map[string]fsaccess.Level{"/": fsaccess.RO}
	}
	v, err := fsaccess.New(fsaccess.Config{Tree: files, Grants: grants})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// extra/instructions.json's names are filesystem.md's sentence, in its order, and the cases
// agree on the preference: where a directory holds both and both are readable, the first loads.
func TestNamesAreFilesystemMDsSentence(t *testing.T) {
	md, err := spec.ReadFile("filesystem.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\*\*The names\*\*, in order of preference within one directory: ([^.]*(?:\.md[^.]*)*)\.\s`).FindSubmatch(md)
	if m == nil {
		t.Fatal("filesystem.md has no sentence naming the instruction files")
	}
	var want []string
	for _, s := range regexp.MustCompile("`([^`]+)`").FindAllSubmatch(m[1], -1) {
		want = append(want, string(s[1]))
	}
	if got := Names(); !reflect.DeepEqual(got, want) || len(got) != 2 {
		t.Fatalf("Names() = %q, filesystem.md says %q", got, want)
	}

	b, err := fs.ReadFile(spec.Conformance(), "instructions.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Files  []string
			Grants map[string]string
			Expect []string
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, c := range f.Cases {
		if c.Grants != nil {
			continue
		}
		for _, p := range c.Files {
			dir := fsaccess.Parent(p)
			if fsaccess.Base(p) != want[1] || !contains(c.Files, fsaccess.Join(dir, want[0])) {
				continue
			}
			checked++
			if !contains(c.Expect, fsaccess.Join(dir, want[0])) || contains(c.Expect, p) {
				t.Errorf("case %d: in %s with both names, expect %q", i, dir, c.Expect)
			}
		}
	}
	if checked == 0 {
		t.Error("no case holds both names in one directory: the preference is unchecked")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestChain(t *testing.T) {
	stack := []string{"/AGENTS.md", "/sec/AGENTS.md", "/sec/repo/CLAUDE.md", "/sec/repo/src/AGENTS.md"}
	for _, c := range []struct {
		name            string
		files           []string
		grants          map[string]fsaccess.Level
		boundary, start string
		want            []string
	}{
		{"unclean boundary and start", stack, nil, "/sec/", "/sec//repo/./src/..", []string{"/sec/AGENTS.md", "/sec/repo/CLAUDE.md"}},
		{"a relative start is below the boundary", stack, nil, "/sec", "repo/src", []string{"/sec/AGENTS.md", "/sec/repo/CLAUDE.md", "/sec/repo/src/AGENTS.md"}},
		{"start at the boundary", stack, nil, "/sec/repo", "/sec/repo", []string{"/sec/repo/CLAUDE.md"}},
		{"start above the boundary is outside it", stack, nil, "/sec/repo", "/sec", []string{"/sec/repo/CLAUDE.md"}},
		{"start beside the boundary", stack, nil, "/sec/repo", "/sec/repository", []string{"/sec/repo/CLAUDE.md"}},
		{"a start that does not exist is walked by its text", stack, nil, "/", "/sec/nope/deeper", []string{"/AGENTS.md", "/sec/AGENTS.md"}},
		{"a directory named AGENTS.md is not a file", []string{"/x/AGENTS.md/", "/x/CLAUDE.md"}, nil, "/", "/x", []string{"/x/CLAUDE.md"}},
		{"nothing granted loads nothing", stack, map[string]fsaccess.Level{}, "/", "/sec/repo/src", []string{}},
		{"a file granted on its own in a passage", stack, map[string]fsaccess.Level{"/sec/repo/CLAUDE.md": fsaccess.RO}, "/", "/sec/repo/src", []string{"/sec/repo/CLAUDE.md"}},
		{"taken away below a granted directory: the walk goes on", stack, map[string]fsaccess.Level{"/": fsaccess.RO, "/sec": fsaccess.None, "/sec/repo": fsaccess.Stage}, "/", "/sec/repo/src", []string{"/AGENTS.md", "/sec/repo/CLAUDE.md", "/sec/repo/src/AGENTS.md"}},
	} {
		got := Chain(view(t, c.files, c.grants), c.boundary, c.start)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Chain = %q, want %q", c.name, got, c.want)
		}
	}
}

// A floor lowers a grant like any other: a file floored to none is not loaded.
func TestChainUnderAFloor(t *testing.T) {
	v, err := fsaccess.New(fsaccess.Config{
		Tree:   []string{"/AGENTS.md", "/sec/AGENTS.md", "/sec/CLAUDE.md"},
		Grants: map[string]fsaccess.Level{"/": fsaccess.Commit},
		Floor:  map[string]fsaccess.Level{"/sec/AGENTS.md": fsaccess.None},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Chain(v, "/", "/sec"), []string{"/AGENTS.md", "/sec/CLAUDE.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Chain = %q, want %q", got, want)
	}
}

func TestWalkAndRel(t *testing.T) {
	if got, want := Walk("/sec", "/sec/repo/src"), []string{"/sec", "/sec/repo", "/sec/repo/src"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Walk = %q", got)
	}
	if got := Walk("/", "/"); !reflect.DeepEqual(got, []string{"/"}) {
		t.Errorf("Walk(/, /) = %q", got)
	}
	// Resolved first; a start outside the boundary is the boundary; the root as boundary.
	for _, c := range []struct {
		boundary, start string
		want            []string
	}{
		{"/sec/", "repo/./src/", []string{"/sec", "/sec/repo", "/sec/repo/src"}},
		{"/sec", "/sec", []string{"/sec"}},
		{"/sec", "/other/x", []string{"/sec"}},
		{"/sec", "..", []string{"/sec"}},
		{"/", "/a/b", []string{"/", "/a", "/a/b"}},
	} {
		if got := Walk(c.boundary, c.start); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Walk(%q, %q) = %q, want %q", c.boundary, c.start, got, c.want)
		}
	}
	for _, c := range []struct{ boundary, p, want string }{
		{"/", "/AGENTS.md", "AGENTS.md"},
		{"/sec", "/sec/repo/CLAUDE.md", "repo/CLAUDE.md"},
		{"/sec/", "/sec/AGENTS.md", "AGENTS.md"},
	} {
		if got := Rel(c.boundary, c.p); got != c.want {
			t.Errorf("Rel(%s, %s) = %q, want %q", c.boundary, c.p, got, c.want)
		}
	}
}

func TestNearby(t *testing.T) {
	files := []string{"/AGENTS.md", "/p/AGENTS.md", "/p/a/CLAUDE.md", "/p/a/b/AGENTS.md", "/p/a/b/c.go", "/p/a/b/d.go",
		"/p/x/y.go", "/p/h/AGENTS.md", "/p/h/z.go", "/other/AGENTS.md", "/other/o.go"}
	v := view(t, files, map[string]fsaccess.Level{"/": fsaccess.Stage, "/p/h/AGENTS.md": fsaccess.None})
	handed := map[string]bool{}
	for _, f := range Chain(v, "/", "/p") {
		handed[f] = true
	}
	steps := []struct {
		read string
		give []string
	}{
		{"/p/a/b/c.go", []string{"/p/a/CLAUDE.md", "/p/a/b/AGENTS.md"}},
		{"a/b/d.go", nil},          // once per session
		{"/p/x/y.go", nil},         // no instruction file on the way
		{"/p/h/z.go", nil},         // the one on the way is at none
		{"/other/o.go", nil},       // not below the start directory
		{"/p/a/b/missing.go", nil}, // a read that reads nothing
		{"/p/AGENTS.md", nil},      // the start directory's own is the chain's
		{"/p/a", nil},              // a directory is not a file read
	}
	for _, s := range steps {
		before := len(handed)
		give, next := Nearby(v, "/", "/p", s.read, handed)
		if len(handed) != before {
			t.Fatalf("Nearby changed the set it was given")
		}
		if !reflect.DeepEqual(give, s.give) {
			t.Errorf("read %s: give %q, want %q", s.read, give, s.give)
		}
		handed = next
	}
	// Reading an instruction file itself hands the ones above it, and counts it as handed.
	give, next := Nearby(v, "/", "/p", "/p/a/b/AGENTS.md", map[string]bool{})
	if !reflect.DeepEqual(give, []string{"/p/a/CLAUDE.md"}) || !next["/p/a/b/AGENTS.md"] {
		t.Errorf("reading /p/a/b/AGENTS.md: give %q, handed %v", give, next)
	}
	if give, _ := Nearby(v, "/", "/p", "/p/a/b/c.go", next); len(give) != 0 {
		t.Errorf("after reading them, c.go hands %q", give)
	}
}

// BenchmarkChain: a chain 32 directories deep, two names looked up in each.
func BenchmarkChain(b *testing.B) {
	var files []string
	dir := ""
	for d := 0; d < 32; d++ {
		dir += fmt.Sprintf("/d%02d", d)
		if d%3 == 0 {
			files = append(files, dir+"/AGENTS.md")
		} else if d%3 == 1 {
			files = append(files, dir+"/CLAUDE.md")
		}
	}
	v := view(b, files, map[string]fsaccess.Level{"/": fsaccess.RO, "/d00/d01": fsaccess.None, "/d00/d01/d02/d03": fsaccess.Stage})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := Chain(v, "/", dir); len(got) == 0 || !strings.HasSuffix(got[0], ".md") {
			b.Fatal(got)
		}
	}
}

// Given hands each nearby file once, after the chain, in the order the reads find them.
func TestGivenHandsEachOnceAfterTheChain(t *testing.T) {
	v := view(t, []string{"/AGENTS.md", "/a/AGENTS.md", "/a/b/AGENTS.md", "/a/b/c.md", "/a/d.md"}, nil)
	got := Given(v, "/", "/", []string{"/a/d.md", "/a/b/c.md", "/a/b/c.md", "/a/d.md"})
	want := []string{"/AGENTS.md", "/a/AGENTS.md", "/a/b/AGENTS.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Given = %q, want %q", got, want)
	}
	if got := Given(v, "/", "/a", nil); !reflect.DeepEqual(got, []string{"/AGENTS.md", "/a/AGENTS.md"}) {
		t.Errorf("Given without reads = %q, want the chain", got)
	}
}

func TestRelOrAbs(t *testing.T) {
	for _, c := range [][3]string{
		{"/", "/AGENTS.md", "AGENTS.md"},
		{"/sec", "/sec/repo/CLAUDE.md", "repo/CLAUDE.md"},
		{"/sec", "/home/u/AGENTS.md", "/home/u/AGENTS.md"},
		{"/sec", "/sector/AGENTS.md", "/sector/AGENTS.md"},
	} {
		if got := RelOrAbs(c[0], c[1]); got != c[2] {
			t.Errorf("RelOrAbs(%s, %s) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
}

// A link counts when its target, resolved from the link's directory, is a file in the project.
func TestLinkedKeepsOnlyLinksIntoTheProject(t *testing.T) {
	files := []string{"/out/A.md", "/p/s/r.md"}
	got := Linked(files, "/p", map[string]string{
		"/p/AGENTS.md": "/out/A.md", "/p/x/AGENTS.md": "../s/r.md", "/p/y/AGENTS.md": "none.md",
		"/p/z/AGENTS.md": "../../out/A.md",
	})
	want := []string{"/out/A.md", "/p/s/r.md", "/p/x/AGENTS.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Linked = %q, want %q", got, want)
	}
}
