package conformance

import (
	"encoding/json"
	"sync"
	"unsafe"
)

//go:generate go test -run ^TestEmbeddedTable$ -update .
//go:generate go test -run ^TestMapFresh$ -update ./coverage

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
	// answer is the builtin's answer as runner.Builtin writes it (jsonx.Marshal of the
	// reference's value) when the table was made, if it is the same JSON as expect, else "": Diff
	// takes an answer of these very bytes as the same without canonicalising it.
	answer string
}

// Embedded is the embedded suites' cases (EmbeddedSuites: the vendored spec's and lembas-check's
// own), as Load(EmbeddedSuites(), All()) reads them, in the same order, each with its id, file,
// line, canonical input and expectation as written; Decoded is left for Case.Decode. Input and
// Expect are the table's own bytes, read-only: copying them was 282 kB, a page fault in every
// 4 kB, at every run.
func Embedded() []Case {
	out := make([]Case, len(embeddedCases))
	for i, e := range embeddedCases {
		out[i] = Case{
			Label:  Label{ID: e.id, Area: e.area, Index: e.index, File: e.file, Line: e.line, About: e.about},
			Input:  tableBytes(e.input),
			Expect: tableBytes(e.expect),
		}
	}
	return out
}

// tableBytes is s's bytes, not copied; its capacity is its length, so an append copies them. An
// empty s is an empty slice, not nil, as the conversion made it.
func tableBytes(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage{}
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// embeddedExpect is what the table knows of an embedded expectation: its canonical form and an
// answer known to be the same JSON ("" for none).
type embeddedExpect struct{ canonical, answer string }

// embeddedCanonical is each embedded expectation's canonical form and known answer by its text:
// Diff compares an answer with an expectation's canonical form, and the embedded ones were made
// with the table.
var embeddedCanonical = sync.OnceValue(func() map[string]embeddedExpect {
	m := make(map[string]embeddedExpect, len(embeddedCases))
	for _, e := range embeddedCases {
		// Two cases of one expectation's text: either answer is the same JSON as it.
		m[e.expect] = embeddedExpect{e.canonical, e.answer}
	}
	return m
})

// tableAt is the places in the table of each table string of one field, by the address of its
// bytes: an embedded case's Input and Expect are those very bytes (Embedded), so they are found
// without hashing their text (the maps by text hashed the table's 680 kB twice at every run).
// The linker may make two equal strings one: a place holds every case of it.
func tableAt(field func(embeddedCase) string) map[*byte][]int {
	m := make(map[*byte][]int, len(embeddedCases))
	for i, e := range embeddedCases {
		if s := field(e); s != "" {
			m[unsafe.StringData(s)] = append(m[unsafe.StringData(s)], i)
		}
	}
	return m
}

func inputOf(e embeddedCase) string  { return e.input }
func expectOf(e embeddedCase) string { return e.expect }

var (
	inputAt  = sync.OnceValue(func() map[*byte][]int { return tableAt(inputOf) })
	expectAt = sync.OnceValue(func() map[*byte][]int { return tableAt(expectOf) })
)

// tablePlaces is where b lies in the table, if its bytes are a table string's of that field.
func tablePlaces(at map[*byte][]int, field func(embeddedCase) string, b []byte) []int {
	if len(b) == 0 {
		return nil
	}
	places := at[&b[0]]
	if len(places) > 0 && len(field(embeddedCases[places[0]])) != len(b) {
		return nil
	}
	return places
}

// embeddedExpectOf is what the table knows of an expectation: by its bytes' address when they are
// the table's, else by its text (an expectation read from a file may be an embedded one's).
func embeddedExpectOf(want []byte) (embeddedExpect, bool) {
	if p := tablePlaces(expectAt(), expectOf, want); len(p) > 0 {
		e := embeddedCases[p[0]]
		return embeddedExpect{e.canonical, e.answer}, true
	}
	e, ok := embeddedCanonical()[string(want)]
	return e, ok
}

// embeddedIndex is the places in the table of each embedded input text (several areas' cases may
// share one): Case.Decode gives an embedded input the value embeddedDecoded makes, which is what
// the area's Decode made of these very bytes (checks passed) when the table was written.
var embeddedIndex = sync.OnceValue(func() map[string][]int {
	m := make(map[string][]int, len(embeddedCases))
	for i, e := range embeddedCases {
		m[e.input] = append(m[e.input], i)
	}
	return m
})

// embeddedValue is the decoded input of the embedded case of this area and input, if it is one.
// The table's own bytes are found by their address, any other by their text.
func embeddedValue(area string, input []byte) (any, bool) {
	if v, ok := decodedAt(area, tablePlaces(inputAt(), inputOf, input)); ok {
		return v, true
	}
	return decodedAt(area, embeddedIndex()[string(input)])
}

func decodedAt(area string, places []int) (any, bool) {
	for _, i := range places {
		if embeddedCases[i].area == area && i < len(embeddedDecoded) {
			return embeddedDecoded[i](), true
		}
	}
	return nil, false
}
