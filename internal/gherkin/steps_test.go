package gherkin

import (
	"strings"
	"testing"
	"testing/fstest"
)

// loadOne loads one scenario of an area from its steps (indented as in a feature).
func loadOne(t *testing.T, area, steps string) Scenario {
	t.Helper()
	src := "Feature: f\n  Scenario: s\n" + steps
	scs, err := Load(fstest.MapFS{area + ".feature": {Data: []byte(src)}}, "dir")
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 1 {
		t.Fatalf("%d scenarios", len(scs))
	}
	return scs[0]
}

// scenarioErrors are scenarios that cannot be made into a case: an area, the steps, and what the
// error must say.
var scenarioErrors = map[string]struct {
	area, steps string
	want        []string
}{
	"unknown step": {"jobs", "    Given a background comand \"x\" with the id \"j\"\n    Then the note has 1 lines\n",
		[]string{"dir/jobs.feature:3: Given a background comand", "no step of area jobs reads like this", `did you mean: Given a background command "COMMAND" with the id "ID"`}},
	"wrong keyword": {"jobs", "    Given a message to the subagent:\n      \"\"\"\n      hi\n      \"\"\"\n    When the note is:\n      \"\"\"\n      x\n      \"\"\"\n",
		[]string{"dir/jobs.feature:7: When the note is:", "is a Then step here: write `Then the note is:`"}},
	"no docstring": {"jobs", "    Given a message to the subagent:\n    Then the note has 1 lines\n",
		[]string{"dir/jobs.feature:3", "takes a docstring"}},
	"a docstring too many": {"jobs", "    Given it left no unread output\n      \"\"\"\n      x\n      \"\"\"\n    Then the note has 1 lines\n",
		[]string{"dir/jobs.feature:3", "takes no docstring"}},
	"no table": {"instructions", "    Given the files:\n    Then no instruction file is loaded\n",
		[]string{"dir/instructions.feature:3", "takes a table"}},
	"a row of three cells": {"instructions", "    Given the grants:\n      | /a | ro | x |\n    Then no instruction file is loaded\n",
		[]string{"dir/instructions.feature:3", "table row 1 has 3 cells; this step's table has 2 a row"}},
	"a Given after a Then": {"jobs", "    Given a message to the subagent:\n      \"\"\"\n      hi\n      \"\"\"\n    Then the note has 2 lines\n    Given it ran for 5 seconds\n",
		[]string{"dir/jobs.feature:8", "a Given or When after a Then", "sent once"}},
	"no Then": {"jobs", "    Given a message to the subagent:\n      \"\"\"\n      hi\n      \"\"\"\n",
		[]string{"dir/jobs.feature:2", "has no Then"}},
	"nothing to build": {"jobs", "    Then the note has 1 lines\n",
		[]string{"dir/jobs.feature:2", "no job: begin with"}},
	"a case the area refuses": {"context", "    Given the file \"a.md\" holds \"x\\n\"\n    When #1 reads \"a.md\"\n    Then #1 inserts \"x\"\n",
		[]string{"dir/context.feature:2", "built a case area context refuses", "steps[0].id", `the case: {"steps":[`}},
	"content never said": {"context", "    When #0001 reads \"a.md\"\n    Then #0001 inserts \"x\"\n",
		[]string{"dir/context.feature:3", `what does a.md hold? say it first: ` + "`Given the file \"a.md\" holds"}},
	"an id no When gives": {"context", "    Given the file \"a.md\" holds \"x\\n\"\n    When #0001 reads \"a.md\"\n    Then #0002 inserts \"x\"\n",
		[]string{"dir/context.feature:5", "no When gives the result #0002 (this scenario's: #0001)"}},
	"an id twice": {"context", "    Given the file \"a.md\" holds \"x\\n\"\n    When #0001 reads \"a.md\"\n    And #0001 reads \"a.md\"\n    Then #0001 inserts \"x\"\n",
		[]string{"dir/context.feature:5", "#0001 is already a result"}},
	"a bad escape": {"jobs", "    Given a message to the subagent:\n      \"\"\"\n      hi\n      \"\"\"\n    Then the note's first line is \"\\q\"\n",
		[]string{"dir/jobs.feature:7", "is not a quoted string"}},
	"a step past the last": {"prefix", "    Given a session that starts on \"2026-11-05\" in mode \"manual\"\n    And it could meet nothing\n    And the tools \"read\"\n    When the person sends a message\n    Then step 2 carries no note\n",
		[]string{"dir/prefix.feature:7", "the scenario has 1 steps (one a When), no step 2"}},
	"a request Then on a call": {"prefix", "    Given a session that starts on \"2026-11-05\" in mode \"manual\"\n    And it could meet nothing\n    And the tools \"read\"\n    When the model calls \"read\"\n    Then step 1 carries no note\n",
		[]string{"dir/prefix.feature:7", "step 1 is a call step, not a request"}},
	"prefix without could": {"prefix", "    Given a session that starts on \"2026-11-05\" in mode \"manual\"\n    And the tools \"read\"\n    When the person sends a message\n    Then step 1 carries no note\n",
		[]string{"dir/prefix.feature:2", "what could the session ever meet?"}},
	"a docstring marked json that is not": {"jobs", "    Given a message to the subagent:\n      \"\"\"json\n      hi\n      \"\"\"\n    Then the note has 2 lines\n",
		[]string{"dir/jobs.feature:3", "marked json but is not a JSON string"}},
}

// A scenario that cannot be made into a case says where and why, in words the author acts on.
func TestScenarioErrors(t *testing.T) {
	for name, c := range scenarioErrors {
		t.Run(name, func(t *testing.T) {
			sc := loadOne(t, c.area, c.steps)
			if sc.Err == nil {
				t.Fatalf("no error; the case: %s", sc.Case.Input)
			}
			for _, w := range c.want {
				if !strings.Contains(sc.Err.Error(), w) {
					t.Errorf("%q lacks %q", sc.Err, w)
				}
			}
		})
	}
}

// A `*` step takes the keyword of the phrase it names.
func TestStarSteps(t *testing.T) {
	sc := loadOne(t, "jobs", "    * a message to the subagent:\n      \"\"\"\n      hi\n      \"\"\"\n    * the note has 2 lines\n")
	if sc.Err != nil || len(sc.Checks) != 1 || sc.Checks[0].Step != "* the note has 2 lines" {
		t.Errorf("err %v, checks %+v", sc.Err, sc.Checks)
	}
}
