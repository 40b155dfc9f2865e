package refagent

import "testing"

// A path is in the view when it is the boundary or below it (fsaccess.Within): its view path is
// what follows the boundary; a name that only begins like the boundary is outside.
func TestInView(t *testing.T) {
	for _, c := range []struct {
		root, abs, want string
		ok              bool
	}{
		{"/w/proj", "/w/proj", "/", true},
		{"/w/proj", "/w/proj/a/b.md", "/a/b.md", true},
		{"/w/proj", "/w/project/a.md", "", false},
		{"/w/proj", "/w", "", false},
		{"/", "/etc/x", "/etc/x", true},
		{"/", "/", "/", true},
	} {
		if got, ok := (&disk{root: c.root}).inView(c.abs); got != c.want || ok != c.ok {
			t.Errorf("root %s, %s: %q %v, want %q %v", c.root, c.abs, got, ok, c.want, c.ok)
		}
	}
}
