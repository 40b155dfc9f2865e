package steps

import "testing"

// A Given's file is found by any spelling of its path, resolved against the start directory as
// the session resolves it (filesystem.md, Paths: fsaccess.Resolve).
func TestContextContentBySpelling(t *testing.T) {
	cwd := "/w"
	b := &contextBuilder{cwd: &cwd, files: map[string]string{"a.md": "alpha", "/top.md": "top"}}
	for p, want := range map[string]string{
		"a.md": "alpha", "./a.md": "alpha", "/w/a.md": "alpha", "/w/x/../a.md": "alpha", "//w//a.md/": "alpha",
		"../top.md": "top", "/../../top.md": "top", "/w/../top.md": "top",
		"b.md": "", "/a.md": "",
	} {
		if got, _ := b.content(p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}
