// Package gherkin runs lembas-check's Gherkin features (conformance/features/*.feature) against
// any runner.Target. Each scenario's steps build one case of its area — Givens set the case's
// fields, Whens add its op or steps, Thens say what the spec fixes of the answer — and the case is
// sent to the target once, after the last When; each Then then checks its part of the answer. The
// steps never compute an answer: a scenario runs unchanged against the builtin reference and
// against an adapter.
//
// godog parses the features and calls the steps; this package's one step definition is a
// catch-all that looks the line up in its area's vocabulary, so a line no step knows fails with
// that vocabulary rather than with godog's snippet.
package gherkin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	pathpkg "path"
	"regexp"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/features"
	"github.com/LLeMbas/lembas-check/conformance/steps"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/cucumber/godog"
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

// Embedded loads the features embedded in the binary (conformance/features).
func Embedded() ([]Scenario, error) { return Load(features.FS, "features") }

// godogMu serialises godog runs: a run's formatter and storage are set up per run, but nothing in
// godog promises two runs may overlap.
var godogMu sync.Mutex

// Load makes every scenario of the `<area>.feature` files in fsys (walked from its root) into a
// case. name is how messages and File name the folder ("features", or the directory given).
func Load(fsys fs.FS, name string) ([]Scenario, error) {
	godogMu.Lock()
	defer godogMu.Unlock()
	opts := &godog.Options{FS: fsys, Paths: []string{"."}, Output: io.Discard, Format: "progress", Strict: true, NoColors: true, Concurrency: 1}
	ts := godog.TestSuite{Name: "lembas-check features", Options: opts}
	feats, err := ts.RetrieveFeatures()
	if err != nil {
		msg := strings.TrimSpace(err.Error())
		if strings.Contains(msg, "Parser errors") {
			msg = "not Gherkin: " + msg
		} else {
			msg = "cannot read the features: " + msg
		}
		return nil, &FeatureError{File: name, Msg: msg}
	}
	if len(feats) == 0 {
		return nil, &FeatureError{File: name, Msg: "no <area>.feature file with a scenario"}
	}
	parsed := make([]parsedFeature, 0, len(feats))
	for _, f := range feats {
		parsed = append(parsed, parsedFeature{doc: f.GherkinDocument, pickles: f.Pickles})
	}
	idx, err := index(parsed, name)
	if err != nil {
		return nil, err
	}
	done := map[string]*state{}
	var mu sync.Mutex
	ts.ScenarioInitializer = func(sc *godog.ScenarioContext) {
		st := &state{}
		sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
			m := idx.pickles[p.Id]
			st.meta, st.lines = m, idx.lines
			area, _ := conformance.ByName(m.area)
			st.build = area.Steps.Begin(m.area)
			return ctx, nil
		})
		sc.StepContext().Before(func(ctx context.Context, s *godog.Step) (context.Context, error) {
			st.current = s
			return ctx, nil
		})
		sc.Step(`(?s)^(.*)$`, func(ctx context.Context, _ string) error { return st.dispatch() })
		sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
			if st.err == nil && err != nil {
				// Not a step's own error (those are kept in st.err): godog's, e.g. a panic.
				st.err = err
			}
			mu.Lock()
			done[p.Id] = st
			mu.Unlock()
			return ctx, nil
		})
	}
	ts.Run()
	out := make([]Scenario, 0, len(idx.order))
	for _, id := range idx.order {
		m := idx.pickles[id]
		st := done[id]
		if st == nil {
			// godog runs no hook for a scenario without steps.
			msg := "godog did not run this scenario"
			if m.steps == 0 {
				msg = fmt.Sprintf("scenario %q has no steps: Givens and Whens build its case, Thens say what the spec expects", m.name)
			}
			out = append(out, Scenario{Case: m.caseShell(), Err: fmt.Errorf("%s: %s", m.where(), msg)})
			continue
		}
		out = append(out, st.finish())
	}
	return out, nil
}

// pickleMeta is what the runner knows of one pickle before its steps run.
type pickleMeta struct {
	dir, uri, area, name string
	line                 int // the scenario's line, or its Examples row's
	index                int // the scenario's place in its file, from 0
	steps                int
	id                   string
}

func (m pickleMeta) file() string  { return m.dir + "/" + m.uri }
func (m pickleMeta) where() string { return fmt.Sprintf("%s:%d", m.file(), m.line) }

func (m pickleMeta) caseShell() conformance.Case {
	return conformance.Case{ID: m.id, Area: m.area, Index: m.index, File: m.where(), About: m.name, Input: json.RawMessage("{}"), Expect: json.RawMessage("[]")}
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
			msg := fmt.Sprintf("no area %q with steps: a feature file is named <area>.feature, one of %s", area, strings.Join(known, ", "))
			if ok {
				msg = fmt.Sprintf("area %q has no step vocabulary yet (the areas with one: %s)", area, strings.Join(known, ", "))
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
				return nil, &FeatureError{File: file, Msg: fmt.Sprintf("scenario %q: not found in the parsed file", p.Name)}
			}
			if _, seen := order[sc.Id]; !seen {
				order[sc.Id] = len(order)
			}
			m := pickleMeta{dir: dir, uri: uri, area: area, name: p.Name, line: int(sc.Location.Line), index: order[sc.Id], steps: len(p.Steps)}
			slug := Slug(sc.Name)
			if slug == "" {
				return nil, &FeatureError{File: fmt.Sprintf("%s:%d", file, m.line), Msg: "a scenario needs a name with a letter or digit: its id is made from it"}
			}
			if len(p.AstNodeIds) > 1 {
				row := p.AstNodeIds[1]
				m.line = idx.lines[row]
				slug += ":" + itoa(rows[row])
			}
			m.id = area + "/feature:" + slug
			if prev, dup := byID[m.id]; dup {
				return nil, &FeatureError{File: m.where(), Msg: fmt.Sprintf("scenario %q has the id %s, as the one at line %d has: give one of them another name", p.Name, m.id, prev.line)}
			}
			byID[m.id] = m
			idx.pickles[p.Id] = m
			idx.order = append(idx.order, p.Id)
		}
	}
	return idx, nil
}

// parsedFeature is what godog's RetrieveFeatures gives for one file (its type is internal to godog).
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

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// Slug is a scenario name as its id writes it: lowercase ASCII letters and digits, every other
// run of characters one `-`.
func Slug(name string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(name), "-"), "-")
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

// state is one scenario as godog runs it.
type state struct {
	meta  pickleMeta
	lines map[string]int
	build *steps.Build

	current *godog.Step
	err     error
}

func kindOfStep(s *godog.Step) steps.Kind {
	switch s.Type {
	case messages.PickleStepType_CONTEXT:
		return steps.Given
	case messages.PickleStepType_ACTION:
		return steps.When
	case messages.PickleStepType_OUTCOME:
		return steps.Then
	}
	return steps.Any
}

// dispatch runs the current step. Its error is kept (with the step's line) for the scenario's
// verdict, and returned so godog skips the steps after it.
func (st *state) dispatch() error {
	s := st.current
	line := 0
	if len(s.AstNodeIds) > 0 {
		line = st.lines[s.AstNodeIds[0]]
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
	k := kindOfStep(s)
	err := st.build.Step(k, s.Text, line, arg)
	if err != nil {
		st.err = fmt.Errorf("%s:%d: %s: %w", st.meta.file(), line, k.String()+" "+s.Text, err)
	}
	return err
}

// finish makes the built case: strictly decoded by its area, as a case file's would be.
func (st *state) finish() Scenario {
	m := st.meta
	sc := Scenario{Case: m.caseShell(), Checks: st.build.Checks()}
	if st.err != nil {
		sc.Err = st.err
		return sc
	}
	if len(sc.Checks) == 0 {
		sc.Err = fmt.Errorf("%s: scenario %q has no Then: a scenario says what the spec expects with at least one Then", m.where(), m.name)
		return sc
	}
	obj, err := st.build.Case()
	if err != nil {
		sc.Err = fmt.Errorf("%s: scenario %q: %v", m.where(), m.name, err)
		return sc
	}
	raw, err := runner.MarshalAnswer(obj)
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
		sc.Err = fmt.Errorf("%s: scenario %q built a case area %s refuses: %v\n  the case: %s", m.where(), m.name, m.area, err, raw)
		return sc
	}
	sc.Case.Input, sc.Case.Decoded = raw, decoded
	exp, err := runner.MarshalAnswer(sc.Checks)
	if err != nil {
		sc.Err = err
		return sc
	}
	sc.Case.Expect = exp
	return sc
}
