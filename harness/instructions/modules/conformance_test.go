package modules_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

// TestMalformedCasesNameTheirField: strict decoding, and Validate's messages name the field.
func TestMalformedCasesNameTheirField(t *testing.T) {
	for _, c := range []struct{ json, field string }{
		{`{"steps":[{"op":"spawn"}]}`, "root"},
		{`{"root":"project","steps":[{"op":"spawn"}]}`, "root"},
		{`{"root":"/p"}`, "steps"},
		{`{"root":"/p","steps":[]}`, "steps"},
		{`{"root":"/p","steps":[{"op":"read"}]}`, "steps[0].op"},
		{`{"root":"/p","steps":[{"op":"spawn"},{"op":"touch"}]}`, "steps[1].paths"},
		{`{"root":"/p","steps":[{"op":"touch","paths":["src/a.ts"]}]}`, "steps[0].paths[0]"},
		{`{"root":"/p","steps":[{"op":"spawn","paths":["/p/a"]}]}`, "steps[0].paths"},
		{`{"root":"/p","steps":[{"op":"request","append":"later"}]}`, "steps[0].append"},
		{`{"root":"/p","steps":[{"op":"touch","paths":["/p/a"],"append":"fail"}]}`, "steps[0].append"},
		{`{"root":"/p","steps":[{"op":"change"}]}`, "steps[0]"},
		{`{"root":"/p","steps":[{"op":"change","files":{"p/a":"x"}}]}`, `steps[0].files["p/a"]`},
		{`{"root":"/p","steps":[{"op":"change","links":{"/p/a":""}}]}`, `steps[0].links["/p/a"]`},
		{`{"root":"/p","files":{"/p/a":"x","/p/a/b":"y"},"steps":[{"op":"spawn"}]}`, `files["/p/a/b"]`},
		{`{"root":"/p","files":{"/p/a":{"text":"x","pad":"ab","size":3}},"steps":[{"op":"spawn"}]}`, `files["/p/a"].pad`},
		{`{"root":"/p","files":{"/p/a":{"text":"xyz","pad":"a","size":2}},"steps":[{"op":"spawn"}]}`, `files["/p/a"].size`},
		{`{"root":"/p","files":{"/p/a":null},"steps":[{"op":"spawn"}]}`, `files["/p/a"]`},
		{`{"root":"/p","links":{"/p/a":null},"steps":[{"op":"spawn"}]}`, `links["/p/a"]`},
		{`{"root":"/p","links":{"/p/a":"/x"},"files":{"/p/a/b":"y"},"steps":[{"op":"spawn"}]}`, `files["/p/a/b"]`},
		{`{"root":"/p","steps":[{"op":"spawn"}],"tree":[]}`, "tree"},
	} {
		_, err := conformance.Modules.Decode(json.RawMessage(c.json))
		var fe *conformance.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: want an error on %s, got %v", c.json, c.field, err)
		}
	}
}

func TestAnswerShapes(t *testing.T) {
	good := `[null, {"root": null, "modules": [], "diagnostics": [{"path": "a.md", "code": null}]},
		{"record": null, "diagnostics": [{"code": "brain.instruction_activation_failed"}]},
		{"record": {"modules": ["m"], "instructions": [{"relPath": "a", "sha256": "h", "supersedes": null}]}, "diagnostics": []}]`
	if _, err := conformance.Modules.DecodeAnswer(json.RawMessage(good)); err != nil {
		t.Fatalf("a good answer: %v", err)
	}
	for _, bad := range []string{
		`{"root": null}`,
		`[{"root": null, "modules": []}]`,
		`[{"root": null, "modules": null, "diagnostics": []}]`,
		`[{"record": null}]`,
		`[{"record": null, "diagnostics": [], "extra": 1}]`,
		`[{"record": {"modules": [], "instructions": []}, "diagnostics": []}]`,
		`[{"record": {"modules": ["a", "b"], "instructions": [{"relPath": "a", "sha256": "h", "supersedes": null}]}, "diagnostics": []}]`,
		`[{"record": null, "diagnostics": [{}]}]`,
		`[{"root": 1, "modules": [], "diagnostics": []}]`,
		`[7]`,
	} {
		if _, err := conformance.Modules.DecodeAnswer(json.RawMessage(bad)); err == nil {
			t.Errorf("%s: decoded as an answer", bad)
		}
	}
}

// FuzzModulesCase: decoding any JSON through the area never panics; a case that decodes never
// makes the reference panic, and its answer marshals to a value the area accepts as an
// expectation (the answer type decodes strictly what it writes).
func FuzzModulesCase(f *testing.F) {
	conformancetest.Seed(f, conformance.Modules)
	f.Add([]byte(`{"root":"/","files":{"/.elowen/rules/a.md":"---\npaths: [x]\n---\n"},"links":{"/x":"/x"},"steps":[{"op":"touch","paths":["/x"]},{"op":"request"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) { conformancetest.Answer(t, conformance.Modules, raw, true) })
}
