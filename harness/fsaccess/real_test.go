package fsaccess

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"testing"
)

// memLinks is a tree with links for the walker's tests: entries by path, directories implied.
type memLinks struct {
	files map[string]bool
	links map[string]string
	fail  string // a path whose Lstat fails
}

func (m memLinks) Lstat(p string) (Entry, error) {
	switch {
	case p == m.fail:
		return NoEntry, errors.New("the disk could not answer")
	case m.files[p]:
		return FileEntry, nil
	case m.links[p] != "":
		return LinkEntry, nil
	case p == "/":
		return DirEntry, nil
	}
	for q := range m.files {
		if Within(p, q) {
			return DirEntry, nil
		}
	}
	for q := range m.links {
		if Within(p, q) {
			return DirEntry, nil
		}
	}
	return NoEntry, nil
}

func (m memLinks) Readlink(p string) (string, error) { return m.links[p], nil }

func TestRealFollowsLinks(t *testing.T) {
	d := memLinks{
		files: map[string]bool{"/p/a.txt": true, "/q/f": true, "/deep/x/y/f": true},
		links: map[string]string{
			"/p/abs": "/q/f", "/p/rel": "a.txt", "/p/up": "../q", "/p/chain": "rel",
			"/p/y": "/deep/x/y", "/p/l1": "l2", "/p/l2": "l1", "/p/dang": "/nowhere/z",
		},
	}
	for _, c := range []struct {
		in, real string
		e        Entry
		err      error
	}{
		{"/p/a.txt", "/p/a.txt", FileEntry, nil},
		{"/p/abs", "/q/f", FileEntry, nil},
		{"/p/chain", "/p/a.txt", FileEntry, nil},
		{"/p/up/f", "/q/f", FileEntry, nil},
		{"/p/up", "/q", DirEntry, nil},
		{"/p/y/..", "/deep/x", DirEntry, nil}, // .. from where the link led
		{"/p/dang", "/nowhere/z", NoEntry, nil},
		{"/p/new/../a.txt", "/p/a.txt", NoEntry, nil}, // past the first missing name, by text
		{"/p/a.txt/x", "/p/a.txt/x", NoEntry, nil},
		{"/../p//./a.txt", "/p/a.txt", FileEntry, nil},
		{"/", "/", DirEntry, nil},
		{"/p/l1", "", NoEntry, ErrLoop},
	} {
		for _, after := range []AfterFile{SlashIgnored, SlashNotADirectory} {
			real, e, err := Real(d, c.in, after)
			if real != c.real || e != c.e || !errors.Is(err, c.err) {
				t.Errorf("Real(%q, %d) = %q, %v, %v; want %q, %v, %v", c.in, after, real, e, err, c.real, c.e, c.err)
			}
		}
	}
}

// The one point the two areas read differently: `/` or `.` after a file. The workspace reads a
// trailing `/` as nothing (filesystem.md, Paths); the rule modules as realpath does (ENOTDIR).
func TestRealAfterAFile(t *testing.T) {
	d := memLinks{
		files: map[string]bool{"/p/a.txt": true},
		links: map[string]string{"/p/slash": "a.txt/", "/p/dot": "a.txt/.", "/p/up": "a.txt/.."},
	}
	for _, c := range []struct {
		in                string
		ignored, notADir  Entry
		realIgn, realNotD string
	}{
		{"/p/a.txt/", FileEntry, NoEntry, "/p/a.txt", "/p/a.txt"},
		{"/p/a.txt/.", FileEntry, NoEntry, "/p/a.txt", "/p/a.txt"},
		{"/p/a.txt//./", FileEntry, NoEntry, "/p/a.txt", "/p/a.txt"},
		{"/p/slash", FileEntry, NoEntry, "/p/a.txt", "/p/a.txt"},
		{"/p/dot", FileEntry, NoEntry, "/p/a.txt", "/p/a.txt"},
		{"/p/a.txt/..", NoEntry, NoEntry, "/p", "/p"}, // a name after the file: nothing there for both
		{"/p/up", NoEntry, NoEntry, "/p", "/p"},
	} {
		if real, e, err := Real(d, c.in, SlashIgnored); e != c.ignored || real != c.realIgn || err != nil {
			t.Errorf("Real(%q, SlashIgnored) = %q, %v, %v; want %q, %v", c.in, real, e, err, c.realIgn, c.ignored)
		}
		if real, e, err := Real(d, c.in, SlashNotADirectory); e != c.notADir || real != c.realNotD || err != nil {
			t.Errorf("Real(%q, SlashNotADirectory) = %q, %v, %v; want %q, %v", c.in, real, e, err, c.realNotD, c.notADir)
		}
	}
}

// MaxLinks links are followed; one more is a loop. A disk's error is returned as it is.
func TestRealBoundAndErrors(t *testing.T) {
	d := memLinks{files: map[string]bool{"/f": true}, links: map[string]string{}}
	for i := range MaxLinks + 1 {
		next := "/f"
		if i > 0 {
			next = fmt.Sprintf("/l%d", i-1)
		}
		d.links[fmt.Sprintf("/l%d", i)] = next
	}
	if real, e, err := Real(d, fmt.Sprintf("/l%d", MaxLinks-1), SlashIgnored); real != "/f" || e != FileEntry || err != nil {
		t.Errorf("a chain of %d links: %q, %v, %v", MaxLinks, real, e, err)
	}
	if _, _, err := Real(d, fmt.Sprintf("/l%d", MaxLinks), SlashIgnored); !errors.Is(err, ErrLoop) {
		t.Errorf("a chain of %d links: %v, want ErrLoop", MaxLinks+1, err)
	}
	d.fail = "/l3"
	if _, _, err := Real(d, "/l5", SlashIgnored); err == nil || errors.Is(err, ErrLoop) {
		t.Errorf("a disk that fails: %v", err)
	}
}

// realByNames is Real as first written, a list of names split up front: the walk without its
// slices, which Real must answer as.
func realByNames(d Links, p string, after AfterFile) (string, Entry, error) {
	todo := strings.Split(p, "/")
	cur, hops := "/", 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			cur = Parent(cur)
			continue
		}
		next := Join(cur, name)
		e, err := d.Lstat(next)
		if err != nil {
			return "", NoEntry, err
		}
		switch e {
		case LinkEntry:
			if hops++; hops > MaxLinks {
				return "", NoEntry, ErrLoop
			}
			target, _ := d.Readlink(next)
			if strings.HasPrefix(target, "/") {
				cur = "/"
			}
			todo = append(strings.Split(target, "/"), todo...)
		case DirEntry:
			cur = next
		case FileEntry:
			if len(todo) == 0 || (after == SlashIgnored && !slices.ContainsFunc(todo, func(n string) bool {
				return n != "" && n != "."
			})) {
				return next, FileEntry, nil
			}
			return path.Join(append([]string{next}, todo...)...), NoEntry, nil
		default:
			return path.Join(append([]string{next}, todo...)...), NoEntry, nil
		}
	}
	return cur, DirEntry, nil
}

// Real reads a path by slices of it where it can; every path made of the tree's names, `.`, `..`
// and empty names, through links absolute and relative, answers as the names' walk does.
func TestRealIsTheWalkByNames(t *testing.T) {
	d := memLinks{
		files: map[string]bool{"/p/a.txt": true, "/q/f": true, "/deep/x/y/f": true},
		links: map[string]string{"/p/abs": "/q/f", "/p/rel": "a.txt", "/p/up": "../q", "/p/chain": "rel",
			"/p/y": "/deep/x/y", "/p/l1": "l2", "/p/l2": "l1", "/p/dir": "../deep/./x/", "/deep/x/back": "/p"},
	}
	names := []string{"p", "q", "deep", "x", "y", "f", "a.txt", "abs", "rel", "up", "chain", "l1", "dir", "back",
		"new", ".", "..", ""}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(7) {
			b.WriteString("/" + names[r.IntN(len(names))])
		}
		if r.IntN(4) == 0 {
			b.WriteString("/")
		}
		p := b.String()
		if r.IntN(5) == 0 {
			p = strings.TrimPrefix(p, "/") // not Real's to be given, but read the same
		}
		for _, after := range []AfterFile{SlashIgnored, SlashNotADirectory} {
			gr, ge, gerr := Real(d, p, after)
			wr, we, werr := realByNames(d, p, after)
			if gr != wr || ge != we || gerr != werr {
				t.Fatalf("Real(%q, %d) = %q, %s, %v; the walk by names: %q, %s, %v", p, after, gr, ge, gerr,
					wr, we, werr)
			}
		}
	}
}
