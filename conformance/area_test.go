package conformance

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// Helpers every area's tests use: the inputs of its case file as fuzz seeds, what a fuzz target
// asks of any input, and the reference's answer to a case as JSON.

// ownCasesFS is lembas-check's own suite (cases/).
func ownCasesFS(t testing.TB) fs.FS {
	t.Helper()
	own, err := fs.Sub(ownCases, "cases")
	if err != nil {
		t.Fatal(err)
	}
	return own
}

// wantField checks err is a FieldError naming field, whose message says want.
func wantField(t *testing.T, name string, err error, field, want string) {
	t.Helper()
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != field || !strings.Contains(fe.Msg, want) {
		t.Errorf("%s: got %v, want field %q saying …%s…", name, err, field, want)
	}
}

// referenceJSON is the reference's answer to case in, marshalled: what an adapter must print.
func referenceJSON(t *testing.T, area Area, in string) string {
	t.Helper()
	dc, err := area.Decode(json.RawMessage(in))
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	got, err := area.Reference(dc)
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return string(b)
}

// A case, an answer and a case file are each one JSON value: anything after it is refused, a
// closing bracket as much as a second value.
func TestOneJSONValueOnly(t *testing.T) {
	for _, tail := range []string{` ["b"]`, `]`, "\n}"} {
		_, err := Chunk.DecodeAnswer(json.RawMessage(`["a"]` + tail))
		wantField(t, "the answer ending "+tail, err, "", "more follows the JSON value")
	}
	_, err := ParseFile("chunk.json", []byte(`{"about": "x", "cases": []}`+"\n]\n"), Chunk)
	var le *LoadError
	if !errors.As(err, &le) || le.File != "chunk.json" || !strings.Contains(le.Msg, "line 2: more follows the JSON value") {
		t.Errorf("a case file with a ] after it: got %v, want a LoadError of chunk.json saying line 2: more follows the JSON value", err)
	}
}
