package gherkin

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/gherkin/features"
	"github.com/LLeMbas/lembas-check/runner"
	messages "github.com/cucumber/messages/go/v34"
)

// With LEMBAS_GHERKIN_ADAPTER=1 the test binary is `lembas-check adapter`: the builtin reference
// served over the adapter protocol, so the features can run through a real adapter process.
func TestMain(m *testing.M) {
	if os.Getenv("LEMBAS_GHERKIN_ADAPTER") == "1" {
		if err := runner.Serve(context.Background(), os.Stdin, os.Stdout, runner.Builtin{}); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Every embedded scenario passes against the builtin reference.
func TestFeaturesPassAgainstBuiltin(t *testing.T) {
	scs, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	target := runner.Builtin{}
	info, err := target.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range RunScenarios(context.Background(), target, info, scs, runner.Options{}) {
		if r.Verdict != runner.Pass {
			t.Error(Failure(r))
		}
	}
}

// Every embedded scenario passes, unchanged, through an adapter process (two of them), with the
// answer the builtin gives.
func TestFeaturesPassThroughAdapter(t *testing.T) {
	t.Setenv("LEMBAS_GHERKIN_ADAPTER", "1")
	a, err := runner.NewAdapter("'"+os.Args[0]+"'", runner.AdapterOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	scs, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ainfo, err := a.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rep := runner.Run(context.Background(), a, ainfo, Items(scs), runner.Options{Workers: 2})
	rep.Closed(a.Close())
	if rep.Target.Kind != "adapter" || len(rep.Results) != len(scs) {
		t.Fatalf("target %+v, %d results for %d scenarios", rep.Target, len(rep.Results), len(scs))
	}
	info, _ := runner.Builtin{}.Start(context.Background())
	builtin := RunScenarios(context.Background(), runner.Builtin{}, info, scs, runner.Options{})
	for i, r := range rep.Results {
		if r.Verdict != runner.Pass {
			t.Errorf("%s", Failure(r))
			continue
		}
		if d := conformance.Diff(builtin[i].Answer, r.Answer); d != "" {
			t.Errorf("%s: the adapter answers otherwise than the builtin (-builtin +adapter):\n%s", r.Case.ID, d)
		}
	}
}

// Each area of the registry has a vocabulary and a feature of at least six scenarios, Scenario
// Outlines with Examples among them.
func TestEveryAreaHasAFeature(t *testing.T) {
	scs, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defs := map[string]map[string]bool{} // area → scenario definitions (an outline counts once)
	for _, s := range scs {
		if s.Err != nil {
			t.Errorf("%s: %v", s.Case.ID, s.Err)
		}
		if defs[s.Case.Area] == nil {
			defs[s.Case.Area] = map[string]bool{}
		}
		id, _, _ := strings.Cut(s.Case.ID, ":")
		id, _, _ = strings.Cut(strings.TrimPrefix(s.Case.ID, id+":"), ":")
		defs[s.Case.Area][id] = true
	}
	outlines := map[string]bool{}
	for _, s := range scs {
		if strings.Count(s.Case.ID, ":") == 2 {
			outlines[s.Case.Area] = true
		}
	}
	for _, a := range conformance.All() {
		if a.Steps == nil {
			t.Errorf("area %s has no step vocabulary", a.Name)
		}
		if n := len(defs[a.Name]); n < 6 {
			t.Errorf("area %s: %d scenarios in conformance/features/%s.feature, want at least 6", a.Name, n, a.Name)
		}
		if !outlines[a.Name] {
			t.Errorf("area %s: no Scenario Outline", a.Name)
		}
	}
	for _, a := range Areas() {
		if _, ok := conformance.ByName(a); !ok {
			t.Errorf("vocabulary %s is of no area in the registry", a)
		}
	}
}

const idFeature = `Feature: ids

  Scenario: A note, with punctuation & Capitals!
    Given a message to the subagent:
      """
      hi
      """
    Then the note has 2 lines

  Scenario Outline: durations <d>
    Given a background command "x" with the id "job1"
    And it exited with 0
    And it ran for <s> seconds
    And it left no unread output
    Then line 2 of the note is "job1 (x) exited with 0 after <d>. It printed nothing you had not read."

    Examples:
      | s | d  |
      | 1 | 1s |

    Examples: more
      | s  | d      |
      | 61 | 1m 01s |
`

// A scenario's id is its area and its name's slug, an outline's row adding its place among the
// rows; File is the folder, the file and the line (the row's, for an outline). Moving a scenario
// changes its line, not its id.
func TestIDs(t *testing.T) {
	load := func(src string) []Scenario {
		scs, err := Load(fstest.MapFS{"jobs.feature": {Data: []byte(src)}}, "dir")
		if err != nil {
			t.Fatal(err)
		}
		return scs
	}
	scs := load(idFeature)
	want := []struct{ id, file, about string }{
		{"jobs/feature:a-note-with-punctuation-capitals", "dir/jobs.feature:3", "A note, with punctuation & Capitals!"},
		{"jobs/feature:durations-d:1", "dir/jobs.feature:19", "durations 1s"},
		{"jobs/feature:durations-d:2", "dir/jobs.feature:23", "durations 1m 01s"},
	}
	if len(scs) != len(want) {
		t.Fatalf("%d scenarios, want %d", len(scs), len(want))
	}
	for i, w := range want {
		c := scs[i].Case
		if c.ID != w.id || c.File != w.file || c.About != w.about || c.Area != "jobs" || scs[i].Err != nil {
			t.Errorf("scenario %d: %s %s %q %v; want %s %s %q", i, c.ID, c.File, c.About, scs[i].Err, w.id, w.file, w.about)
		}
	}
	moved := load(strings.Replace(idFeature, "Feature: ids\n", "Feature: ids\n\n\n  # two lines more\n", 1))
	for i := range moved {
		if moved[i].Case.ID != scs[i].Case.ID || moved[i].Case.File == scs[i].Case.File {
			t.Errorf("moved: %s at %s; was %s at %s", moved[i].Case.ID, moved[i].Case.File, scs[i].Case.ID, scs[i].Case.File)
		}
		if string(moved[i].Case.Input) != string(scs[i].Case.Input) {
			t.Errorf("moved: the case changed: %s vs %s", moved[i].Case.Input, scs[i].Case.Input)
		}
	}
	if got := Slug("Ünïcode — and 12 digits"); got != "n-code-and-12-digits" {
		t.Errorf("Slug = %q", got)
	}
}

// featureErrors are folders that cannot be used at all: their files, and what the error must say.
var featureErrors = map[string]struct {
	files map[string]string
	want  []string
}{
	"not Gherkin":   {map[string]string{"jobs.feature": "Scenario: no feature\n  Given x\n"}, []string{"dir: not Gherkin", "jobs.feature", "(1:1)"}},
	"no area":       {map[string]string{"jobz.feature": "Feature: f\n  Scenario: s\n    Then x\n"}, []string{"dir/jobz.feature", `no area "jobz"`, "fs_access"}},
	"empty":         {map[string]string{"README.md": "no features here\n"}, []string{"dir", "no <area>.feature"}},
	"duplicate ids": {map[string]string{"jobs.feature": "Feature: f\n  Scenario: same name\n    Then the note has 1 lines\n  Scenario: Same  name!\n    Then the note has 1 lines\n"}, []string{"dir/jobs.feature:4", "jobs/feature:same-name", "line 2"}},
	"nameless":      {map[string]string{"jobs.feature": "Feature: f\n  Scenario: —\n    Then the note has 1 lines\n"}, []string{"dir/jobs.feature:2", "needs a name"}},
}

// Files that cannot be used at all are a *FeatureError naming the file (and the line).
func TestFeatureErrors(t *testing.T) {
	for name, c := range featureErrors {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for n, b := range c.files {
				fsys[n] = &fstest.MapFile{Data: []byte(b)}
			}
			_, err := Load(fsys, "dir")
			if err == nil {
				t.Fatal("loaded")
			}
			if _, ok := err.(*FeatureError); !ok {
				t.Errorf("%T, want *FeatureError", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
}

// The embedded features are valid Gherkin with a step on every line godog runs: walkDoc sees the
// same steps the pickles have.
func TestWalkDocSeesEveryStep(t *testing.T) {
	scs, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, s := range scs {
		f := s.Case.File[:strings.LastIndexByte(s.Case.File, ':')]
		files[strings.TrimPrefix(f, "features/")] = true
	}
	entries, _ := features.FS.ReadDir(".")
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".feature") {
			n++
			if !files[e.Name()] {
				t.Errorf("%s gave no scenario", e.Name())
			}
		}
	}
	if n != len(conformance.All()) {
		t.Errorf("%d feature files for %d areas", n, len(conformance.All()))
	}
	steps := 0
	walkDoc(&messages.GherkinDocument{Feature: &messages.Feature{Children: []*messages.FeatureChild{
		{Background: &messages.Background{Steps: []*messages.Step{{}}}},
		{Rule: &messages.Rule{Children: []*messages.RuleChild{{Scenario: &messages.Scenario{Steps: []*messages.Step{{}, {}}}}}}},
	}}}, func(*messages.Scenario) {}, func(*messages.Step) { steps++ })
	if steps != 3 {
		t.Errorf("walkDoc saw %d steps, want 3 (a background's and a rule's scenario's)", steps)
	}
}

// A scenario without steps is that scenario's error, not a silent pass.
func TestAScenarioWithoutSteps(t *testing.T) {
	scs, err := Load(fstest.MapFS{"jobs.feature": {Data: []byte("Feature: f\n  Scenario: empty\n\n  Scenario: full\n    Given a message to the subagent:\n      \"\"\"\n      hi\n      \"\"\"\n    Then the note has 2 lines\n")}}, "dir")
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 2 || scs[0].Err == nil || !strings.Contains(scs[0].Err.Error(), "dir/jobs.feature:2: scenario \"empty\" has no steps") || scs[1].Err != nil {
		t.Fatalf("%d scenarios: %v, %v", len(scs), scs[0].Err, scs[1].Err)
	}
}

// A failed scenario shows the target's stderr as a failed case does (runner.WriteStderr): its
// last 20 lines, after a "…" (it showed the whole tail the runner keeps).
func TestFailureShowsTheStderrTail(t *testing.T) {
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, "log line "+strings.Repeat("x", i%3)+string(rune('a'+i%26)))
	}
	r := runner.Result{Case: conformance.Case{Label: conformance.Label{ID: "jobs/feature:x", File: "features/jobs.feature:3", About: "x"}},
		Verdict: runner.Crashed, Message: "the adapter exited\n", Stderr: strings.Join(lines, "\n") + "\n"}
	got := Failure(r)
	want := "CRASHED: jobs/feature:x (features/jobs.feature:3)\n  Scenario: x\n  the adapter exited\n  stderr (tail):\n      …\n      " + lines[10] + "\n"
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "      "+lines[29]+"\n") || strings.Contains(got, lines[9]+"\n") {
		t.Errorf("got\n%s\nwant it to begin\n%s", got, want)
	}
}
