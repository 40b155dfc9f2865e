package selection

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
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
	cases := conformancetest.All(t)
	jobs, _ := New([]string{"jobs"}, "")
	out, err := Cases(jobs, cases)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSelectRefusesAnAreaNoCaseHas(t *testing.T) {
	cases := jobsCases(t)
	typo, _ := New([]string{"jobs", "jbos"}, "")
	if _, err := Cases(typo, cases); err == nil || !strings.Contains(err.Error(), "jbos") {
		t.Fatalf("want an error naming jbos, got %v", err)
	}
	one, _ := New(nil, cases[0].ID)
	got, err := Cases(one, cases)
	if err != nil || len(got) != 1 || got[0].ID != cases[0].ID {
		t.Fatalf("--run %s selected %d cases (%v)", cases[0].ID, len(got), err)
	}
}

// A selection that holds nothing is an error naming it: issue 10 saw `run --run 'nomatch/*'` end
// in "ok … 0 cases" with exit 0.
func TestApplyRefusesAnEmptySelection(t *testing.T) {
	cases := jobsCases(t)
	for _, c := range []struct {
		areas []string
		run   string
		xs    []conformance.Case
		want  string
	}{
		{nil, "nomatch/*", cases, "--run 'nomatch/*' matches none of the 10 cases (of jobs)"},
		{[]string{"jobs"}, "jobs/zz*", cases, "--area jobs --run 'jobs/zz*' matches none"},
		{[]string{"jobs"}, "", nil, "no case to work on (--area jobs selected)"},
		{nil, "", nil, "no case to work on (every case selected)"},
	} {
		s, err := New(c.areas, c.run)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Cases(s, c.xs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", s, err, c.want)
		}
	}
	if _, err := New(nil, " , "); err == nil || !strings.Contains(err.Error(), "--run") {
		t.Errorf("a --run that is no glob: %v", err)
	}
	all, _ := New(nil, "")
	if got, err := Cases(all, cases); err != nil || len(got) != len(cases) {
		t.Errorf("the zero selection: %d of %d (%v)", len(got), len(cases), err)
	}
}

// A selection that keeps every case gives the cases themselves: the embedded suite's items were
// copied at every run for nothing. One that keeps some gives a list of its own.
func TestApplyKeepingAllDoesNotCopy(t *testing.T) {
	cases := jobsCases(t)
	all, _ := New(nil, "")
	got, err := Cases(all, cases)
	if err != nil || len(got) != len(cases) || &got[0] != &cases[0] {
		t.Fatalf("every case kept: %d cases, a copy %v (%v)", len(got), len(got) > 0 && &got[0] != &cases[0], err)
	}
	one, _ := New(nil, cases[1].ID)
	got, err = Cases(one, cases)
	if err != nil || len(got) != 1 || &got[0] == &cases[1] {
		t.Fatalf("one case kept: %d, shares the input %v (%v)", len(got), len(got) == 1 && &got[0] == &cases[1], err)
	}
}
