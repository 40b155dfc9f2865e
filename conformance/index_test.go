package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// A step the spec refuses is a case (issue 28): it loads, the reference answers the refusal with
// the spec's text where the spec has one, and an implementation that takes the step — answering
// the index as if the step were made — fails the case instead of stopping the run.
func TestIndexRefusalsAreCases(t *testing.T) {
	rmMount := `{"steps": [{"op": "mount", "path": "/Repo", "files": {"README.md": "Read me.\n"}}, {"op": "rm", "path": "/Repo"}],
		"expect": {"refused": {"step": 1}}}`
	commitOutside := `{"steps": [{"op": "write", "path": "/a.md", "content": "A.\n"}, {"op": "commit", "path": "/a.md"}],
		"expect": {"refused": {"step": 1, "error": "Nothing to commit: /a.md is not in a repository."}}}`
	for name, c := range map[string]struct{ raw, taken string }{
		"rm of a mount":              {rmMount, `{"embedded": [], "index": {}}`},
		"a commit outside any mount": {commitOutside, `{"embedded": [], "index": {}}`},
	} {
		t.Run(name, func(t *testing.T) {
			cs, err := ParseCase(Index, json.RawMessage(c.raw))
			if err != nil {
				t.Fatalf("a refused step is refused at load: %v", err)
			}
			got, err := Index.Reference(cs.Decoded)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if d := Diff(cs.Expect, b); d != "" {
				t.Errorf("the reference does not refuse as the spec does:\n%s", d)
			}
			if d := Diff(cs.Expect, json.RawMessage(c.taken)); d == "" {
				t.Errorf("an implementation that takes the step passes")
			}
		})
	}
}

// The refusals the embedded cases expect carry only the spec's own texts (rendered from
// filesystem.md's Errors table by the reference), never a text of their own.
func TestIndexRefusalTextsAreTheSpecs(t *testing.T) {
	cases, err := EmbeddedCases("index")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		var a struct {
			Refused *struct {
				Error *string `json:"error"`
			} `json:"refused"`
		}
		if err := json.Unmarshal(c.Expect, &a); err != nil || a.Refused == nil {
			continue
		}
		n++
		if a.Refused.Error != nil && !specErrorText(*a.Refused.Error) {
			t.Errorf("%s expects %q, not a text of filesystem.md's Errors table", c.Where(), *a.Refused.Error)
		}
	}
	if n < 5 {
		t.Errorf("%d refusal cases of index, want at least 5", n)
	}
}

func specErrorText(s string) bool {
	for _, tpl := range fsaccess.SpecTexts().Errors {
		if tpl.Before != "" && strings.HasPrefix(s, tpl.Before) && strings.HasSuffix(s, tpl.After) {
			return true
		}
	}
	return false
}
