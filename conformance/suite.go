package conformance

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Suite is a folder of case files named `<area>.json`, each in the spec's format
// `{"about": …, "cases": [...]}`.
type Suite struct {
	// Name says where the suite comes from in messages: "spec", "lembas-check" or a directory.
	Name string
	FS   fs.FS
}

//go:embed cases
var ownCases embed.FS

// EmbeddedSuites are the vendored spec's conformance cases and lembas-check's own.
func EmbeddedSuites() []Suite {
	own, err := fs.Sub(ownCases, "cases")
	if err != nil {
		panic(err)
	}
	return []Suite{
		{Name: "spec " + spec.Version(), FS: spec.Conformance()},
		{Name: "lembas-check", FS: own},
	}
}

// EmbeddedCases is the embedded suites' cases of one area: for an area's own tests and fuzz seeds.
func EmbeddedCases(area string) ([]Case, error) {
	var out []Case
	for _, c := range Embedded() {
		if c.Area == area {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no embedded case of area %q", area)
	}
	return out, nil
}

// Case is one case of a suite, ready to hand to a target.
type Case struct {
	Label
	// Input is the case without "expect", canonical (RFC 8785): what a target is sent.
	Input json.RawMessage `json:"case"`
	// Expect is the case's expected answer.
	Expect json.RawMessage `json:"expect"`
	// Decoded is Input decoded by the area, for the builtin target.
	Decoded any `json:"-"`
	// Broken is why the case (or its whole file) could not be read, when it could not: such a
	// case is never sent, and its verdict is error naming the file and line (Keep loads them).
	Broken *LoadError `json:"-"`
}

// Label is what names a case wherever it is listed or reported (`lembas-check list`, a run's
// JSON lines): which it is, where it stands, what it is about.
type Label struct {
	// ID is `<area>/<first 8 hex of the SHA-256 of the case's RFC 8785 form without "expect">`:
	// stable across re-indenting, reordering and moving the case within its file.
	ID    string `json:"id"`
	Area  string `json:"area"`
	Index int    `json:"index"`
	// File names the suite and file the case came from; Line is the line the case starts on in it
	// (0: not known).
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"`
	About string `json:"about,omitempty"`
}

// Where says "file, case N" for messages.
func (c Case) Where() string {
	if c.Index < 0 {
		return c.File + " (the file itself)"
	}
	return fmt.Sprintf("%s, case %d", c.File, c.Index)
}

// Decode is the case as its area decodes it (Area.Decode, which checks it): Decoded from the
// load, or Input decoded now for a case made without it. An embedded case's input (these very
// bytes, of this area) was decoded and checked when the table was made: it is the Go value
// written then (embedded_decoded.go), and no JSON is read.
func (c Case) Decode() (any, error) {
	if c.Decoded != nil {
		return c.Decoded, nil
	}
	a, ok := ByName(c.Area)
	if !ok {
		return nil, fmt.Errorf("no area %q", c.Area)
	}
	if v, ok := embeddedValue(c.Area, c.Input); ok {
		return v, nil
	}
	return a.Decode(c.Input)
}

// LoadError is a suite the runner cannot use: a file that is not a case file, or a case that is
// malformed. It names the file, the case's index (-1 for the file itself) and the field.
type LoadError struct {
	File  string
	Index int
	// Line is the line of the file the fault is on (0: not known).
	Line  int
	Field string
	Msg   string
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Index >= 0 {
		fmt.Fprintf(&b, ": case %d", e.Index)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %s", e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// caseFile is the spec's case file format.
type caseFile struct {
	About string            `json:"about"`
	Cases []json.RawMessage `json:"cases"`
}

// Load reads every `<area>.json` of the suites, in suite order, then file name, then case order.
// A file of an area not in areas, or a malformed case, is a *LoadError. A case that two suites
// both hold (same id, same expectation) is kept once; the same id with another expectation is an
// error, since the two suites disagree on what the spec says.
func Load(suites []Suite, areas []Area) ([]Case, error) { return Extend(nil, suites, areas) }

// Extend is cases (Embedded(), say) followed by the suites' cases as Load reads them; a case of
// the suites that cases already holds is kept once, as Load keeps a case two suites hold. The
// first broken case or file is the error.
func Extend(cases []Case, suites []Suite, areas []Area) ([]Case, error) {
	out, err := Keep(cases, suites, areas)
	if err != nil {
		return nil, err
	}
	for _, c := range out {
		if c.Broken != nil {
			return nil, c.Broken
		}
	}
	return out, nil
}

// Keep is Extend that keeps going past a broken file or case: each is a case with Broken set
// (a file that cannot be read at all, one case of index -1), so that a run gives those an error
// verdict and runs the rest. An unreadable suite folder, or two suites disagreeing on a case's
// expectation, is still the error: no case can stand for it. With no suites the answer is cases
// itself.
func Keep(cases []Case, suites []Suite, areas []Area) ([]Case, error) {
	byName := map[string]Area{}
	var names []string
	for _, a := range areas {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	sort.Strings(names)
	if len(suites) == 0 {
		return cases, nil // nothing to check the cases against: the cases themselves, not a copy
	}
	out := append([]Case(nil), cases...)
	seen := map[string]Case{}
	for _, c := range cases {
		seen[c.ID] = c
	}
	for _, s := range suites {
		entries, err := fs.ReadDir(s.FS, ".")
		if err != nil {
			return nil, &LoadError{File: s.Name, Index: -1, Msg: fmt.Sprintf("cannot read the suite: %v", err)}
		}
		for _, e := range entries {
			if e.IsDir() || path.Ext(e.Name()) != ".json" {
				continue
			}
			file := s.Name + ":" + e.Name()
			for _, c := range readFile(s.FS, e.Name(), file, byName, names) {
				if prev, dup := seen[c.ID]; dup && c.Broken == nil {
					if equalJSON(prev.Expect, c.Expect) {
						continue
					}
					return nil, &LoadError{File: file, Index: c.Index, Line: c.Line, Field: "expect",
						Msg: fmt.Sprintf("the same case as %s (id %s) expects another answer", prev.Where(), c.ID)}
				}
				seen[c.ID] = c
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// readFile reads one case file of a suite: its cases, a broken one with Broken set, or one broken
// case standing for the whole file when it cannot be read.
func readFile(fsys fs.FS, name, file string, byName map[string]Area, names []string) []Case {
	areaName := strings.TrimSuffix(name, ".json")
	area, ok := byName[areaName]
	if !ok {
		return []Case{brokenFile(areaName, &LoadError{File: file, Index: -1,
			Msg: fmt.Sprintf("no area %q: a case file is named <area>.json, one of %s", areaName, strings.Join(names,
				", "))})}
	}
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return []Case{brokenFile(areaName, &LoadError{File: file, Index: -1, Msg: err.Error()})}
	}
	return parseFileKeep(file, b, area)
}

// brokenFile is the one case that stands for a file that cannot be read: its id is made from the
// file's name, so it is stable as long as the file is where it is.
func brokenFile(area string, le *LoadError) Case {
	return Case{Label: Label{ID: CaseID(area, []byte("file "+le.File)), Area: area, Index: -1, File: le.File,
		Line: le.Line, About: "the case file cannot be read"}, Broken: le}
}

// ParseFile reads one case file of an area; the first broken case, or the file itself, is the
// error.
func ParseFile(file string, b []byte, area Area) ([]Case, error) {
	cases := parseFileKeep(file, b, area)
	for _, c := range cases {
		if c.Broken != nil {
			return nil, c.Broken
		}
	}
	return cases, nil
}

// parseFileKeep reads one case file of an area, every case of it: a malformed case has Broken
// set (and its id from its text as written); a file that is not a case file is one broken case.
func parseFileKeep(file string, b []byte, area Area) []Case {
	var f caseFile
	if err := jsonx.Decode(b, &f); err != nil {
		fe := jsonFieldError(err).(*FieldError)
		le := &LoadError{File: file, Index: -1, Field: fe.Field}
		if se, ok := asSyntax(err); ok {
			line, col := lineCol(b, se.Offset)
			le.Line = line
			fe.Msg = fmt.Sprintf("not JSON at line %d, column %d: %s", line, col, se.Error())
		}
		le.Msg = fe.Msg + ` (a case file is {"about": "…", "cases": [ … ]})`
		return []Case{brokenFile(area.Name, le)}
	}
	lines := caseLines(b)
	var out []Case
	for i, raw := range f.Cases {
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		c, err := ParseCase(area, raw)
		if err != nil {
			le := &LoadError{File: file, Index: i, Line: line, Msg: err.Error()}
			if fe, ok := err.(*FieldError); ok {
				le.Field, le.Msg = fe.Field, fe.Msg
			}
			c = Case{Label: Label{ID: CaseID(area.Name, raw), Area: area.Name}, Broken: le}
		}
		c.Index, c.File, c.Line = i, file, line
		out = append(out, c)
	}
	return out
}

// caseLines is the line each case of a well-formed case file starts on, for reports that point
// at it (JUnit's line); nil when the file cannot be walked.
func caseLines(b []byte) []int {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "cases" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return nil
		}
		var lines []int
		for dec.More() {
			// The next value starts after the separator and space past the decoder's offset.
			off := dec.InputOffset()
			for off < int64(len(b)) && strings.IndexByte(" \t\r\n,", b[off]) >= 0 {
				off++
			}
			line, _ := lineCol(b, off)
			lines = append(lines, line)
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
		}
		return lines
	}
	return nil
}

// ParseCase splits one case object into its input and expectation, checks both with the area and
// gives the case its id.
func ParseCase(area Area, raw json.RawMessage) (Case, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return Case{}, &FieldError{Msg: "a case is a JSON object"}
	}
	expect, ok := obj["expect"]
	if !ok {
		return Case{}, &FieldError{Field: "expect", Msg: "missing: every case says what it expects"}
	}
	delete(obj, "expect")
	input, err := json.Marshal(obj)
	if err != nil {
		return Case{}, err
	}
	canon, err := Canonical(input)
	if err != nil {
		return Case{}, &FieldError{Msg: err.Error()}
	}
	decoded, err := area.Decode(canon)
	if err != nil {
		return Case{}, err
	}
	if _, err := area.DecodeAnswer(expect); err != nil {
		if fe, ok := err.(*FieldError); ok {
			return Case{}, &FieldError{Field: joinField("expect", fe.Field), Msg: fe.Msg}
		}
		return Case{}, &FieldError{Field: "expect", Msg: err.Error()}
	}
	var about string
	if a, ok := obj["about"]; ok {
		_ = json.Unmarshal(a, &about)
	}
	return Case{Label: Label{ID: CaseID(area.Name, canon), Area: area.Name, About: about}, Input: canon, Expect: expect,
		Decoded: decoded}, nil
}

// CaseID is `<area>/<first 8 hex of SHA-256 of canonical>`.
func CaseID(area string, canonical []byte) string {
	s := sha256.Sum256(canonical)
	return area + "/" + hex.EncodeToString(s[:4])
}

func joinField(a, b string) string {
	if b == "" {
		return a
	}
	if strings.HasPrefix(b, "[") {
		return a + b
	}
	return a + "." + b
}

func asSyntax(err error) (*json.SyntaxError, bool) {
	se, ok := err.(*json.SyntaxError)
	return se, ok
}

func lineCol(b []byte, off int64) (int, int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(b[:off], '\n')
	return line, col
}
