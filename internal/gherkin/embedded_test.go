package gherkin

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/gherkin/features"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/internal/golit"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "write embedded_scenarios.go (go generate ./runner/gherkin)")

const embeddedFile = "embedded_scenarios.go"

// The table of the embedded scenarios is what parsing the embedded features makes now, and
// Embedded gives what Load does, each case's decoding left for Case.Decode.
func TestEmbeddedScenarioTable(t *testing.T) {
	scs, err := Load(features.FS, "features")
	if err != nil {
		t.Fatal(err)
	}
	src, err := renderScenarios(scs)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(embeddedFile, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(embeddedFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, src) {
		t.Errorf("%s is not what the embedded features make now: run `go generate ./internal/gherkin`", embeddedFile)
	}
	got, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(comparable(scs), comparable(got), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("Embedded() differs from Load (-load +embedded):\n%s", d)
	}
}

// `run --features` parses no feature: the embedded ones come from the table (it parsed all
// eleven files, and ran every step, on each call).
func TestEmbeddedParsesNoFeature(t *testing.T) {
	before := parses.Load()
	scs, err := LoadDir("")
	if err != nil || len(scs) == 0 {
		t.Fatalf("%d scenarios, %v", len(scs), err)
	}
	if n := parses.Load() - before; n != 0 {
		t.Errorf("the embedded features were parsed %d times, want none", n)
	}
}

// scenarioView is a scenario as the tests compare it: its case without the decoded value, its
// checks, and its error's text.
type scenarioView struct {
	Case   any
	Checks []steps.Check
	Err    string
}

func comparable(scs []Scenario) []scenarioView {
	out := make([]scenarioView, len(scs))
	for i, sc := range scs {
		c := sc.Case
		c.Decoded = nil
		out[i] = scenarioView{Case: c, Checks: sc.Checks}
		if sc.Err != nil {
			out[i].Err = sc.Err.Error()
		}
	}
	return out
}

// renderScenarios writes the table of the scenarios as Go source.
func renderScenarios(scs []Scenario) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("import (\n\t\"encoding/json\"\n\t\"errors\"\n\n")
	b.WriteString("\t\"github.com/LLeMbas/lembas-check/conformance\"\n\t\"github.com/LLeMbas/lembas-check/internal/gherkin/steps\"\n)\n\n")
	b.WriteString("var _ = errors.New\n\n")
	b.WriteString("// embeddedScenarios is Load(features.FS, \"features\"), made when lembas-check was built; a\n")
	b.WriteString("// function, not a variable, so that a process that runs no feature builds none.\n")
	b.WriteString("func embeddedScenarios() []Scenario {\n\treturn []Scenario{\n")
	for _, sc := range scs {
		c := sc.Case
		fmt.Fprintf(&b, "\t\t{Case: conformance.Case{Label: conformance.Label{ID: %q, Area: %q, Index: %d, File: %q, Line: %d, About: %q},\n",
			c.ID, c.Area, c.Index, c.File, c.Line, c.About)
		fmt.Fprintf(&b, "\t\t\tInput: json.RawMessage(%q), Expect: json.RawMessage(%q)},\n", c.Input, c.Expect)
		if len(sc.Checks) > 0 {
			b.WriteString("\t\t\tChecks: []steps.Check{\n")
			for _, ch := range sc.Checks {
				fmt.Fprintf(&b, "\t\t\t\t%#v,\n", ch)
			}
			b.WriteString("\t\t\t},\n")
		}
		if sc.Err != nil {
			fmt.Fprintf(&b, "\t\t\tErr: errors.New(%q),\n", sc.Err.Error())
		}
		b.WriteString("\t\t},\n")
	}
	b.WriteString("\t}\n}\n")
	return golit.GoFile("gherkin", "`go generate ./internal/gherkin` (TestEmbeddedScenarioTable -update)", b.Bytes())
}
