package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

func materialize(t testing.TB, tree []string, links map[string]string) *Disk {
	t.Helper()
	d, err := Materialize(tree, links)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestCheckTreeRefuses(t *testing.T) {
	long := strings.Repeat("n", 256)
	for name, c := range map[string]struct {
		tree  []string
		links map[string]string
		field string
	}{
		"relative":           {tree: []string{"a/b"}, field: "tree[0]"},
		"dot-dot":            {tree: []string{"/a/../b"}, field: "tree[0]"},
		"dot":                {tree: []string{"/a/./b"}, field: "tree[0]"},
		"NUL":                {tree: []string{"/a\x00b"}, field: "tree[0]"},
		"long name":          {tree: []string{"/" + long}, field: "tree[0]"},
		"too deep":           {tree: []string{strings.Repeat("/d", 33)}, field: "tree[0]"},
		"file and dir":       {tree: []string{"/a", "/a/"}, field: "tree[1]"},
		"below a file":       {tree: []string{"/a", "/a/b"}, field: "tree[1]"},
		"link below a file":  {tree: []string{"/a"}, links: map[string]string{"/a/l": "/x"}, field: `links["/a/l"]`},
		"file below a link":  {tree: []string{"/l/x"}, links: map[string]string{"/l": "/x"}, field: `links["/l"]`},
		"link is a file":     {tree: []string{"/a"}, links: map[string]string{"/a": "/x"}, field: `links["/a"]`},
		"empty target":       {links: map[string]string{"/a": ""}, field: `links["/a"]`},
		"the root as a link": {links: map[string]string{"/": "/x"}, field: `links["/"]`},
		"relative link path": {links: map[string]string{"l": "/x"}, field: `links["l"]`},
		"too many entries":   {tree: make([]string, 1001), field: "tree"},
	} {
		err := CheckTree(c.tree, c.links)
		var te *TreeError
		if !errors.As(err, &te) || te.Field != c.field {
			t.Errorf("%s: want an error on %s, got %v", name, c.field, err)
		}
	}
	if err := CheckTree([]string{"/a/", "/a/", "/a/b", "/c//d"}, map[string]string{"/a/l": "../c"}); err != nil {
		t.Errorf("a good tree: %v", err)
	}
}

// TestRealIsWhatTheKernelSays compares Real with filepath.EvalSymlinks on the same tree, for
// every path that is there (the kernel's answer, its temporary prefix taken off).
func TestRealIsWhatTheKernelSays(t *testing.T) {
	links := map[string]string{
		"/p/abs": "/q/f", "/p/rel": "sub/g", "/p/up": "../q", "/p/chain": "rel", "/p/dir": "sub",
		"/p/sub/back": "..", "/p/sub/deep": "../up/f", "/q/loopy": "../p/chain",
	}
	d := materialize(t, []string{"/p/a", "/p/sub/g", "/q/f", "/r/"}, links)
	top, err := filepath.EvalSymlinks(d.top)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/p/a", "/p/sub/g", "/q/f", "/r", "/", "/p", "/p/sub"}
	for l := range links {
		paths = append(paths, l)
	}
	paths = append(paths, "/p/up/f", "/p/dir/g", "/p/dir/back/a", "/p/sub/back/sub/deep", "/p/dir/../a", "/p/up/../p/a")
	for _, p := range paths {
		real, kind, err := d.Real(p)
		if err != nil || kind == fsaccess.NoEntry {
			t.Errorf("Real(%q) = %q, %v, %v", p, real, kind, err)
			continue
		}
		k, err := filepath.EvalSymlinks(d.top + filepath.FromSlash(p)) // not host: it would read .. by its text
		if err != nil {
			t.Fatal(err)
		}
		want := "/" + strings.TrimPrefix(filepath.ToSlash(strings.TrimPrefix(k, top)), "/")
		if real != want {
			t.Errorf("Real(%q) = %q, the kernel says %q", p, real, want)
		}
	}
}

func TestRealOfWhatIsNotThere(t *testing.T) {
	d := materialize(t, []string{"/p/a.txt", "/p/sub/"}, map[string]string{
		"/p/out": "/x", "/p/dang": "/y/z.txt", "/p/l1": "l2", "/p/l2": "l1", "/p/file": "a.txt",
	})
	for _, c := range []struct {
		in, real string
		kind     fsaccess.Entry
		err      error
	}{
		{"/p/new/deep.txt", "/p/new/deep.txt", fsaccess.NoEntry, nil},
		{"/p/out/new.txt", "/x/new.txt", fsaccess.NoEntry, nil},
		{"/p/dang", "/y/z.txt", fsaccess.NoEntry, nil},
		{"/p/a.txt/x", "/p/a.txt/x", fsaccess.NoEntry, nil},
		{"/p/file/x", "/p/a.txt/x", fsaccess.NoEntry, nil},
		{"/p/new/../a.txt", "/p/a.txt", fsaccess.NoEntry, nil}, // from the first missing name, .. by its text
		{"/p/a.txt/.", "/p/a.txt", fsaccess.FileEntry, nil},
		{"/..", "/", fsaccess.DirEntry, nil},
		{"/p/sub/../../..", "/", fsaccess.DirEntry, nil},
		{"/p/l1", "", fsaccess.NoEntry, ErrLoop},
	} {
		real, kind, err := d.Real(c.in)
		if real != c.real || kind != c.kind || !errors.Is(err, c.err) {
			t.Errorf("Real(%q) = %q, %v, %v; want %q, %v, %v", c.in, real, kind, err, c.real, c.kind, c.err)
		}
	}
}

func TestMaterializeKeepsEveryLinkInsideAndCloseRemovesAll(t *testing.T) {
	d, err := Materialize([]string{"/etc/passwd"}, map[string]string{"/a/abs": "/etc/passwd", "/a/rel": "../etc"})
	if err != nil {
		t.Fatal(err)
	}
	target, err := os.Readlink(d.host("/a/abs"))
	if err != nil || !strings.HasPrefix(target, d.top) {
		t.Errorf("an absolute target is written as %q, not below %q", target, d.top)
	}
	if b, err := os.ReadFile(d.host("/a/abs")); err != nil || len(b) != 0 {
		t.Errorf("the link does not reach the tree's own (empty) /etc/passwd: %q, %v", b, err)
	}
	if got := d.unhost(target); got != "/etc/passwd" {
		t.Errorf("unhost = %q", got)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d.top); !os.IsNotExist(err) {
		t.Errorf("after Close the tree is still there: %v", err)
	}
	if _, err := Materialize([]string{"/a", "/a/b"}, nil); err == nil {
		t.Error("a tree CheckTree refuses was made")
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		dir, p string
		want   bool
	}{{"/a", "/a", true}, {"/a", "/a/b", true}, {"/a", "/ab", false}, {"/", "/x", true}, {"/a/b", "/a", false}} {
		if got := fsaccess.Within(c.dir, c.p); got != c.want {
			t.Errorf("Within(%q, %q) = %v", c.dir, c.p, got)
		}
	}
}

func TestTheTreeIsMadeUnderTMPDIRWhenItIsSet(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	d := materialize(t, []string{"/a"}, nil)
	if !strings.HasPrefix(d.top, dir+string(filepath.Separator)+TempPrefix) {
		t.Errorf("the tree is at %s, not under TMPDIR %s", d.top, dir)
	}
}
