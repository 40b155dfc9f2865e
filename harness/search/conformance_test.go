package search_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

func TestMalformedCasesNameTheirField(t *testing.T) {
	const tree = `"tree":["/a/x.md","/a/y.md"]`
	for _, c := range []struct{ json, field string }{
		{`{"passages":[]}`, "tree"},
		{`{` + tree + `}`, "passages"},
		{`{` + tree + `,"passages":[{"path":"/a/z.md","lines":[1,2],"text":"t"}]}`, "passages[0].path"},
		{`{` + tree + `,"passages":[{"path":"/a","lines":[1,2],"text":"t"}]}`, "passages[0].path"},
		{`{` + tree + `,"passages":[{"path":"/a//x.md","lines":[1,2],"text":"t"}]}`, "passages[0].path"},
		{`{` + tree + `,"passages":[{"path":"/a/x.md","lines":[2,1],"text":"t"}]}`, "passages[0].lines"},
		{`{` + tree + `,"passages":[{"path":"/a/x.md","lines":[0,1],"text":"t"}]}`, "passages[0].lines"},
		{`{` + tree + `,"passages":[{"path":"/a/x.md","lines":[1],"text":"t"}]}`, "passages[0].lines"},
		{`{` + tree + `,"passages":[{"path":"/a/x.md","lines":[1,2]}]}`, "passages[0].text"},
		{`{` + tree + `,"passages":[{"path":"/a/x.md","lines":[1,2],"text":"t"},{"path":"/a/x.md","lines":[1,2],"text":"u"}]}`, "passages[1]"},
		{`{` + tree + `,"passages":[{"path":"/a/x.md","lines":[1,2],"text":"t","score":1}]}`, "score"},
		{`{` + tree + `,"passages":[],"limit":0}`, "limit"},
		{`{` + tree + `,"passages":[],"limit":51}`, "limit"},
		{`{` + tree + `,"passages":[],"path":""}`, "path"},
		{`{` + tree + `,"passages":[],"cwd":"a"}`, "cwd"},
		{`{` + tree + `,"passages":[],"grants":{"/a":"write"}}`, `grants["/a"]`},
		{`{"tree":["a"],"passages":[]}`, "tree[0]"},
		{`{` + tree + `,"passages":[],"query":"tokens"}`, "query"},
	} {
		_, err := conformance.Search.Decode(json.RawMessage(c.json))
		var fe *conformance.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: want an error on %s, got %v", c.json, c.field, err)
		}
	}
}

func TestAnswerShapes(t *testing.T) {
	for _, good := range []string{`{"results":[]}`, `{"results":["/a:1-1\nx"]}`, `{"error":"Not a directory: /a"}`} {
		if _, err := conformance.Search.DecodeAnswer(json.RawMessage(good)); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
	for _, bad := range []string{`{}`, `{"results":[],"error":"x"}`, `{"results":null}`, `[]`, `{"results":[1]}`, `{"hits":[]}`} {
		if _, err := conformance.Search.DecodeAnswer(json.RawMessage(bad)); err == nil {
			t.Errorf("%s: decoded as an answer", bad)
		}
	}
}

// FuzzSearchCase: decoding never panics; a case that decodes never makes the reference panic,
// and its answer is one the area accepts.
func FuzzSearchCase(f *testing.F) {
	conformancetest.Seed(f, conformance.Search)
	f.Fuzz(func(t *testing.T, raw []byte) { conformancetest.Answer(t, conformance.Search, raw, true) })
}
