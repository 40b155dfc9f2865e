package fsaccess

import (
	"errors"
	"reflect"
	"testing"
)

// errText is the text an Error of code would say about p, from the parsed table.
func errText(code Code, p string) string { return SpecTexts().Errors[code].Render(p) }

// outcome writes a Result as a case's expect would: the error's text, "ok", or the entries.
func outcome(r Result) any {
	switch {
	case r.Err != nil:
		return r.Err.Error()
	case r.Entries != nil:
		return r.Entries
	}
	return "ok"
}

func notesView(t testing.TB) *View {
	return mustView(t, Config{
		Tree:   []string{"/Notes/a.md", "/Notes/Private/p.md", "/Notes/sub/s.md", "/Ref/r.md", "/repo/README.md", "/repo/src/x.ts", "/ro-repo/r.md", "/home/n.md", "/empty/", "/mixed/ro.md", "/mixed/w.md", "/repo2/"},
		Mounts: []string{"/repo", "/ro-repo", "/repo2"},
		Grants: map[string]Level{"/": Stage, "/Notes/Private": None, "/Ref": RO, "/repo": Commit, "/ro-repo": RO, "/home": Commit, "/mixed/ro.md": RO},
		Cwd:    "/Notes",
	})
}

func TestOps(t *testing.T) {
	mt := func(code Code, p string) any { return errText(code, p) }
	for _, c := range []struct {
		name string
		op   Op
		path string
		want any
	}{
		// read
		{"read a file", OpRead, "a.md", "ok"},
		{"read of a directory is its listing", OpRead, "/Notes", []string{"sub/", "a.md"}},
		{"read of an empty directory lists nothing", OpRead, "/empty", []string{}},
		{"read hidden reads as missing", OpRead, "Private", mt(NoSuchFile, "/Notes/Private")},
		{"read below hidden reads as missing", OpRead, "Private/p.md", mt(NoSuchFile, "/Notes/Private/p.md")},
		{"read below a file", OpRead, "a.md/x", mt(NotADirectory, "/Notes/a.md")},
		{"read below a missing dir", OpRead, "/Notes/nope/x.md", mt(NoSuchFile, "/Notes/nope/x.md")},
		// list
		{"list marks a mount and read-only entries, dirs first, capitals first", OpList, "/", []string{"Notes/", "Ref/ [read-only]", "empty/", "home/", "mixed/", "repo/ [mount]", "repo2/ [mount]", "ro-repo/ [mount] [read-only]"}},
		{"list a writable dir marks its read-only file", OpList, "/mixed", []string{"ro.md [read-only]", "w.md"}},
		{"list a read-only dir marks nothing read-only", OpList, "/Ref", []string{"r.md"}},
		{"list a file", OpList, "/Notes/a.md", mt(NotADirectory, "/Notes/a.md")},
		{"list hidden", OpList, "/Notes/Private", mt(NoSuchFile, "/Notes/Private")},
		// write
		{"write a new file", OpWrite, "b.md", "ok"},
		{"write over a file", OpWrite, "a.md", "ok"},
		{"write makes the missing dirs above", OpWrite, "new/deeper/c.md", "ok"},
		{"write a directory", OpWrite, "/Notes/sub", mt(IsADirectory, "/Notes/sub")},
		{"write a mount", OpWrite, "/repo", mt(IsADirectory, "/repo")},
		{"write at ro", OpWrite, "/Ref/r.md", mt(ReadOnly, "/Ref/r.md")},
		{"write a new name at ro", OpWrite, "/Ref/x/y.md", mt(ReadOnly, "/Ref/x/y.md")},
		{"write a name taken at none", OpWrite, "/Notes/Private", mt(AccessDenied, "/Notes/Private")},
		{"write below a file", OpWrite, "/Notes/a.md/x", mt(NotADirectory, "/Notes/a.md")},
		// mkdir
		{"mkdir new, with parents", OpMkdir, "/Notes/x/y", "ok"},
		{"mkdir existing is fine", OpMkdir, "/Notes/sub", "ok"},
		{"mkdir existing at ro is fine: nothing changes", OpMkdir, "/Ref", "ok"},
		{"mkdir of a mount is fine", OpMkdir, "/repo/", "ok"},
		{"mkdir over a file", OpMkdir, "/Notes/a.md", mt(AlreadyExists, "/Notes/a.md")},
		{"mkdir below a file", OpMkdir, "/Notes/a.md/d", mt(NotADirectory, "/Notes/a.md")},
		{"mkdir at ro", OpMkdir, "/Ref/d", mt(ReadOnly, "/Ref/d")},
		{"mkdir a name taken at none", OpMkdir, "/Notes/Private", mt(AccessDenied, "/Notes/Private")},
		// rm
		{"rm a file", OpRm, "a.md", "ok"},
		{"rm a directory with content", OpRm, "/Notes/sub", "ok"},
		{"rm a directory with something at none below is denied", OpRm, "/Notes", mt(AccessDenied, "/Notes")},
		{"rm a directory with something read-only below names it", OpRm, "/mixed", mt(ReadOnly, "/mixed/ro.md")},
		{"rm at ro", OpRm, "/Ref/r.md", mt(ReadOnly, "/Ref/r.md")},
		{"rm a mount is refused", OpRm, "/repo", mt(ReadOnly, "/repo")},
		{"rm in a mount stages it", OpRm, "/repo/src", "ok"},
		{"rm missing", OpRm, "gone.md", mt(NoSuchFile, "/Notes/gone.md")},
		{"rm hidden reads as missing", OpRm, "Private/p.md", mt(NoSuchFile, "/Notes/Private/p.md")},
		// commit
		{"commit at commit in a mount", OpCommit, "/repo/src/x.ts", "ok"},
		{"commit the mount itself", OpCommit, "/repo", "ok"},
		{"commit a directory in a mount", OpCommit, "/repo/src", "ok"},
		{"commit at ro in a mount", OpCommit, "/ro-repo/r.md", mt(ReadOnly, "/ro-repo/r.md")},
		{"commit outside mounts, even at commit", OpCommit, "/home/n.md", mt(NothingToCommit, "/home/n.md")},
		{"commit outside mounts at ro: nothing to commit first", OpCommit, "/Ref/r.md", mt(NothingToCommit, "/Ref/r.md")},
		{"commit a missing path in a mount", OpCommit, "/repo/gone.ts", mt(NoSuchFile, "/repo/gone.ts")},
	} {
		v := notesView(t)
		r, err := v.Apply(c.op, c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := outcome(r); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %s %s = %#v, want %#v", c.name, c.op, c.path, got, c.want)
		}
	}
}

func TestRootRule(t *testing.T) {
	// The root is the boundary, not an entry: no session removes it.
	v := mustView(t, Config{Tree: []string{"/a.md"}, Grants: map[string]Level{"/": Commit}})
	if err := v.Rm("/"); err == nil || err.Error() != errText(ReadOnly, "/") {
		t.Errorf("rm / = %v", err)
	}
	// Nothing granted at all: everything is denied, missing or not, and nothing is created.
	closed := mustView(t, Config{Tree: []string{"/a.md"}})
	for _, op := range []Op{OpList, OpRead, OpWrite, OpMkdir, OpRm, OpCommit} {
		for _, p := range []string{"/", "/a.md", "/b.md", "/x/y"} {
			r, _ := closed.Apply(op, p)
			if r.Err == nil || r.Err.Code != AccessDenied || r.Err.Path != p {
				t.Errorf("nothing granted: %s %s = %v", op, p, outcome(r))
			}
		}
	}
}

func TestCreatingThroughAReadOnlyDirectoryIsRefusedAtTheDirectory(t *testing.T) {
	v := mustView(t, Config{Grants: map[string]Level{"/": RO, "/x/y/z.md": Stage}})
	if err := v.Write("/x/y/z.md"); err == nil || err.Error() != errText(ReadOnly, "/x") {
		t.Errorf("write /x/y/z.md = %v, want Read-only /x", err)
	}
	if _, ok := v.Node("/x"); ok {
		t.Error("a refused write made /x")
	}
}

func TestChangesChangeTheView(t *testing.T) {
	v := notesView(t)
	before := v.Clone()
	steps := []struct {
		op   Op
		path string
	}{{OpWrite, "new/c.md"}, {OpMkdir, "/Notes/d/e"}, {OpRm, "/Notes/sub"}, {OpRm, "/repo/src/x.ts"}}
	for _, s := range steps {
		if r, _ := v.Apply(s.op, s.path); r.Err != nil {
			t.Fatalf("%s %s: %v", s.op, s.path, r.Err)
		}
	}
	got, _ := v.List("/Notes")
	if want := []string{"d/", "new/", "a.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after the changes /Notes lists %q, want %q", got, want)
	}
	if got, _ := v.List("/repo/src"); len(got) != 0 {
		t.Errorf("/repo/src lists %q after rm", got)
	}
	if got, _ := v.Read("/Notes/sub/s.md"); got != nil || v.Visible("/Notes/sub/s.md") {
		t.Error("a removed directory's content is still there")
	}
	// The clone made before is untouched.
	if got, _ := before.List("/Notes"); !reflect.DeepEqual(got, []string{"sub/", "a.md"}) {
		t.Errorf("the clone changed: %q", got)
	}
	// The hidden entry is still there for the harness, and still hidden.
	if _, ok := v.Node("/Notes/Private/p.md"); !ok {
		t.Error("a change removed a hidden entry")
	}
}

func TestStat(t *testing.T) {
	v := passageView(t)
	if k, err := v.Stat("/Dir1/Dir3"); err != nil || k != Dir {
		t.Errorf("Stat(/Dir1/Dir3) = %v, %v", k, err)
	}
	_, err := v.Stat("/Dir1/FILE1.txt")
	var fe *Error
	if !errors.As(err, &fe) || fe.Code != AccessDenied || fe.Path != "/Dir1/FILE1.txt" {
		t.Errorf("Stat(/Dir1/FILE1.txt) = %v", err)
	}
	if _, err := v.Apply("chmod", "/"); err == nil {
		t.Error("an unknown op: no error")
	}
}

func TestMv(t *testing.T) {
	mt := func(code Code, p string) string { return errText(code, p) }
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"rename a file", "a.md", "b.md", "ok"},
		{"move a directory with its content", "/Notes/sub", "/home/sub", "ok"},
		{"inside one mount", "/repo/src/x.ts", "/repo/x.ts", "ok"},
		{"the target exists", "a.md", "/Notes/sub", mt(AlreadyExists, "/Notes/sub")},
		{"the target's directory is missing", "a.md", "/Notes/nope/b.md", mt(NoSuchFile, "/Notes/nope")},
		{"the target is a name taken at none", "a.md", "/Notes/Private", mt(AccessDenied, "/Notes/Private")},
		{"the target is read-only", "a.md", "/Ref/a.md", mt(ReadOnly, "/Ref/a.md")},
		{"the source is read-only", "/Ref/r.md", "/Notes/r.md", mt(ReadOnly, "/Ref/r.md")},
		{"the source is missing", "gone.md", "b.md", mt(NoSuchFile, "/Notes/gone.md")},
		{"the source is hidden", "Private/p.md", "b.md", mt(NoSuchFile, "/Notes/Private/p.md")},
		{"the source holds something at none", "/Notes", "/home/Notes", mt(AccessDenied, "/Notes")},
		{"a mount itself", "/repo", "/home/repo", mt(ReadOnly, "/repo")},
		{"out of a mount", "/repo/README.md", "/home/README.md", mt(AccessDenied, "/home/README.md")},
		{"into a mount", "a.md", "/repo/a.md", mt(AccessDenied, "/repo/a.md")},
		{"between mounts", "/repo/README.md", "/repo2/README.md", mt(AccessDenied, "/repo2/README.md")},
		{"into a read-only mount: its level first", "/repo/README.md", "/ro-repo/README.md", mt(ReadOnly, "/ro-repo/README.md")},
		{"into itself", "/Notes/sub", "/Notes/sub/in", mt(AccessDenied, "/Notes/sub/in")},
		{"below a file", "a.md", "/home/n.md/a.md", mt(NotADirectory, "/home/n.md")},
	} {
		v := notesView(t)
		got := "ok"
		if err := v.Mv(c.from, c.to); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: mv %s %s = %q, want %q", c.name, c.from, c.to, got, c.want)
		}
	}
	v := notesView(t)
	if err := v.Mv("/Notes/sub", "/home/moved"); err != nil {
		t.Fatal(err)
	}
	if !v.Visible("/home/moved/s.md") || v.Visible("/Notes/sub") {
		t.Error("mv did not carry the directory's content")
	}
	if got, _ := v.List("/home"); !reflect.DeepEqual(got, []string{"moved/", "n.md"}) {
		t.Errorf("/home lists %q", got)
	}
}

// A hidden entry and a missing one read the same, for every look and rm and commit, under a
// visible directory and under a passage alike (filesystem.md: "a hidden entry under a granted directory reads exactly
// as a missing one").
func TestHiddenReadsAsMissing(t *testing.T) {
	for _, cfg := range []Config{
		{Tree: []string{"/d/hidden.md", "/d/open.md"}, Grants: map[string]Level{"/": Stage, "/d/hidden.md": None}},
		{Tree: []string{"/d/hidden.md", "/d/open.md"}, Grants: map[string]Level{"/d/open.md": Stage}},
	} {
		v := mustView(t, cfg)
		for _, c := range []struct {
			op     Op
			suffix string
		}{{OpList, ""}, {OpRead, ""}, {OpRm, ""}, {OpCommit, ""}, {OpList, "/x"}, {OpRead, "/x"}, {OpRm, "/x"}, {OpCommit, "/x"}} {
			op := c.op
			hidden, _ := v.Apply(op, "/d/hidden.md"+c.suffix)
			missing, _ := v.Apply(op, "/d/missing.md"+c.suffix)
			hidden.Path, missing.Path = "", ""
			if hidden.Err != nil {
				hidden.Err = &Error{hidden.Err.Code, ""}
			}
			if missing.Err != nil {
				missing.Err = &Error{missing.Err.Code, ""}
			}
			if !reflect.DeepEqual(hidden, missing) {
				t.Errorf("%v: %s below a hidden entry %+v, below a missing one %+v", cfg.Grants, op, hidden, missing)
			}
		}
	}
}

// A mount is a directory like any other for the view: at none with something granted below it
// is a passage — denied and never listed — and what is granted below it can still be committed.
func TestPassageAtAMount(t *testing.T) {
	v := mustView(t, Config{
		Tree:   []string{"/repo/README.md", "/repo/src/x.ts", "/home/n.md"},
		Mounts: []string{"/repo"},
		Grants: map[string]Level{"/home": Stage, "/repo/src": Commit},
	})
	mt := func(code Code, p string) any { return errText(code, p) }
	for _, c := range []struct {
		op   Op
		path string
		want any
	}{
		{OpList, "/repo", mt(AccessDenied, "/repo")},
		{OpRead, "/repo/README.md", mt(AccessDenied, "/repo/README.md")},
		{OpList, "/repo/src", []string{"x.ts"}},
		{OpCommit, "/repo/src/x.ts", "ok"},
		{OpCommit, "/repo", mt(AccessDenied, "/repo")},
		{OpWrite, "/repo/new.md", mt(AccessDenied, "/repo/new.md")},
		{OpRm, "/repo", mt(AccessDenied, "/repo")},
		{OpMkdir, "/repo/src/lib", "ok"},
		{OpList, "/", mt(AccessDenied, "/")},
	} {
		r, _ := v.Apply(c.op, c.path)
		if got := outcome(r); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s = %#v, want %#v", c.op, c.path, got, c.want)
		}
	}
	if !v.Passage("/repo") {
		t.Error("/repo is not a passage")
	}
}
