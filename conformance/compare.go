package conformance

import (
	"bytes"
	"encoding/json"

	"reflect"

	"github.com/LLeMbas/lembas-check/internal/textdiff"
)

// Value decodes a JSON text to plain Go values (numbers as float64), the form answers are
// compared in: key order, spacing and number spelling (1 and 1.0) do not count.
func Value(raw []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func equalJSON(a, b []byte) bool {
	va, err1 := Value(a)
	vb, err2 := Value(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(va, vb)
}

// Diff compares an expectation with an answer: "" when they are the same JSON, else
// textdiff.Values' report in its (-want +got) form: the two as indented JSON, line by line.
//
// Two texts are the same JSON exactly when their RFC 8785 forms are the same bytes (numbers are
// doubles in both, keys unordered, escapes and spacing do not count), so those are compared
// first and the report, which costs many times more, only says a difference there is.
func Diff(want, got []byte) string {
	if sameJSON(want, got) {
		return ""
	}
	vw, err := Value(want)
	if err != nil {
		return "the expectation is not JSON: " + err.Error()
	}
	vg, err := Value(got)
	if err != nil {
		return "the answer is not JSON: " + err.Error()
	}
	return textdiff.Values(vw, vg)
}

// sameJSON says want and got are one JSON value: the same bytes, or the same canonical form. A
// text that is not one JSON value is never the same; Diff then says why.
func sameJSON(want, got []byte) bool {
	cw, known, err := canonicalWant(want)
	if err != nil {
		return false
	}
	if bytes.Equal(want, got) || known != "" && string(got) == known {
		return true
	}
	cg, err := Canonical(got)
	return err == nil && string(cg) == cw
}

// canonicalWant is an expectation's canonical form, and for an embedded one the table's form
// and the answer bytes known to be the same JSON ("" for none).
func canonicalWant(want []byte) (canonical, known string, err error) {
	if e, ok := embeddedExpectOf(want); ok {
		return e.canonical, e.answer, nil
	}
	c, err := Canonical(want)
	return string(c), "", err
}
