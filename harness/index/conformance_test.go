package index_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

func TestMalformedCasesNameTheirField(t *testing.T) {
	for _, c := range []struct{ json, field, want string }{
		{`{}`, "steps", "missing"},
		{`{"steps":[]}`, "steps", "missing"},
		{`{"steps":[{"op":"touch"}]}`, "steps[0].op", "not an op"},
		{`{"steps":[{"op":"write","path":"/a"}]}`, "steps[0].content", "missing"},
		{`{"steps":[{"op":"write","path":"/a","content":"x","to":"/b"}]}`, "steps[0].to", "has no to"},
		{`{"steps":[{"op":"mv","from":"/a"}]}`, "steps[0].to", "missing"},
		{`{"steps":[{"op":"mount","path":"/r","files":{"a":null}}]}`, `steps[0].files["a"]`, "is null"},
		{`{"steps":[{"op":"mount","path":"/r","files":{"a":"x"}},{"op":"commit","path":"/r","paths":[]}]}`, "steps[1].paths", "empty"},
		{`{"steps":[{"op":"write","path":"a","content":"x"}]}`, "steps[0]", "not absolute"},
		{`{"steps":[{"op":"mount","path":"/r","files":{"a":"x"}},{"op":"mount","path":"/r","files":{}}]}`, "steps[1]", "already there"},
		{`{"steps":[{"op":"forge_commit","path":"/a","files":{}}]}`, "steps[0]", "not in a repository"},
		{`{"steps":[{"op":"rm","path":"/a"}],"expect":[]}`, "expect", "unknown field"},
	} {
		_, err := conformance.Index.Decode(json.RawMessage(c.json))
		var fe *conformance.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(fe.Msg, c.want) {
			t.Errorf("%s: got %v, want an error on %s saying …%s…", c.json, err, c.field, c.want)
		}
	}
}

func TestAnswerShapes(t *testing.T) {
	h := strings.Repeat("0a", 32)
	if _, err := conformance.Index.DecodeAnswer(json.RawMessage(`{"embedded":["` + h + `"],"index":{"/a":"` + h + `"}}`)); err != nil {
		t.Fatalf("a good answer: %v", err)
	}
	if _, err := conformance.Index.DecodeAnswer(json.RawMessage(`{"refused":{"step":2,"error":"Already exists: /b"}}`)); err != nil {
		t.Fatalf("a refusal: %v", err)
	}
	for _, bad := range []string{`{"embedded":[]}`, `{"index":{}}`, `{"embedded":null,"index":{}}`, `{"embedded":["abc"],"index":{}}`,
		`{"embedded":[null],"index":{}}`, `{"embedded":[],"index":{"a":"` + h + `"}}`, `{"embedded":[],"index":{"/a":null}}`,
		`{"embedded":["` + strings.ToUpper(h) + `"],"index":{}}`, `{"embedded":[],"index":{},"held":{}}`, `[]`,
		`{"refused":{"step":1},"embedded":[],"index":{}}`, `{"refused":{"step":-1}}`, `{"refused":{"error":"x","stap":1}}`} {
		if _, err := conformance.Index.DecodeAnswer(json.RawMessage(bad)); err == nil {
			t.Errorf("%s: decoded as an answer", bad)
		}
	}
}

// FuzzIndexCase: decoding never panics; a case that decodes is answered, with an answer the
// area accepts.
func FuzzIndexCase(f *testing.F) {
	conformancetest.Seed(f, conformance.Index)
	f.Fuzz(func(t *testing.T, raw []byte) { conformancetest.Answer(t, conformance.Index, raw, false) })
}
