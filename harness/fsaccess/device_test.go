package fsaccess

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDeviceSkippedIsTheSentencesNames(t *testing.T) {
	if got := DeviceSkipped(); !slices.Equal(got, []string{".git", "node_modules"}) {
		t.Errorf("DeviceSkipped() = %q", got)
	}
}

func TestDeviceTree(t *testing.T) {
	tree := []string{"/p/.git/HEAD", "/p/.gitignore", "/p/src/a.go", "/p/src/a.log", "/p/web/node_modules/x/i.js",
		"/p/web/app.js", "/p/out/bin", "/p/empty/", "/p/logs/a.log", "/p/docs/keep.log", "/p/sub/.gitignore",
		"/p/sub/gen/g.go", "/p/sub/z.go"}
	got := DeviceTree(tree, map[string][]string{"/p/.gitignore": {"# build", "out/", "*.log", "!docs/keep.log", ""},
		"/p/sub/.gitignore": {"/gen"}}, "/p")
	want := []string{"/p/", "/p/.gitignore", "/p/docs/", "/p/docs/keep.log", "/p/src/", "/p/src/a.go", "/p/sub/",
		"/p/sub/.gitignore", "/p/sub/z.go", "/p/web/", "/p/web/app.js"}
	if !slices.Equal(got, want) {
		t.Errorf("DeviceTree:\n got %q\nwant %q", got, want)
	}
	if got := DeviceTree([]string{"/p/empty/"}, nil, "/p/empty"); !slices.Equal(got, []string{"/p/", "/p/empty/"}) {
		t.Errorf("the listed directory stays: %q", got)
	}
	for _, bad := range []string{"[a", "a/[b", "!x/["} {
		if CheckGitignoreLine(bad) == nil {
			t.Errorf("CheckGitignoreLine(%q): nil", bad)
		}
	}
}

// TestGitignoreDoubleStar holds "**" to gitignore(5)'s examples.
func TestGitignoreDoubleStar(t *testing.T) {
	for _, c := range []struct {
		line, p   string
		dir, want bool
	}{
		{"**/foo", "/p/foo", false, true},
		{"**/foo", "/p/a/b/foo", true, true},
		{"**/foo/bar", "/p/x/foo/bar", false, true},
		{"**/foo/bar", "/p/foo/x/bar", false, false},
		{"abc/**", "/p/abc/x/y", false, true},
		{"abc/**", "/p/abc", true, false}, // everything inside, not abc itself
		{"abc/**", "/p/z/abc/x", false, false},
		{"a/**/b", "/p/a/b", true, true},
		{"a/**/b", "/p/a/x/y/b", true, true},
		{"a/**/b", "/p/a/x/c", true, false},
		{"ab**c", "/p/z/abxc", false, true}, // other consecutive asterisks are regular asterisks
		{"ab**c", "/p/ab/c", false, false},
		{"/**/gen", "/p/x/gen", true, true},
		{"x/**/", "/p/x/z", false, false}, // directories only
		{"x/**/", "/p/x/y", true, true},
	} {
		if got := DeviceLeftOut(map[string][]string{"/p/.gitignore": {c.line}}, c.p, c.dir); got != c.want {
			t.Errorf("%q leaves out %s (dir %v): %v, want %v", c.line, c.p, c.dir, got, c.want)
		}
	}
}

// TestDeviceLeftOutIsGit holds DeviceLeftOut to git's own reading: `git check-ignore` over a
// tree on disk, .gitignore files and all, for every path of it.
func TestDeviceLeftOutIsGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git on PATH: the reading is checked against git where it is installed")
	}
	tree := []string{"README.md", "a.log", "keep.log", "abc/f", "abc/x/y/g", "a/b/f", "a/x/b/f", "a/x/y/b/f",
		"foo/bar/f", "z/foo/bar/f", "z/afoo", "gen/x.go", "lib/gen/y.go", "lib/fixtures/f.txt", "lib/a.go",
		"docs/keep.log", "docs/deep/er/n.md", "x/y/z", "#hash", "!bang", "sp ", "sp"}
	for _, c := range []map[string][]string{
		{".gitignore": {"abc/**"}},
		{".gitignore": {"**/foo"}},
		{".gitignore": {"**/foo/bar", "!z/**"}},
		{".gitignore": {"a/**/b"}},
		{".gitignore": {"a**", "!a/x/**"}},
		{".gitignore": {"**/y", "x/**/"}},
		{".gitignore": {"*.log", "!keep.log", "/gen"}, "lib/.gitignore": {"fixtures/", "**/y.go"}},
		{".gitignore": {"docs/**/*.md", "**/deep/", "ab**c"}},
		{".gitignore": {"**", "!**/", "!*.md"}},
		{".gitignore": {"\\#hash", "\\!bang", "#hash", "keep.log   ", "sp\\  "}},
	} {
		dir := t.TempDir()
		run := func(stdin string, args ...string) string {
			cmd := exec.Command(git, args...)
			cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
			// No user's or system's excludes: the .gitignore files alone.
			cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
			out, err := cmd.Output()
			if _, exit := err.(*exec.ExitError); err != nil && !(exit && len(args) > 0 && args[0] == "check-ignore") {
				t.Fatalf("git %s: %v", strings.Join(args, " "), err)
			}
			return string(out)
		}
		run("", "init", "-q")
		gitignore := map[string][]string{}
		for f, lines := range c {
			write(t, filepath.Join(dir, f), strings.Join(lines, "\n")+"\n")
			gitignore["/p/"+f] = lines
		}
		paths := map[string]bool{} // relative path → is a directory
		for _, f := range tree {
			write(t, filepath.Join(dir, f), "x\n")
			paths[f] = false
			for d := filepath.Dir(f); d != "."; d = filepath.Dir(d) {
				paths[filepath.ToSlash(d)] = true
			}
		}
		var list []string
		for p := range paths {
			list = append(list, p)
		}
		slices.Sort(list)
		ignored := map[string]bool{}
		for _, l := range strings.Split(run(strings.Join(list, "\n")+"\n", "check-ignore", "--no-index", "--stdin"), "\n") {
			ignored[l] = l != ""
		}
		for _, p := range list {
			if got := DeviceLeftOut(gitignore, "/p/"+p, paths[p]); got != ignored[p] {
				t.Errorf("%q: %s left out %v, git check-ignore %v", c, p, got, ignored[p])
			}
		}
	}
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzMatchGlobIsMatch: without "**", matching name by name is path.Match of the whole path
// (whose "*" and "?" never match a "/"), and with it nothing panics.
func FuzzMatchGlobIsMatch(f *testing.F) {
	for _, s := range [][2]string{{"a/*/b", "a/x/b"}, {"a?b", "axb"}, {"**/a", "b/a"}, {"a/**", "a"}, {"*", "a/b"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, name string) {
		if strings.Trim(pat, "ab*?/") != "" || strings.Trim(name, "ab/") != "" {
			return
		}
		got := MatchGlob(pat, name)
		if strings.Contains(pat, "**") {
			return
		}
		if want, _ := path.Match(pat, name); got != want {
			t.Errorf("MatchGlob(%q, %q) = %v, path.Match %v", pat, name, got, want)
		}
	})
}
