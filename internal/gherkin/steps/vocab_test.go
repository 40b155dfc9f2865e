package steps_test

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// withSteps is every area of the registry that has a vocabulary.
func withSteps() []conformance.Area {
	var out []conformance.Area
	for _, a := range conformance.All() {
		if a.Steps != nil {
			out = append(out, a)
		}
	}
	return out
}

// An unknown step lists every step of its area, Givens first, then Whens, then Thens.
func TestUnknownStepListsTheVocabulary(t *testing.T) {
	for _, a := range withSteps() {
		area, v := a.Name, a.Steps
		msg := v.Unknown(area, steps.When, "something nobody wrote")
		last := -1
		for _, k := range []steps.Kind{steps.Given, steps.When, steps.Then} {
			for _, d := range v.Defs() {
				if d.Kind != k {
					continue
				}
				i := strings.Index(msg, "\n    "+d.Shown)
				if i < 0 {
					t.Errorf("%s: the message lacks %q", area, d.Shown)
				}
				if i < last {
					t.Errorf("%s: %q out of order", area, d.Shown)
				}
				last = i
			}
		}
		if strings.Contains(msg, "did you mean") {
			t.Errorf("%s: a guess for a line far from every phrase:\n%s", area, msg)
		}
	}
}

// Each phrase matches its own example (the phrase with its holes filled) and is the step that
// example finds: no phrase of an area hides another.
func TestPhrasesAreUnambiguous(t *testing.T) {
	samples := map[string]string{"string": `"a"`, "int": "1", "text": `"a"`, "strings": `"a", "b"`, "id": "#0001", "word": "read", "json": `{"a": 1}`}
	for _, a := range withSteps() {
		area, v := a.Name, a.Steps
		for _, d := range v.Defs() {
			example := steps.HoleRE.ReplaceAllStringFunc(d.Phrase, func(h string) string {
				return samples[steps.HoleRE.FindStringSubmatch(h)[1]]
			})
			got, err := v.Match(area, d.Kind, example)
			if err != nil || got.Phrase != d.Phrase {
				t.Errorf("%s: %q finds %q (%v), want %q", area, example, got.Phrase, err, d.Phrase)
			}
		}
	}
	// A few phrases that share words must still pick the right step.
	for _, c := range []struct {
		area, text, want string
	}{
		{"context", `#0001 reads "a.md"`, `{id} reads {string:path}`},
		{"context", `#0001 reads "a.md" from line 2`, `{id} reads {string:path} from line {int:offset}`},
		{"context", `#0001 reads 3 lines of "a.md" from line 2`, `{id} reads {int:limit} lines of {string:path} from line {int:offset}`},
		{"context", `#0001 is "bash" {"command": "seq 3"} answering the numbers 1 to 3, one a line`, `{id} is {string:tool} {json:args} answering the numbers 1 to {int:n}, one a line`},
		{"context", `#0001 is "bash" {"a": {"b": 1}} answering "x"`, `{id} is {string:tool} {json:args} answering {text:text}`},
		{"prefix", `step 1 sends system prompt 1 with the tools "read"`, `step {int:n} sends system prompt {int:system} with the tools {strings:tools}`},
		{"prefix", `step 1 sends system prompt 1`, `step {int:n} sends system prompt {int:system}`},
		{"search", `the session searches "/a" for 3 results`, `the session searches {string:path} for {int:limit} results`},
		{"workspace", `/files is asked for "a" in the root "/r"`, `/files is asked for {string:path} in the root {string:root}`},
	} {
		a, _ := conformance.ByName(c.area)
		d, err := a.Steps.Match(c.area, steps.Any, c.text)
		if err != nil || d.Phrase != c.want {
			t.Errorf("%s %q: matched %q (%v), want %q", c.area, c.text, d.Phrase, err, c.want)
		}
	}
}
