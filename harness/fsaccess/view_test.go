package fsaccess

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func mustView(t testing.TB, c Config) *View {
	t.Helper()
	v, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The spec's own example tree (filesystem.md, *A granted path under a path that is not*).
func passageView(t testing.TB) *View {
	return mustView(t, Config{
		Tree:   []string{"/AGENTS.md", "/Dir1/", "/Dir1/FILE1.txt", "/Dir1/AGENTS.md", "/Dir1/Dir3/", "/Dir1/Dir3/a.md", "/Dir2/", "/Dir2/b.md"},
		Grants: map[string]Level{"/AGENTS.md": RO, "/Dir1/Dir3": Stage},
	})
}

func TestNewRefusesATreeItCannotHold(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   Config
		field string
		want  string
	}{
		{"relative tree path", Config{Tree: []string{"a.md"}}, "tree[0]", "not absolute"},
		{"file then dir", Config{Tree: []string{"/a", "/a/"}}, "tree[1]", "/a is a file and a dir"},
		{"dir then file", Config{Tree: []string{"/a/", "/a"}}, "tree[1]", "/a is a dir and a file"},
		{"below a file", Config{Tree: []string{"/a", "/a/b/c"}}, "tree[1]", "below /a, a file"},
		{"mount on a file", Config{Tree: []string{"/r"}, Mounts: []string{"/r"}}, "mounts[0]", "a file"},
		{"mount in a mount", Config{Mounts: []string{"/r", "/r/s"}}, "mounts", "inside the mount /r"},
		{"relative mount", Config{Mounts: []string{"r"}}, "mounts[0]", "not absolute"},
		{"relative grant", Config{Grants: map[string]Level{"x": RO}}, `grants["x"]`, "not absolute"},
		{"two grants, one path", Config{Grants: map[string]Level{"/x": RO, "/x/": Stage}}, `grants["/x/"]`, `names /x, as "/x" does`},
		{"two floors, one path", Config{Floor: map[string]Level{"/x/.": RO, "/x": Stage}}, `floor["/x/."]`, "names /x"},
		{"bad level", Config{Grants: map[string]Level{"/x": 7}}, `grants["/x"]`, "no level"},
		{"relative cwd", Config{Cwd: "Dir1"}, "cwd", "not absolute"},
	} {
		_, err := New(c.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field || !strings.Contains(ce.Msg, c.want) {
			t.Errorf("%s: got %v, want %s: …%s…", c.name, err, c.field, c.want)
		}
	}
	// What it can hold: a dir given twice, a mount on a listed dir, a file given twice.
	v := mustView(t, Config{Tree: []string{"/r/", "/r/", "/r/x", "/r/x"}, Mounts: []string{"/r/"}, Grants: map[string]Level{"/": RO}})
	if k, ok := v.Node("/r"); !ok || k != Mount {
		t.Errorf("/r is %v %v, want a mount", k, ok)
	}
}

func TestLevelAndPassage(t *testing.T) {
	pv := passageView(t)
	floored := mustView(t, Config{
		Tree:   []string{"/Ref/r.md", "/Ref/open/o.md", "/Notes/a.md"},
		Grants: map[string]Level{"/": Commit, "/Only": None},
		Floor:  map[string]Level{"/Ref": RO, "/Ref/open": Commit, "/Shut": None, "/Shut/in": Commit, "/Only/floor": Stage},
	})
	for _, c := range []struct {
		name    string
		v       *View
		path    string
		level   Level
		passage bool
	}{
		{"a passage", pv, "/Dir1", None, true},
		{"the root is a passage", pv, "/", None, true},
		{"a sibling is not", pv, "/Dir2", None, false},
		{"below the grant", pv, "/Dir1/Dir3/a.md", Stage, false},
		{"a path not in the tree takes the grant above it", pv, "/Dir1/Dir3/new/deep.md", Stage, false},
		{"a file granted on its own", pv, "/AGENTS.md", RO, false},
		{"below a file granted on its own", pv, "/AGENTS.md/x", RO, false},
		{"relative, against cwd /", pv, "Dir1", None, true},
		{"a floor lowers the grant", floored, "/Ref/r.md", RO, false},
		{"the most specific floor applies, even when wider", floored, "/Ref/open/o.md", Commit, false},
		{"no floor: the grant", floored, "/Notes/a.md", Commit, false},
		{"a floor at none", floored, "/Shut/x", None, false},
		{"a floor at none with a wider floor below is a passage", floored, "/Shut", None, true},
		{"below it, the grant again", floored, "/Shut/in/x", Commit, false},
		{"a floor grants nothing", floored, "/Only/floor/x", None, false},
		{"so a floor alone makes no passage", floored, "/Only", None, false},
	} {
		if got := c.v.Level(c.path); got != c.level {
			t.Errorf("%s: Level(%s) = %s, want %s", c.name, c.path, got, c.level)
		}
		if got := c.v.Passage(c.path); got != c.passage {
			t.Errorf("%s: Passage(%s) = %v, want %v", c.name, c.path, got, c.passage)
		}
	}
	// Nothing granted: nothing is at any level, and nothing is a passage.
	empty := mustView(t, Config{Tree: []string{"/a/b"}})
	if empty.Level("/a/b") != None || empty.Passage("/") || empty.Visible("/a/b") {
		t.Error("an empty grant set opens something")
	}
}

func TestVisibleIsAtROAndInTheTree(t *testing.T) {
	v := passageView(t)
	for p, want := range map[string]bool{
		"/AGENTS.md": true, "/Dir1/Dir3": true, "/Dir1/Dir3/a.md": true, "/Dir1/Dir3/missing.md": false,
		"/": false, "/Dir1": false, "/Dir1/AGENTS.md": false, "/Dir2/b.md": false,
	} {
		if got := v.Visible(p); got != want {
			t.Errorf("Visible(%s) = %v", p, got)
		}
		if got, isFile := v.ReadableFile(p), strings.HasSuffix(p, ".md"); got != (want && isFile) {
			t.Errorf("ReadableFile(%s) = %v", p, got)
		}
	}
}

func TestGrantsAreTheFullPathsWithTheirFlooredLevels(t *testing.T) {
	v := mustView(t, Config{Grants: map[string]Level{"/b/": Stage, "/a": Commit}, Floor: map[string]Level{"/a": RO}})
	got := v.Grants()
	if len(got) != 2 || got[0] != (Grant{"/a", RO}) || got[1] != (Grant{"/b", Stage}) {
		t.Errorf("Grants() = %v", got)
	}
}

func TestMountOf(t *testing.T) {
	v := mustView(t, Config{Tree: []string{"/repo/src/x.ts", "/home/n.md"}, Mounts: []string{"/repo"}, Cwd: "/repo/src"})
	for p, want := range map[string]string{"/repo": "/repo", "x.ts": "/repo", "/repo/none/deep": "/repo", "/home/n.md": "", "/": "", "/repository": ""} {
		if got, _ := v.MountOf(p); got != want {
			t.Errorf("MountOf(%s) = %q, want %q", p, got, want)
		}
	}
}

// Told leaves out grants at none, given or floored, and tells each other grant at its level.
func TestToldIsTheGrantsAtROOrAbove(t *testing.T) {
	v, err := New(Config{Tree: []string{"/a/x", "/b/y", "/c/z"},
		Grants: map[string]Level{"/": Stage, "/a": None, "/b": Commit, "/c": RO},
		Floor:  map[string]Level{"/b": RO, "/c": None}})
	if err != nil {
		t.Fatal(err)
	}
	got := v.Told()
	want := []Grant{{"/", Stage}, {"/b", RO}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Told = %v, want %v", got, want)
	}
	if r, err := v.Do(OpView, "", Args{}); err != nil || !reflect.DeepEqual(r.Told, want) {
		t.Errorf("Do(view) = %v, %v", r.Told, err)
	}
}

// The entries' names are kept sorted as nodes come and go: a tree given out of order, a write,
// an rm and a mv each leave a listing in its order, and a clone's changes stay its own.
func TestEntriesKeepTheirOrderAsTheTreeChanges(t *testing.T) {
	v, err := New(Config{Tree: []string{"/d/c.md", "/d/a.md", "/d/b/", "/d/a/", "/d/bb.md"},
		Grants: map[string]Level{"/./": Stage}})
	if err != nil {
		t.Fatal(err)
	}
	list := func(v *View) string {
		e, err := v.List("/d")
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(e, " ")
	}
	if got, want := list(v), "a/ b/ a.md bb.md c.md"; got != want {
		t.Fatalf("list = %q, want %q", got, want)
	}
	c := v.Clone()
	if err := c.Write("/d/ab.md"); err != nil {
		t.Fatal(err)
	}
	if err := c.Rm("/d/a"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mv("/d/c.md", "/d/0.md"); err != nil {
		t.Fatal(err)
	}
	if got, want := list(c), "b/ 0.md a.md ab.md bb.md"; got != want {
		t.Errorf("the clone's list = %q, want %q", got, want)
	}
	if got, want := list(v), "a/ b/ a.md bb.md c.md"; got != want {
		t.Errorf("the view's list after its clone changed = %q, want %q", got, want)
	}
}

// A directory emptied and filled again keeps its listing.
func TestADirectoryEmptiedTakesEntriesAgain(t *testing.T) {
	v := mustView(t, Config{Tree: []string{"/d/a.md"}, Grants: map[string]Level{"/": Stage}})
	if err := v.Rm("/d/a.md"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/d/b.md", "/d/a.md"} {
		if err := v.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if e, err := v.List("/d"); err != nil || strings.Join(e, " ") != "a.md b.md" {
		t.Errorf("list = %q, %v; want a.md b.md", e, err)
	}
}
