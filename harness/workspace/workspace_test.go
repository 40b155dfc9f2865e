package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

func str(s string) *string { return &s }

func refusal(err error) Refusal {
	var we *Error
	if errors.As(err, &we) {
		return we.Refusal
	}
	return ""
}

// TestSentinelIsTheSeedsAndTheCases checks extra/workspace.json's text against the sentence its
// source quotes and against the cases, which send it at new, load and /files.
func TestSentinelIsTheSeedsAndTheCases(t *testing.T) {
	src := spec.Extras().Texts["workspace.sentinel"].Source
	if !strings.HasPrefix(src, "seeds/002_") || !strings.Contains(src, `the "`+Sentinel()+`" sentinel (what beam sends on every reload)`) {
		t.Errorf("workspace.sentinel %q is not the sentinel the quoted sentence names: %s", Sentinel(), src)
	}
	b, err := os.ReadFile("../../conformance/cases/workspace.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Steps []struct {
				Op   string  `json:"op"`
				Cwd  *string `json:"cwd"`
				Root *string `json:"root"`
			} `json:"steps"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	sent := map[string]bool{}
	for _, c := range f.Cases {
		for _, st := range c.Steps {
			if (st.Cwd != nil && *st.Cwd == Sentinel()) || (st.Root != nil && *st.Root == Sentinel()) {
				sent[st.Op] = true
			}
		}
	}
	for _, op := range []string{"new", "load", "files"} {
		if !sent[op] {
			t.Errorf("no case sends the sentinel %q at %s", Sentinel(), op)
		}
	}
}

func TestRootsAndSessions(t *testing.T) {
	d := materialize(t, []string{"/srv/a/f", "/srv/b/", "/srv/c/"}, map[string]string{"/srv/alias": "b", "/srv/b-link": "/srv/b"})
	s := NewServer(Config{Default: "/srv/a/", Roots: []string{"/srv/b", "/srv/missing"}}, d)
	for _, c := range []struct {
		cwd  *string
		want string
		ref  Refusal
	}{
		{nil, "/srv/a", ""},
		{str(""), "/srv/a", ""},
		{str("/"), "/srv/a", ""},
		{str("/srv/a/"), "/srv/a", ""},
		{str("/srv//b"), "/srv/b", ""},
		{str("/srv/alias"), "/srv/b", ""}, // a link to a root is that root
		{str("/srv/b-link/"), "/srv/b", ""},
		{str("/srv/missing"), "/srv/missing", ""}, // allowlisted by its text, there or not
		{str("/srv/c"), "", NotAllowed},
		{str("/srv/a/f"), "", NotAllowed},
		{str("/srv/a/.."), "", NotAllowed},
		{str("."), "", NotAbsolute},
		{str("srv/a"), "", NotAbsolute},
	} {
		got, err := s.New(c.cwd)
		if got != c.want || refusal(err) != c.ref {
			t.Errorf("New(%v) = %q, %v; want %q, %s", deref(c.cwd), got, err, c.want, c.ref)
		}
	}
	// The last session made is /srv/missing: its paths are not there, but may be written.
	if _, err := s.Read("x"); refusal(err) != NotFound {
		t.Errorf("read in a root that is not there: %v", err)
	}
	if got, err := s.Write("x/y"); err != nil || got != "/srv/missing/x/y" {
		t.Errorf("write in a root that is not there: %q, %v", got, err)
	}
	if got := s.Options(); strings.Join(got, " ") != "/srv/a /srv/b /srv/missing" {
		t.Errorf("Options = %q", got)
	}
	if got := NewServer(Config{Default: "/srv/a"}, d).Options(); got != nil {
		t.Errorf("no roots registered, yet a picker: %q", got)
	}
}

func TestLoadKeepsTheStoredRoot(t *testing.T) {
	d := materialize(t, []string{"/srv/a/", "/srv/b/"}, map[string]string{"/srv/alias": "b"})
	s := NewServer(Config{Default: "/srv/a", Roots: []string{"/srv/b"}}, d)
	if _, err := s.New(str("/srv/b")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cwd  *string
		want string
		ref  Refusal
	}{
		{nil, "/srv/b", ""}, {str("/"), "/srv/b", ""}, {str(""), "/srv/b", ""}, {str("/srv/b/."), "/srv/b", ""},
		{str("/srv/alias"), "/srv/b", ""}, {str("/srv/a"), "", Immutable}, {str("/elsewhere"), "", Immutable}, {str("b"), "", NotAbsolute},
	} {
		got, err := s.Load(c.cwd)
		if got != c.want || refusal(err) != c.ref {
			t.Errorf("Load(%v) = %q, %v; want %q, %s", deref(c.cwd), got, err, c.want, c.ref)
		}
	}
	if err := s.SetRoot(); refusal(err) != Immutable {
		t.Errorf("SetRoot: %v", err)
	}
}

func TestErrorsNameNoTemporaryPath(t *testing.T) {
	d := materialize(t, []string{"/a/f"}, map[string]string{"/a/out": "/etc", "/a/l1": "l2", "/a/l2": "l1"})
	s := NewServer(Config{Default: "/a"}, d)
	s.New(nil)
	for _, p := range []string{"out/x", "l1", "nope", "/etc"} {
		_, err := s.Read(p)
		if err == nil || strings.Contains(err.Error(), d.top) {
			t.Errorf("Read(%q): %v", p, err)
		}
	}
}

func deref(p *string) string {
	if p == nil {
		return "<none>"
	}
	return fmt.Sprintf("%q", *p)
}

// BenchmarkRead is the hot path: a session's reads resolved on a real disk, half of them
// through links (one leaving the root), over a tree of 995 files (a tree's limit is 1,000
// entries).
func BenchmarkRead(b *testing.B) {
	var tree []string
	for i := range 995 {
		tree = append(tree, fmt.Sprintf("/srv/app/pkg%d/file%d.go", i%50, i))
	}
	links := map[string]string{"/srv/app/in": "pkg7", "/srv/app/out": "/etc", "/srv/app/chain": "in"}
	d := materialize(b, append(tree, "/etc/passwd"), links)
	s := NewServer(Config{Default: "/srv/app"}, d)
	s.New(nil)
	paths := []string{"pkg7/file7.go", "in/file57.go", "chain/file107.go", "out/passwd", "pkg3/../pkg9/file9.go", "pkg1/new.go"}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range paths {
			_, err := s.Read(p)
			if ref := refusal(err); err != nil && ref != Escape && ref != NotFound {
				b.Fatal(err)
			}
		}
	}
}
