package index

import (
	"errors"
	"slices"
	"testing"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func refused(t *testing.T, what string, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: %v, want an *Error", what, err)
	}
}

// The steps a tree cannot take are refused and change nothing the index holds.
func TestStepsTheTreeCannotTake(t *testing.T) {
	x := New()
	must(t, x.Write("/a/f.md", "f"))
	must(t, x.Mount("/repo", map[string]string{"r.md": "r", "d/s.md": "s"}))
	must(t, x.Mount("/other", map[string]string{"o.md": "o"}))
	held, embedded := x.Held(), x.Embedded()
	refused(t, "a relative path", x.Write("a/g.md", "g"))
	refused(t, "a write onto a directory", x.Write("/a", "g"))
	refused(t, "a write onto a mount", x.Write("/repo", "g"))
	refused(t, "a write below a file", x.Write("/a/f.md/g", "g"))
	refused(t, "rm of what is not there", x.Rm("/nope"))
	refused(t, "rm of a mount", x.Rm("/repo"))
	refused(t, "rm of /, which holds the mounts", x.Rm("/"))
	refused(t, "mv onto an existing path", x.Mv("/a/f.md", "/repo/r.md"))
	refused(t, "mv between the tree and a mount", x.Mv("/a/f.md", "/repo/f.md"))
	refused(t, "mv between two mounts", x.Mv("/repo/r.md", "/other/r.md"))
	refused(t, "mv of a mount", x.Mv("/repo", "/repo2"))
	refused(t, "mv into itself", x.Mv("/a", "/a/b"))
	refused(t, "mv into a missing directory", x.Mv("/a/f.md", "/b/f.md"))
	refused(t, "copy of what is not there", x.Copy("/nope", "/a/n"))
	refused(t, "a mount on an existing path", x.Mount("/a", nil))
	refused(t, "a mount inside a mount", x.Mount("/repo/sub", nil))
	refused(t, "a mount below a file", x.Mount("/a/f.md/m", nil))
	refused(t, "a mount's absolute path", x.Mount("/m", map[string]string{"/x": "x"}))
	refused(t, "a mount's .. path", x.Mount("/m", map[string]string{"a/../x": "x"}))
	refused(t, "a mount's file below a file", x.Mount("/m", map[string]string{"a": "1", "a/b": "2"}))
	refused(t, "a commit outside every mount", x.Commit("/a/f.md", nil))
	refused(t, "a commit of a path with no staged change", x.Commit("/repo", []string{"/repo/r.md"}))
	refused(t, "a forge commit outside every mount", x.ForgeCommit("/a", nil))
	refused(t, "a forge commit removing what the branch lacks", x.ForgeCommit("/repo", map[string]*string{"none.md": nil}))
	must(t, x.Write("/repo/r.md", "staged"))
	v := "theirs"
	refused(t, "a forge commit over a staged change", x.ForgeCommit("/repo", map[string]*string{"r.md": &v}))
	refused(t, "a forge commit making a file below another", x.ForgeCommit("/repo", map[string]*string{"n": &v, "n/m": &v}))
	if !maps(held, x.Held()) || !slices.Equal(embedded, x.Embedded()) {
		t.Errorf("a refused step changed the index: %v %v", x.Held(), x.Embedded())
	}
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Copying out of a mount a content only staged there is a write outside every mount: it is
// indexed, and embedded then.
func TestACopyOfStagedContentIsEmbeddedOutside(t *testing.T) {
	x := New()
	must(t, x.Mount("/repo", map[string]string{"a.md": "a"}))
	must(t, x.Write("/repo/a.md", "staged"))
	must(t, x.Copy("/repo/a.md", "/out.md"))
	if got, want := x.Embedded(), []string{Hash("a"), Hash("staged")}; !slices.Equal(got, want) {
		t.Errorf("embedded %q, want %q", got, want)
	}
	if got := x.Held(); got["/repo/a.md"] != Hash("a") || got["/out.md"] != Hash("staged") {
		t.Errorf("held %v", got)
	}
}

// Answers are copies: changing them changes nothing in the index.
func TestAnswersAreCopies(t *testing.T) {
	x := New()
	must(t, x.Write("/a", "a"))
	x.Held()["/a"] = "changed"
	x.Embedded()[0] = "changed"
	if x.Held()["/a"] != Hash("a") || x.Embedded()[0] != Hash("a") {
		t.Error("an answer shares the index's own state")
	}
}
