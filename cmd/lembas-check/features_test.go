package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The embedded features run beside the JSON cases in one report, chosen by --area and --run.
func TestRunFeaturesEmbedded(t *testing.T) {
	code, out, errs := runCLI(t, "run", "--features", "--area", "jobs", "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, w := range []string{"--- PASS: jobs/feature:durations-are-written-in-their-two-largest-units-the-second-with-two-digits:4", "--- PASS: jobs/", "ok\t"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	code, out, _ = runCLI(t, "run", "--features", "--run", "*/feature:*", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2+10*6 {
		t.Fatalf("%d JSON lines; want a header, a line per scenario (at least 60) and a footer", len(lines))
	}
	for _, l := range lines[1 : len(lines)-1] {
		if !strings.Contains(l, `/feature:`) || !strings.Contains(l, `"file":"features/`) || !strings.Contains(l, `"verdict":"pass"`) {
			t.Fatalf("a case line that is not a passing scenario with its feature file: %s", l)
		}
	}
}

// `--no-embedded --features` with no --suite runs the features alone.
func TestRunFeaturesAlone(t *testing.T) {
	code, out, errs := runCLI(t, "run", "--no-embedded", "--features", "--area", "instructions")
	if code != 0 || !strings.Contains(out, "ok\t") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if strings.Contains(out, "instructions/0") || !strings.Contains(out, "18 of 18 checked, 0 skipped") {
		t.Errorf("want only the 18 instructions scenarios:\n%s", out)
	}
}

const failingFeature = `Feature: jobs
  Scenario: a typo in the expected duration
    Given a background command "sleep" with the id "job1"
    And it exited with 0
    And it ran for 65 seconds
    And it left no unread output
    Then line 2 of the note is "job1 (sleep) exited with 0 after 1m 5s. It printed nothing you had not read."

  Scenario: a step no vocabulary knows
    Given a background comand "sleep" with the id "job1"
    Then the note has 2 lines
`

// A feature folder's failures name the file, the line, the Then and what differs; a step the runner
// does not know lists the area's steps.
func TestRunFeaturesDir(t *testing.T) {
	dir := writeSuite(t, map[string]string{"jobs.feature": failingFeature})
	code, out, errs := runCLI(t, "run", "--no-embedded", "--features", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errs)
	}
	for _, w := range []string{
		"--- FAIL: jobs/feature:a-typo-in-the-expected-duration",
		filepath.Join(dir, "jobs.feature") + ":7: Then line 2 of the note is",
		`+ "job1 (sleep) exited with 0 after 1m 05s.`, "differs (-want +got)",
		"--- MALFORMED: jobs/feature:a-step-no-vocabulary-knows",
		"jobs.feature:10: Given a background comand",
		`did you mean: Given a background command "COMMAND" with the id "ID"`,
		"Then the note is:",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	// The known failure and the broken scenario listed as expected: exit 0.
	exp := writeSuite(t, map[string]string{"expect.txt": "jobs/feature:* known: a typo kept on purpose\n"})
	code, out, errs = runCLI(t, "run", "--no-embedded", "--features", dir, "--expect", filepath.Join(exp, "expect.txt"))
	if code != 0 || !strings.Contains(out, "2 xfail") {
		t.Errorf("with --expect: exit %d\n%s\n%s", code, out, errs)
	}
}

// A folder that cannot be used is exit 2 with a message naming it.
func TestRunFeaturesBadDir(t *testing.T) {
	notGherkin := writeSuite(t, map[string]string{"jobs.feature": "Scenario: outside any feature\n  Given x\n"})
	noArea := writeSuite(t, map[string]string{"jobz.feature": "Feature: x\n  Scenario: y\n    Then z\n"})
	for name, c := range map[string]struct {
		dir  string
		want []string
	}{
		"missing":     {filepath.Join(t.TempDir(), "nope"), []string{"--features", "nope"}},
		"not Gherkin": {notGherkin, []string{"--features", "not Gherkin"}},
		"no area":     {noArea, []string{"jobz.feature", `no area "jobz"`, "context"}},
	} {
		t.Run(name, func(t *testing.T) {
			notMade(t, c.want, "run", "--features", c.dir)
		})
	}
}

// Every feature passes through `lembas-check adapter` as it does against the builtin.
func TestRunFeaturesThroughAdapter(t *testing.T) {
	impl := selfAdapter(t)
	code, out, errs := runCLI(t, "run", "--no-embedded", "--features", "--impl", impl, "--jobs", "2")
	if code != 0 || !strings.Contains(out, "ok\t") || !strings.Contains(out, "0 fail") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, " adapter)") {
		t.Errorf("the report does not name the adapter:\n%s", out)
	}
}

// An --area no case or feature has is exit 2, with the features alone too.
func TestRunFeaturesUnknownArea(t *testing.T) {
	code, _, errs := runCLI(t, "run", "--no-embedded", "--features", "--area", "contxt")
	if code != 2 || !strings.Contains(errs, "--area contxt") || !strings.Contains(errs, "context") {
		t.Errorf("exit %d; stderr %s", code, errs)
	}
}
