package selection

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		pattern string
		id      string
		want    bool
	}{
		{"context/*", "context/1a2b3c4d", true},
		{"context/*", "contextx/1a2b3c4d", false},
		{"*", "context/1a2b3c4d", false},
		{"**", "context/1a2b3c4d", true},
		{"**/1a2b*", "context/1a2b3c4d", true},
		{"*/1a2b????", "fs_access/1a2b3c4d", true},
		{"jobs/*,prefix/*", "prefix/00000000", true},
		{"jobs/*,prefix/*", "context/00000000", false},
		{"a.b/*", "aXb/1", false},
	} {
		g, err := CompileGlob(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Match(c.id); got != c.want {
			t.Errorf("%q matches %q: %v, want %v", c.pattern, c.id, got, c.want)
		}
	}
	if _, err := CompileGlob(" , "); err == nil {
		t.Error("an empty pattern compiles")
	}
}

func jobsCases(t *testing.T) []conformance.Case {
	t.Helper()
	cases, err := conformance.Load(conformance.EmbeddedSuites(), conformance.All())
	if err != nil {
		t.Fatal(err)
	}
	out, err := Select(cases, []string{"jobs"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSelectRefusesAnAreaNoCaseHas(t *testing.T) {
	cases := jobsCases(t)
	if _, err := Select(cases, []string{"jobs", "jbos"}, nil); err == nil || !strings.Contains(err.Error(), "jbos") {
		t.Fatalf("want an error naming jbos, got %v", err)
	}
	g, _ := CompileGlob(cases[0].ID)
	got, err := Select(cases, nil, g)
	if err != nil || len(got) != 1 || got[0].ID != cases[0].ID {
		t.Fatalf("--run %s selected %d cases (%v)", cases[0].ID, len(got), err)
	}
}
