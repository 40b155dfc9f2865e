package modules

import (
	"fmt"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

func TestNewDiskRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string][]byte
		links map[string]string
	}{
		"relative file":      {files: map[string][]byte{"a.md": nil}},
		"root as a file":     {files: map[string][]byte{"/": nil}},
		"below a file":       {files: map[string][]byte{"/a": {}, "/a/b": {}}},
		"below a link":       {files: map[string][]byte{"/a/b": {}}, links: map[string]string{"/a": "/x"}},
		"a link and a file":  {files: map[string][]byte{"/a": {}}, links: map[string]string{"/a": "/x"}},
		"empty link target":  {links: map[string]string{"/a": ""}},
		"relative link path": {links: map[string]string{"a": "/x"}},
	} {
		if _, err := NewDisk(c.files, c.links); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestReal(t *testing.T) {
	d, err := NewDisk(map[string][]byte{
		"/p/a.md": []byte("a"), "/p/docs/d.md": []byte("d"), "/out/o.md": []byte("o"), "/deep/x/y/f": []byte("f"),
	}, map[string]string{
		"/p/abs":    "/out/o.md",     // absolute
		"/p/rel":    "docs/d.md",     // relative to its folder
		"/p/up":     "../out",        // a folder, through ..
		"/p/chain":  "rel",           // a link to a link
		"/p/loop1":  "loop2",         // a loop
		"/p/loop2":  "loop1",         //
		"/p/dang":   "/nowhere/x.md", // dangling
		"/p/y":      "/deep/x/y",     // then .. from where it leads
		"/p/dotdot": "y/../../x/y/f",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in, real string
		kind     fsaccess.Entry
		ok       bool
	}{
		{"/p/a.md", "/p/a.md", fsaccess.FileEntry, true},
		{"/p", "/p", fsaccess.DirEntry, true},
		{"/", "/", fsaccess.DirEntry, true},
		{"/p/abs", "/out/o.md", fsaccess.FileEntry, true},
		{"/p/rel", "/p/docs/d.md", fsaccess.FileEntry, true},
		{"/p/up/o.md", "/out/o.md", fsaccess.FileEntry, true},
		{"/p/up", "/out", fsaccess.DirEntry, true},
		{"/p/chain", "/p/docs/d.md", fsaccess.FileEntry, true},
		{"/p/loop1", "", fsaccess.NoEntry, false},
		{"/p/dang", "/nowhere/x.md", fsaccess.NoEntry, true},
		{"/p/missing/x", "/p/missing/x", fsaccess.NoEntry, true},
		{"/p/a.md/x", "/p/a.md/x", fsaccess.NoEntry, true},
		{"/p/y/..", "/deep/x", fsaccess.DirEntry, true},
		{"/p/dotdot", "/deep/x/y/f", fsaccess.FileEntry, true},
		{"/p/./docs//d.md", "/p/docs/d.md", fsaccess.FileEntry, true},
		{"/../p/a.md", "/p/a.md", fsaccess.FileEntry, true},
	} {
		real, kind, ok := d.Real(c.in)
		if ok != c.ok || kind != c.kind || (c.ok && real != c.real) {
			t.Errorf("Real(%q) = %q, %v, %v; want %q, %v, %v", c.in, real, kind, ok, c.real, c.kind, c.ok)
		}
	}
	if got := d.Lstat("/p/abs"); got != fsaccess.LinkEntry {
		t.Errorf("Lstat of a link = %v", got)
	}
	if got := d.Lstat("/p/docs"); got != fsaccess.DirEntry {
		t.Errorf("Lstat of an implied folder = %v", got)
	}
	if got := d.List("/p"); len(got) != 11 || got[0] != "a.md" {
		t.Errorf("List(/p) = %q", got)
	}
}

func TestDiskChanges(t *testing.T) {
	d, _ := NewDisk(map[string][]byte{"/p/a": []byte("1")}, nil)
	if err := d.Set("/p/a/b", []byte("x")); err == nil {
		t.Error("a file below a file: no error")
	}
	if string(d.Read("/p/a")) != "1" || d.Lstat("/p/a/b") != fsaccess.NoEntry {
		t.Error("a refused change changed the disk")
	}
	if err := d.SetLink("/p/l", "a"); err != nil || d.Lstat("/p/l") != fsaccess.LinkEntry {
		t.Errorf("SetLink: %v", err)
	}
	if err := d.Set("/p/l", []byte("now a file")); err != nil || d.Lstat("/p/l") != fsaccess.FileEntry {
		t.Errorf("a file over a link: %v, %v", err, d.Lstat("/p/l"))
	}
	if err := d.Set("/p/a", nil); err != nil || d.Lstat("/p/a") != fsaccess.NoEntry || len(d.List("/p")) != 1 {
		t.Errorf("remove: %v, %v, %q", err, d.Lstat("/p/a"), d.List("/p"))
	}
	if err := d.SetLink("/p/l", ""); err != nil || d.Lstat("/p/l") != fsaccess.FileEntry {
		t.Error("removing a link that is not there removed the file")
	}
}

// A module file resolves as realpath resolves it: a `/` or `.` after a file is not a directory,
// so nothing is there (fsaccess.SlashNotADirectory; harness/workspace reads the same paths as the
// file).
func TestRealSlashAfterAFileIsNothing(t *testing.T) {
	d, err := NewDisk(map[string][]byte{"/p/a.md": []byte("a")}, map[string]string{"/p/l.md": "a.md/"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/p/a.md/", "/p/a.md/.", "/p/l.md"} {
		if real, kind, ok := d.Real(p); kind != fsaccess.NoEntry || !ok {
			t.Errorf("Real(%q) = %q, %v, %v; want nothing there", p, real, kind, ok)
		}
	}
}

// The index sorts names per folder, though a folder's paths ("a/x") and a sibling's ("a-b") sort
// the other way round as whole paths; each folder is listed once however many paths are below.
func TestListAFolderBesideItsPrefix(t *testing.T) {
	d, err := NewDisk(map[string][]byte{"/p/a/x": nil, "/p/a-b": nil, "/p/a/y/z": nil, "/p/a.md": nil, "/q": nil},
		map[string]string{"/p/a/w": "/q"})
	if err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{
		"/": "[p q]", "/p": "[a a-b a.md]", "/p/a": "[w x y]", "/p/a/y": "[z]", "/p/a-b": "[]", "/r": "[]",
	} {
		if got := fmt.Sprint(d.List(dir)); got != want {
			t.Errorf("List(%s) = %s, want %s", dir, got, want)
		}
	}
	if d.Lstat("/p/a/y") != fsaccess.DirEntry || d.Lstat("/p/a-") != fsaccess.NoEntry {
		t.Errorf("Lstat: /p/a/y %v, /p/a- %v", d.Lstat("/p/a/y"), d.Lstat("/p/a-"))
	}
}
