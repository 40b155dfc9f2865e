package conformance

import (
	"encoding/json"
	"sync"
)

//go:generate go test -run ^TestEmbeddedTable$ -update .

// embeddedCase is one case of the embedded suites as Load reads them. The table of them
// (embedded_cases.go) is written by `go generate` and checked fresh by TestEmbeddedTable: a run
// of the embedded suite parses no JSON to list, select or send a case, and a case is decoded by
// its area only when the builtin answers it (Case.Decode), so `run --area jobs` decodes only the
// jobs cases.
type embeddedCase struct {
	id, area             string
	index                int
	file                 string
	line                 int
	about, input, expect string
	// canonical is expect's RFC 8785 form, for Diff.
	canonical string
}

// Embedded is the embedded suites' cases (EmbeddedSuites: the vendored spec's and lembas-check's
// own), as Load(EmbeddedSuites(), All()) reads them, in the same order, each with its id, file,
// line, canonical input and expectation as written; Decoded is left for Case.Decode.
func Embedded() []Case {
	out := make([]Case, len(embeddedCases))
	for i, e := range embeddedCases {
		out[i] = Case{
			Label:  Label{ID: e.id, Area: e.area, Index: e.index, File: e.file, Line: e.line, About: e.about},
			Input:  json.RawMessage(e.input),
			Expect: json.RawMessage(e.expect),
		}
	}
	return out
}

// embeddedCanonical is each embedded expectation's canonical form by its text: Diff compares an
// answer with an expectation's canonical form, and the embedded ones were made with the table.
var embeddedCanonical = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(embeddedCases))
	for _, e := range embeddedCases {
		m[e.expect] = e.canonical
	}
	return m
})

// embeddedInputs is each embedded case's input by its text, with its area ("" for a text two
// areas share): Case.Decode knows these passed their area's checks.
var embeddedInputs = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(embeddedCases))
	for _, e := range embeddedCases {
		if a, seen := m[e.input]; seen && a != e.area {
			m[e.input] = ""
			continue
		}
		m[e.input] = e.area
	}
	return m
})
