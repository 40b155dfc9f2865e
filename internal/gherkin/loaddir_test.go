package gherkin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/selection"
	"github.com/LLeMbas/lembas-check/runner"
)

// --features alone is the embedded features; a folder that is missing, a file, or a folder of no
// feature is named with the flag.
func TestLoadDir(t *testing.T) {
	emb, err := LoadDir("")
	if err != nil || len(emb) == 0 {
		t.Fatalf("the embedded features: %d, %v", len(emb), err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "none"), "--features " + filepath.Join(dir, "none") + ": "},
		{file, "--features " + file + ": not a directory"},
		{dir, "--features: " + dir + ": no <area>.feature file with a scenario"},
	} {
		if _, err := LoadDir(c.dir); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.dir, err, c.want)
		}
	}
}

// A run's items: the suites' cases, the features' scenarios with --features, alone when the
// embedded suites are left out and none is named; one selection for both.
func TestRunItems(t *testing.T) {
	all := selection.Selection{}
	cases, err := RunItems(runner.SuiteOptions{}, false, "", all)
	if err != nil || len(cases) == 0 {
		t.Fatalf("the cases: %d, %v", len(cases), err)
	}
	alone, err := RunItems(runner.SuiteOptions{NoEmbedded: true}, true, "", all)
	if err != nil || len(alone) == 0 {
		t.Fatalf("the features alone: %d, %v", len(alone), err)
	}
	both, err := RunItems(runner.SuiteOptions{}, true, "", all)
	if err != nil || len(both) != len(cases)+len(alone) {
		t.Errorf("both: %d, want %d + %d (%v)", len(both), len(cases), len(alone), err)
	}
	sel, err := selection.New([]string{"jobs"}, "")
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := RunItems(runner.SuiteOptions{}, true, "", sel)
	if err != nil || len(jobs) == 0 || len(jobs) >= len(both) {
		t.Errorf("--area jobs: %d of %d (%v)", len(jobs), len(both), err)
	}
	for _, it := range jobs {
		if it.Case.Area != "jobs" {
			t.Errorf("%s: not of the selection", it.Case.ID)
		}
	}
}
