// Package conformancetest holds what the areas' fuzz tests share, as net/http/httptest does for
// handlers: the embedded cases of an area as seeds, and the check every area's reference must
// pass on any input.
package conformancetest

import (
	"encoding/json"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

// Seed adds the inputs of the area's embedded cases (the spec's and lembas-check's) to f's corpus.
func Seed(f *testing.F, area conformance.Area) {
	f.Helper()
	for _, c := range Cases(f, area) {
		f.Add([]byte(c.Input))
	}
}

// Answer is what every area's fuzz target asks of one input: decoding it never panics, nor the
// reference on a case that decodes, and the answer marshals to JSON the area decodes as an
// answer. An area whose reference may refuse a case that decodes (an id no step gave) says
// mayRefuse. It returns the answer as JSON, or ok false when the input is no case or the
// reference refused it.
func Answer(t *testing.T, area conformance.Area, in []byte, mayRefuse bool) (answer []byte, ok bool) {
	t.Helper()
	c, err := area.Decode(in)
	if err != nil {
		return nil, false
	}
	got, err := area.Reference(c)
	if err != nil {
		if mayRefuse {
			return nil, false
		}
		t.Fatalf("a case that decodes has no answer: %v", err)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("the answer does not marshal: %v", err)
	}
	if _, err := area.DecodeAnswer(b); err != nil {
		t.Fatalf("the reference's answer %s is not an answer: %v", b, err)
	}
	return b, true
}

// StepAnswers checks an answer to a case of steps (context, prefix) answers each step: a list as
// long as the case's steps.
func StepAnswers(t *testing.T, in, answer []byte) {
	t.Helper()
	var c struct{ Steps []json.RawMessage }
	var a []json.RawMessage
	if err := json.Unmarshal(in, &c); err != nil {
		t.Fatalf("a case that decodes is not a JSON object with steps: %v", err)
	}
	if err := json.Unmarshal(answer, &a); err != nil || len(a) != len(c.Steps) {
		t.Fatalf("%d answers for %d steps (%v)", len(a), len(c.Steps), err)
	}
}

// Cases are the area's embedded cases (the spec's and lembas-check's).
func Cases(t testing.TB, area conformance.Area) []conformance.Case {
	t.Helper()
	cases, err := conformance.EmbeddedCases(area.Name)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// All are the embedded cases of every area.
func All(t testing.TB) []conformance.Case {
	t.Helper()
	return conformance.Embedded()
}
