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

// embeddedCases are the embedded suites' cases of an area (the spec's and lembas-check's).
func embeddedCases(t testing.TB, area Area) []Case {
	t.Helper()
	cases, err := EmbeddedCases(area.Name)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// wantField checks err is a FieldError naming field, whose message says want.
func wantField(t *testing.T, name string, err error, field, want string) {
	t.Helper()
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != field || !strings.Contains(fe.Msg, want) {
		t.Errorf("%s: got %v, want field %q saying …%s…", name, err, field, want)
	}
}

// caseInputs are the canonical inputs of an area's case file in a suite, as fuzz seeds.
func caseInputs(t testing.TB, fsys fs.FS, area Area) [][]byte {
	t.Helper()
	b, err := fs.ReadFile(fsys, area.Name+".json")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := ParseFile(area.Name+".json", b, area)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, c := range cases {
		out = append(out, c.Input)
	}
	return out
}

// fuzzAnswer is what every area's fuzz target asks of one input: decoding it never panics, nor
// the reference on a case that decodes, and the answer decodes as an answer. An area whose
// reference may refuse a case that decodes (an id no step gave) says mayRefuse. It returns the
// case and the answer, or ok false when the input is no case or the reference refused it.
func fuzzAnswer(t *testing.T, area Area, in []byte, mayRefuse bool) (c, got any, ok bool) {
	t.Helper()
	c, err := area.Decode(in)
	if err != nil {
		return nil, nil, false
	}
	got, err = area.Reference(c)
	if err != nil {
		if mayRefuse {
			return nil, nil, false
		}
		t.Fatalf("a case that decodes has no answer: %v", err)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("the answer does not marshal: %v", err)
	}
	if _, err := area.DecodeAnswer(b); err != nil {
		t.Fatalf("answer %s is not an answer: %v", b, err)
	}
	return c, got, true
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
