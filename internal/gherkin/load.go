// Package gherkin runs lembas-check's Gherkin features (internal/gherkin/features/*.feature) against
// any runner.Target. Each scenario's steps build one case of its area — Givens set the case's
// fields, Whens add its op or steps, Thens say what the spec fixes of the answer — and the case is
// sent to the target once, after the last When; each Then then checks its part of the answer. The
// steps never compute an answer: a scenario runs unchanged against the builtin reference and
// against an adapter.
//
// cucumber's Gherkin parser (github.com/cucumber/gherkin/go) reads the features into pickles;
// this package runs each pickle's steps through its area's vocabulary (conformance.Area's Steps,
// package internal/gherkin/steps), so a line no step knows fails with that vocabulary. godog is not
// used: linking it ran `go env GOTOOLDIR` at every lembas-check start (docs/design.md).
package gherkin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	pathpkg "path"
	"strings"
	"sync/atomic"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"
)

// Scenario is one scenario (one row of a Scenario Outline's Examples) made into a case.
type Scenario struct {
	// Case is what the target is sent: ID `<area>/feature:<slug>`, File `<dir>/<area>.feature:<line>`,
	// About the scenario's name, Input the case the steps built, Expect the Thens (as JSON).
	Case   conformance.Case
	Checks []steps.Check
	// Err is why the scenario could not be made into a case (a step no vocabulary knows, a bad
	// argument, a case the area refuses): the scenario's verdict is error, with this message.
	Err error
}

// FeatureError is a feature file the runner cannot use at all: not Gherkin, of no area, or two
// scenarios with one id.
type FeatureError struct {
	File string
	Msg  string
}

func (e *FeatureError) Error() string { return e.File + ": " + e.Msg }

//go:generate go test -run ^TestEmbeddedScenarioTable$ -update .

// Embedded is the features embedded in the binary (internal/gherkin/features), as Load(features.FS,
// "features") makes them. They were parsed and their steps run when lembas-check was built
// (embedded_scenarios.go, checked fresh by TestEmbeddedScenarioTable): parsing them with
// cucumber's parser and building each case was three quarters of `run --features`. Each case is
// decoded by its area only when the builtin answers it (conformance.Case.Decode).
func Embedded() ([]Scenario, error) { return embeddedScenarios(), nil }

// parses counts the features parsed (parseFeatures), for the test that the embedded ones are not.
var parses atomic.Int64

// LoadDir is `--features [DIR]`: the embedded features when dir is "", else that folder's
// <area>.feature files; its errors name the flag.
func LoadDir(dir string) ([]Scenario, error) {
	var scs []Scenario
	var err error
	if dir == "" {
		scs, err = Embedded()
	} else {
		st, serr := os.Stat(dir)
		switch {
		case serr != nil:
			return nil, fmt.Errorf("--features %s: %v", dir, serr)
		case !st.IsDir():
			return nil, fmt.Errorf("--features %s: not a directory (give the folder holding <area>.feature files)", dir)
		}
		scs, err = Load(os.DirFS(dir), strings.TrimRight(dir, "/"))
	}
	if err != nil {
		return nil, fmt.Errorf("--features: %v", err)
	}
	return scs, nil
}

// Load makes every scenario of the `<area>.feature` files in fsys (walked from its root) into a
// case. name is how messages and File name the folder ("features", or the directory given).
func Load(fsys fs.FS, name string) ([]Scenario, error) {
	feats, err := parseFeatures(fsys, name)
	if err != nil {
		return nil, err
	}
	idx, err := index(feats, name)
	if err != nil {
		return nil, err
	}
	out := make([]Scenario, 0, len(idx.order))
	for _, f := range feats {
		for _, p := range f.pickles {
			out = append(out, buildScenario(idx.pickles[p.Id], idx.lines, p.Steps))
		}
	}
	return out, nil
}

// readError is what reading the features (n of them) found wrong, for the person who named
// them: the reader's error (a parse error is "not Gherkin"), or no feature with a scenario.
func readError(name string, n int, err error) error {
	if err != nil {
		msg := strings.TrimSpace(err.Error())
		if strings.Contains(msg, "Parser errors") {
			msg = "not Gherkin: " + msg
		} else {
			msg = "cannot read the features: " + msg
		}
		return &FeatureError{File: name, Msg: msg}
	}
	if n == 0 {
		return &FeatureError{File: name, Msg: "no <area>.feature file with a scenario"}
	}
	return nil
}

// parseFeatures parses every .feature file under fsys's root, in lexical order, into its
// document and pickles (a scenario each, an Outline a scenario per Examples row), with
// cucumber's own parser. A file without a scenario is left out, as godog leaves it out.
func parseFeatures(fsys fs.FS, name string) ([]parsedFeature, error) {
	parses.Add(1)
	newID := (&messages.Incrementing{}).NewId
	var feats []parsedFeature
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".feature") {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(src), newID)
		if err != nil {
			return fmt.Errorf("%s - %v", p, err)
		}
		doc.Uri = p
		pickles := gherkin.Pickles(*doc, p, newID)
		if doc.Feature != nil && len(pickles) > 0 {
			feats = append(feats, parsedFeature{doc: doc, pickles: pickles})
		}
		return nil
	})
	if err := readError(name, len(feats), err); err != nil {
		return nil, err
	}
	return feats, nil
}

// buildScenario runs a pickle's steps, in order, through its area's vocabulary and makes the
// case they built. The first step that fails is the scenario's error; the steps after it are not
// run.
func buildScenario(m pickleMeta, lines map[string]int, pickleSteps []*messages.PickleStep) (sc Scenario) {
	if len(pickleSteps) == 0 {
		return Scenario{Case: m.caseShell(),
			Err: fmt.Errorf("%s: scenario %q has no steps: Givens and Whens build its case, Thens say what the spec "+
				"expects", m.where(), m.name)}
	}
	area, _ := conformance.ByName(m.area) // index has checked it has a vocabulary
	b := area.Steps.Begin(m.area)
	defer func() {
		// A step's panic is a bug of the vocabulary, not of the feature: it is this scenario's
		// error, and the other scenarios still run.
		if r := recover(); r != nil {
			sc = Scenario{Case: m.caseShell(), Checks: b.Checks(), Err: fmt.Errorf("%s: a step panicked: %v", m.where(),
				r)}
		}
	}()
	for _, s := range pickleSteps {
		if err := runStep(b, m, lines, s); err != nil {
			return Scenario{Case: m.caseShell(), Checks: b.Checks(), Err: err}
		}
	}
	return finish(m, b)
}

// runStep hands one step, with its docstring or table, to the scenario's build. Its error names
// the file, the step's line and the step as written.
func runStep(b *steps.Build, m pickleMeta, lines map[string]int, s *messages.PickleStep) error {
	line := 0
	if len(s.AstNodeIds) > 0 {
		line = lines[s.AstNodeIds[0]]
	}
	var arg steps.Arg
	if s.Argument != nil {
		if d := s.Argument.DocString; d != nil {
			arg.Doc, arg.Media = &d.Content, d.MediaType
		}
		if t := s.Argument.DataTable; t != nil {
			arg.Table = make([][]string, 0, len(t.Rows))
			for _, r := range t.Rows {
				cells := make([]string, 0, len(r.Cells))
				for _, c := range r.Cells {
					cells = append(cells, c.Value)
				}
				arg.Table = append(arg.Table, cells)
			}
		}
	}
	k := kindOf(s.Type)
	if err := b.Step(k, s.Text, line, arg); err != nil {
		return fmt.Errorf("%s:%d: %s: %w", m.file(), line, k.String()+" "+s.Text, err)
	}
	return nil
}

// kindOf is a pickle step's keyword (And and But already carry the one before them's).
func kindOf(t messages.PickleStepType) steps.Kind {
	switch t {
	case messages.PickleStepType_CONTEXT:
		return steps.Given
	case messages.PickleStepType_ACTION:
		return steps.When
	case messages.PickleStepType_OUTCOME:
		return steps.Then
	}
	return steps.Any
}

// pickleMeta is what the runner knows of one pickle before its steps run.
type pickleMeta struct {
	dir, uri, area, name string
	line                 int // the scenario's line, or its Examples row's
	index                int // the scenario's place in its file, from 0
	id                   string
}

func (m pickleMeta) file() string  { return m.dir + "/" + m.uri }
func (m pickleMeta) where() string { return fmt.Sprintf("%s:%d", m.file(), m.line) }

func (m pickleMeta) caseShell() conformance.Case {
	return conformance.Case{Label: conformance.Label{ID: m.id, Area: m.area, Index: m.index, File: m.where(),
		Line: m.line, About: m.name}, Input: json.RawMessage("{}"), Expect: json.RawMessage("[]")}
}

type featureIndex struct {
	pickles map[string]pickleMeta
	order   []string       // pickle ids in file order
	lines   map[string]int // step AST id → line
}

// index reads the parsed features: each pickle's area, id and line, and every step's line.
// A file of no area, or two scenarios of one id, is a *FeatureError.
func index(feats []parsedFeature, dir string) (*featureIndex, error) {
	idx := &featureIndex{pickles: map[string]pickleMeta{}, lines: map[string]int{}}
	known := Areas()
	byID := map[string]pickleMeta{}
	for _, f := range feats {
		uri := f.doc.Uri
		file := dir + "/" + uri
		area := strings.TrimSuffix(pathpkg.Base(uri), ".feature")
		if a, ok := conformance.ByName(area); !ok || a.Steps == nil {
			msg := fmt.Sprintf("no area %q with steps: a feature file is named <area>.feature, one of %s", area,
				strings.Join(known, ", "))
			if ok {
				msg = fmt.Sprintf("area %q has no step vocabulary yet (the areas with one: %s)", area,
					strings.Join(known, ", "))
			}
			return nil, &FeatureError{File: file, Msg: msg}
		}
		scenarios, rows := map[string]*messages.Scenario{}, map[string]int{}
		walkDoc(f.doc, func(sc *messages.Scenario) {
			scenarios[sc.Id] = sc
			n := 0
			for _, ex := range sc.Examples {
				for _, r := range ex.TableBody {
					n++
					rows[r.Id] = n
					idx.lines[r.Id] = int(r.Location.Line)
				}
			}
		}, func(s *messages.Step) { idx.lines[s.Id] = int(s.Location.Line) })
		order := map[string]int{}
		for _, p := range f.pickles {
			sc := scenarios[p.AstNodeIds[0]]
			if sc == nil {
				return nil, &FeatureError{File: file, Msg: fmt.Sprintf("scenario %q: not found in the parsed file",
					p.Name)}
			}
			if _, seen := order[sc.Id]; !seen {
				order[sc.Id] = len(order)
			}
			m := pickleMeta{dir: dir, uri: uri, area: area, name: p.Name, line: int(sc.Location.Line),
				index: order[sc.Id]}
			slug := Slug(sc.Name)
			if slug == "" {
				return nil, &FeatureError{File: fmt.Sprintf("%s:%d", file, m.line),
					Msg: "a scenario needs a name with a letter or digit: its id is made from it"}
			}
			if len(p.AstNodeIds) > 1 {
				row := p.AstNodeIds[1]
				m.line = idx.lines[row]
				slug += ":" + itoa(rows[row])
			}
			m.id = area + "/feature:" + slug
			if prev, dup := byID[m.id]; dup {
				return nil, &FeatureError{File: m.where(),
					Msg: fmt.Sprintf("scenario %q has the id %s, as the one at line %d has: give one of them another "+
						"name", p.Name, m.id, prev.line)}
			}
			byID[m.id] = m
			idx.pickles[p.Id] = m
			idx.order = append(idx.order, p.Id)
		}
	}
	return idx, nil
}

// parsedFeature is one parsed file: its document and its pickles.
type parsedFeature struct {
	doc     *messages.GherkinDocument
	pickles []*messages.Pickle
}

// walkDoc visits every scenario and every step (backgrounds' too) of a document.
func walkDoc(doc *messages.GherkinDocument, onScenario func(*messages.Scenario), onStep func(*messages.Step)) {
	if doc.Feature == nil {
		return
	}
	visitBg := func(bg *messages.Background) {
		for _, s := range bg.Steps {
			onStep(s)
		}
	}
	visitSc := func(sc *messages.Scenario) {
		onScenario(sc)
		for _, s := range sc.Steps {
			onStep(s)
		}
	}
	for _, c := range doc.Feature.Children {
		switch {
		case c.Background != nil:
			visitBg(c.Background)
		case c.Scenario != nil:
			visitSc(c.Scenario)
		case c.Rule != nil:
			for _, rc := range c.Rule.Children {
				if rc.Background != nil {
					visitBg(rc.Background)
				}
				if rc.Scenario != nil {
					visitSc(rc.Scenario)
				}
			}
		}
	}
}

var nonSlug = lazyre.New(`[^a-z0-9]+`)

// Slug is a scenario name as its id writes it: lowercase ASCII letters and digits, every other
// run of characters one `-`.
func Slug(name string) string {
	return strings.Trim(nonSlug().ReplaceAllString(strings.ToLower(name), "-"), "-")
}

// Areas lists the areas that have a step vocabulary (their conformance.Area's Steps), sorted.
func Areas() []string {
	var out []string
	for _, a := range conformance.All() {
		if a.Steps != nil {
			out = append(out, a.Name)
		}
	}
	return out
}

// finish makes the built case: strictly decoded by its area, as a case file's would be.
func finish(m pickleMeta, b *steps.Build) Scenario {
	sc := Scenario{Case: m.caseShell(), Checks: b.Checks()}
	if len(sc.Checks) == 0 {
		sc.Err = fmt.Errorf("%s: scenario %q has no Then: a scenario says what the spec expects with at least one Then",
			m.where(), m.name)
		return sc
	}
	obj, err := b.Case()
	if err != nil {
		sc.Err = fmt.Errorf("%s: scenario %q: %v", m.where(), m.name, err)
		return sc
	}
	raw, err := jsonx.Marshal(obj)
	if err == nil {
		raw, err = conformance.Canonical(raw)
	}
	if err != nil {
		sc.Err = fmt.Errorf("%s: scenario %q: the case cannot be written as JSON: %v", m.where(), m.name, err)
		return sc
	}
	area, ok := conformance.ByName(m.area)
	if !ok {
		sc.Err = fmt.Errorf("%s: area %s is not in lembas-check's registry", m.where(), m.area)
		return sc
	}
	decoded, err := area.Decode(raw)
	if err != nil {
		sc.Err = fmt.Errorf("%s: scenario %q built a case area %s refuses: %v\n  the case: %s", m.where(), m.name,
			m.area, err, raw)
		return sc
	}
	sc.Case.Input, sc.Case.Decoded = raw, decoded
	exp, err := jsonx.Marshal(sc.Checks)
	if err != nil {
		sc.Err = err
		return sc
	}
	sc.Case.Expect = exp
	return sc
}
