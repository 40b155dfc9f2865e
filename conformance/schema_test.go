package conformance

import (
	"strings"
	"testing"
)

// Every embedded case fits its area's case schema and every expectation its answer schema: the
// schemas, made from the Go types, describe what the suites hold.
func TestSchemasFitTheSuites(t *testing.T) {
	for _, a := range All() {
		cases, err := EmbeddedCases(a.Name)
		if err != nil {
			t.Fatal(err)
		}
		defs := a.Schema()["$defs"].(map[string]any)
		for _, c := range cases {
			if msg := CheckSchema(defs["case"].(map[string]any), c.Input, "case"); msg != "" {
				t.Errorf("%s: %s", c.ID, msg)
			}
			if msg := CheckSchema(a.AnswerSchema(), c.Expect, "answer"); msg != "" {
				t.Errorf("%s: expect: %s", c.ID, msg)
			}
		}
	}
}

// Every known answer of the embedded table fits its area's answer schema, as CheckAnswer takes it
// without checking (knownToFit).
func TestEmbeddedAnswersFitTheirSchemas(t *testing.T) {
	n := 0
	for _, e := range embeddedCases {
		if e.answer == "" {
			continue
		}
		n++
		a, _ := ByName(e.area)
		if msg := CheckSchema(a.AnswerSchema(), []byte(e.answer), "answer"); msg != "" {
			t.Errorf("%s: the known answer: %s", e.id, msg)
		}
	}
	if n == 0 {
		t.Fatal("the table holds no known answer")
	}
	// An answer of other bytes is still checked.
	if msg := CheckAnswer("jobs", []byte(`{"text": 3}`)); msg == "" {
		t.Error("CheckAnswer passed a malformed jobs answer")
	}
}

// A malformed answer is named by its path: a wrong type, a field the area has not, a field left out.
func TestCheckSchemaNamesTheField(t *testing.T) {
	s := map[string]any{"type": "object", "additionalProperties": false, "required": []string{"notes"}, "properties": map[string]any{
		"notes": map[string]any{"type": "array", "items": map[string]any{"type": "object", "additionalProperties": false,
			"required": []string{"text"}, "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
	}}
	for raw, want := range map[string]string{
		`{"notes": [{"text": null}]}`:            "answer.notes[0].text: want string, got null",
		`{"notes": [{"text": "a"}, {"txt": 1}]}`: "answer.notes[1].text: missing (want string)",
		`{"notes": [], "more": 1}`:               "answer.more: unknown field",
		`{"notes": {}}`:                          "answer.notes: want array, got object",
		`{"notes": [{"text": "a"}]}`:             "",
	} {
		if got := CheckSchema(s, []byte(raw), "answer"); got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
	if got := CheckSchema(Jobs.AnswerSchema(), []byte(`{"text": 3}`), "answer"); !strings.HasPrefix(got, "answer.text: want string, got integer") {
		t.Errorf("jobs: %q", got)
	}
}
