package coverage

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

//go:generate go test -run ^TestMapFresh$ -update .

// Entry is one statement of the map and what checks it: the cases, or why none does.
type Entry struct {
	File    string   `json:"file"`
	Line    int      `json:"line"`
	Heading string   `json:"heading"`
	Text    string   `json:"text"`
	Cases   []string `json:"cases"`
	Reason  string   `json:"reason,omitempty"`
}

// Todo says the entry is a statement a case could check and none does yet.
func (e Entry) Todo() bool { return len(e.Cases) == 0 && strings.HasPrefix(e.Reason, "todo:") }

// Informative says the entry is a sentence the rule finds that states no rule: where the spec's
// texts are, its history, the why of a rule beside it. It is not counted among the rules.
func (e Entry) Informative() bool {
	return len(e.Cases) == 0 && strings.HasPrefix(e.Reason, "informative:")
}

// kind is the one place an entry is sorted into covered, todo, informative or reasoned.
func (e Entry) kind() string {
	switch {
	case len(e.Cases) > 0:
		return "covered"
	case e.Todo():
		return "todo"
	case e.Informative():
		return "informative"
	}
	return "reasoned"
}

// Map is the coverage map as map.json holds it, pinned to the spec files it was made from.
type Map struct {
	Spec string `json:"spec"`
	Rule string `json:"rule"`
	// Files are the SHA-256 of each file a statement comes from, as MANIFEST.sha256 pins it.
	Files      map[string]string `json:"files"`
	Statements []Entry           `json:"statements"`
}

//go:embed map.json
var mapJSON []byte

//go:embed reasons.json
var reasonsJSON []byte

// Load is the checked-in map.
var Load = sync.OnceValue(func() *Map {
	var m Map
	if err := json.Unmarshal(mapJSON, &m); err != nil {
		panic("conformance/coverage/map.json: " + err.Error())
	}
	return &m
})

// Build makes the map from the vendored spec, the embedded cases and reasons.json: what map.json
// must hold.
func Build() (*Map, error) {
	stmts, err := Extract(spec.Files)
	if err != nil {
		return nil, err
	}
	var r struct {
		Reasons map[string]string `json:"reasons"`
	}
	if err := json.Unmarshal(reasonsJSON, &r); err != nil {
		return nil, fmt.Errorf("conformance/coverage/reasons.json: %v", err)
	}
	links := Link(stmts, conformance.Embedded())
	sums := map[string]string{}
	for _, e := range spec.Manifest() {
		sums[e.Path] = e.SHA256
	}
	m := &Map{Spec: spec.Version(), Rule: Rule, Files: map[string]string{}}
	for i, s := range stmts {
		e := Entry{File: s.File, Line: s.Line, Heading: s.Heading, Text: s.Text, Cases: links[i]}
		if e.Cases == nil {
			e.Cases = []string{}
			e.Reason = reasonFor(r.Reasons, s)
		}
		m.Files[s.File] = sums[s.File]
		m.Statements = append(m.Statements, e)
	}
	return m, nil
}

// reasonFor is the most specific reason for a statement: file:line, file#heading, file, then its
// folder.
func reasonFor(reasons map[string]string, s Statement) string {
	for _, k := range []string{fmt.Sprintf("%s:%d", s.File, s.Line), s.File + "#" + s.Heading, s.File,
		strings.SplitN(s.File, "/", 2)[0]} {
		if r, ok := reasons[k]; ok {
			return r
		}
	}
	return ""
}

// Marshal is the map as map.json holds it.
func (m *Map) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(m)
	return b.Bytes(), err
}

// Summary is how much of the map is covered.
type Summary struct {
	Statements int `json:"statements"`
	// Covered have a case; Reasoned have a reason no case can check them; Todo could be checked
	// and are not; Informative state no rule and are left out of the share.
	Covered, Reasoned, Todo, Informative int
}

// Rules is the statements that state a rule: all but the informative ones.
func (s Summary) Rules() int { return s.Statements - s.Informative }

// Percent is the share of rules covered by a case, in tenths of a percent cut down.
func (s Summary) Percent() float64 {
	if s.Rules() == 0 {
		return 0
	}
	return float64(s.Covered*1000/s.Rules()) / 10
}

// Line is the figure in one line, as README and run's markdown summary say it.
func (s Summary) Line() string {
	return fmt.Sprintf("%d of %d normative statements of the spec (%.1f %%) are checked by a case; %d more cannot be "+
		"by any target (reasons given); %d could be and are not yet; %d sentences more state no rule (informative)",
		s.Covered, s.Rules(), s.Percent(), s.Reasoned, s.Todo, s.Informative)
}

// Summarize counts the map's entries.
func (m *Map) Summarize() Summary {
	s := Summary{Statements: len(m.Statements)}
	for _, e := range m.Statements {
		switch e.kind() {
		case "covered":
			s.Covered++
		case "todo":
			s.Todo++
		case "informative":
			s.Informative++
		default:
			s.Reasoned++
		}
	}
	return s
}

// byCase is each case id's statements.
var byCase = sync.OnceValue(func() map[string][]Entry {
	out := map[string][]Entry{}
	for _, e := range Load().Statements {
		for _, id := range e.Cases {
			out[id] = append(out[id], e)
		}
	}
	return out
})

// ForCase is the statements a case checks, in the map's order (none for a case the map does
// not tie to one).
func ForCase(id string) []Entry { return byCase()[id] }
