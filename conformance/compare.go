package conformance

import (
	"bytes"
	"encoding/json"

	"github.com/google/go-cmp/cmp"
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
	return err1 == nil && err2 == nil && cmp.Equal(va, vb)
}

// Diff compares an expectation with an answer: "" when they are the same JSON, else go-cmp's
// report in its (-want +got) form. Strings of several lines are diffed line by line.
func Diff(want, got []byte) string {
	vw, err := Value(want)
	if err != nil {
		return "the expectation is not JSON: " + err.Error()
	}
	vg, err := Value(got)
	if err != nil {
		return "the answer is not JSON: " + err.Error()
	}
	return cmp.Diff(vw, vg)
}
