package workspace

import (
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// Memory answers Lstat, Readlink and so Real as Materialize's disk does, path by path, on trees
// with every kind of link a case writes (absolute, relative, to the top, dangling, in a loop).
func TestMemoryAnswersAsTheDisk(t *testing.T) {
	tree := []string{"/p/a.txt", "/p/sub/g", "/q/f", "/r/", "/", "/c//d"}
	links := map[string]string{
		"/p/abs": "/q/f", "/p/rel": "sub/g", "/p/up": "../q", "/p/chain": "rel", "/p/dir": "sub",
		"/p/sub/back": "..", "/p/sub/deep": "../up/f", "/q/loopy": "../p/chain", "/p/top": "/",
		"/p/topdot": "/.", "/p/messy": "/q//./f/", "/p/inout": "/p/../q", "/p/out": "/x/y",
		"/p/l1": "l2", "/p/l2": "l1", "/p/file": "a.txt", "/p/dotdot": "../../..",
	}
	d := materialize(t, tree, links)
	m, err := InMemory(tree, links)
	if err != nil || m.Unsure() {
		t.Fatalf("InMemory: %v, unsure %v", err, m != nil && m.Unsure())
	}
	paths := []string{"/", "/p", "/p/a.txt", "/p/sub", "/p/sub/g", "/q", "/q/f", "/r", "/c", "/c/d", "/nothing", "/p/nothing"}
	for l := range links {
		paths = append(paths, l, l+"/", l+"/x", l+"/..", l+"/../a.txt", l+"/f", l+"/g/.")
	}
	for _, p := range paths {
		// Real only asks Lstat of a name in a directory that is there: so does this.
		if asked(d, p) {
			ek, errD := d.Lstat(p)
			mk, errM := m.Lstat(p)
			if ek != mk || (errD == nil) != (errM == nil) {
				t.Errorf("Lstat(%q): disk %v %v, memory %v %v", p, ek, errD, mk, errM)
			}
		}
		dr, dk, derr := d.Real(p)
		mr, mk, merr := fsaccess.Real(m, p, fsaccess.SlashIgnored)
		if dr != mr || dk != mk || !errors.Is(merr, derr) {
			t.Errorf("Real(%q): disk %q %v %v, memory %q %v %v", p, dr, dk, derr, mr, mk, merr)
		}
	}
	for l := range links {
		dt, _ := d.Readlink(l)
		mt, _ := m.Readlink(l)
		if dt != mt {
			t.Errorf("Readlink(%q): disk %q, memory %q", l, dt, mt)
		}
	}
	if m.Unsure() {
		t.Error("a tree memory holds surely became unsure")
	}
}

// asked says fsaccess.Real could ask Lstat of p: a clean path below directories the disk has.
func asked(d *Disk, p string) bool {
	if p == "/" || path.Clean(p) != p {
		return false
	}
	for _, q := range fsaccess.Ancestors(p) {
		if k, err := d.Lstat(q); q != "/" && (err != nil || k != fsaccess.DirEntry) {
			return false
		}
	}
	return true
}

// Where the disk's answer depends on the host, Memory does not answer: it says it is unsure, so
// the case goes to a real disk.
func TestMemoryIsUnsureWhereTheHostCounts(t *testing.T) {
	for name, c := range map[string]struct {
		tree   []string
		links  map[string]string
		lookup string // "" : unsure from the start
	}{
		"a target above the top": {links: map[string]string{"/l": "/../x"}},
		"a target climbing back": {links: map[string]string{"/l": "/a/../../b"}},
		"a long target":          {links: map[string]string{"/l": "/" + strings.Repeat("t/", 1100)}},
		"a long name looked up":  {tree: []string{"/a"}, lookup: "/" + strings.Repeat("n", 256)},
		"a long path looked up":  {tree: []string{"/a"}, lookup: strings.Repeat("/abcdefgh", 300)},
		"a NUL looked up":        {tree: []string{"/a"}, lookup: "/a\x00b"},
	} {
		m, err := InMemory(c.tree, c.links)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.lookup == "" {
			if !m.Unsure() {
				t.Errorf("%s: not unsure", name)
			}
			continue
		}
		if m.Unsure() {
			t.Errorf("%s: unsure before any lookup", name)
		}
		if _, err := m.Lstat(c.lookup); !errors.Is(err, ErrUnsure) || !m.Unsure() {
			t.Errorf("%s: Lstat = %v, unsure %v", name, err, m.Unsure())
		}
	}
	if _, err := InMemory([]string{"/a", "/a/b"}, nil); err == nil {
		t.Error("a tree CheckTree refuses was held")
	}
}
