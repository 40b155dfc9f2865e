// Package steps holds each area's Gherkin step vocabulary: the phrases a feature
// (conformance/features/<area>.feature) is written in, and what each does — a Given or When sets
// a field of the area's case or adds its op or steps, a Then says what the spec fixes of one part
// of the answer. A vocabulary is a field of its conformance.Area (Area.Steps); internal/gherkin
// parses the features and hands each step here.
//
// The steps never compute an answer: they only build the case and state what the spec says it
// must be, so a scenario runs unchanged against the builtin reference and against an adapter.
package steps

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/lazyre"
)

// Kind is a step's keyword as Gherkin reads it (And and But take the one before them's).
type Kind int

const (
	Any Kind = iota // `*` steps: matched against every kind
	Given
	When
	Then
)

func (k Kind) String() string {
	switch k {
	case Given:
		return "Given"
	case When:
		return "When"
	case Then:
		return "Then"
	}
	return "*"
}

// argForm is what a step carries below its line.
type argForm int

const (
	noArg    argForm = iota
	docArg           // a docstring ("""), required
	tableArg         // a data table, required
)

// stepDef is one phrase of an area's vocabulary and what it does to the scenario being built.
type stepDef struct {
	kind   Kind
	phrase string
	compiledPhrase
	arg argForm
	// columns names a table's columns; a first row that spells them is a header and is skipped.
	columns []string
	doc     string
	run     func(b *Build, a *args) error
}

// step defines a phrase whose handler works on the area's builder B.
func step[B any](k Kind, phrase string, arg argForm, doc string, fn func(b *B, a *args) error,
	columns ...string) stepDef {
	// The phrase is compiled when its vocabulary is first used (Vocabulary.ready).
	return stepDef{kind: k, phrase: phrase, arg: arg, columns: columns, doc: doc,
		run: func(bd *Build, a *args) error {
			b, ok := any(bd.builder).(*B)
			if !ok {
				return fmt.Errorf("step %q is not one of area %s's", phrase, bd.area)
			}
			return fn(b, a)
		}}
}

// Shown is the step as docs/features.md and the unknown-step message write it.
func (d stepDef) Shown() string {
	s := d.kind.String() + " " + d.show
	switch d.arg {
	case docArg:
		s += `  + """docstring"""`
	case tableArg:
		if len(d.columns) > 0 {
			s += "  + | " + strings.Join(d.columns, " | ") + " |"
		} else {
			s += "  + a table"
		}
	}
	return s
}

// args is one step's matched values and what it carries.
type args struct {
	b     *Build
	vals  []any
	doc   *string
	media string
	table [][]string
}

func (a *args) str(i int) string          { return a.vals[i].(string) }
func (a *args) num(i int) int             { return a.vals[i].(int) }
func (a *args) list(i int) []string       { return a.vals[i].([]string) }
func (a *args) raw(i int) json.RawMessage { return a.vals[i].(json.RawMessage) }

// text is the step's docstring: literal, or with media type json a JSON string (for a text with
// trailing spaces or no final newline an editor might change).
func (a *args) text() (string, error) {
	if a.doc == nil {
		return "", fmt.Errorf("this step needs a docstring")
	}
	if a.media == "json" {
		var s string
		if err := json.Unmarshal([]byte(*a.doc), &s); err != nil {
			return "", fmt.Errorf(`the docstring is marked json but is not a JSON string: %v`, err)
		}
		return s, nil
	}
	return *a.doc, nil
}

// json decodes the step's docstring into v; what says what it must be, for the error.
func (a *args) json(v any, what string) error {
	text, err := a.text()
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return fmt.Errorf("the docstring is not %s: %v", what, err)
	}
	return nil
}

// rows is the table's rows, each with exactly n cells.
func (a *args) rows(n int) ([][]string, error) {
	for i, r := range a.table {
		if len(r) != n {
			return nil, fmt.Errorf("table row %d has %d cells; this step's table has %d a row", i+1, len(r), n)
		}
	}
	return a.table, nil
}

// expect adds a Then's check of one part of the answer.
func (a *args) expect(part path, want any) error {
	w, err := normalize(want)
	if err != nil {
		return err
	}
	a.b.checks = append(a.b.checks, Check{Step: a.b.stepText, Line: a.b.stepLine, Part: part, Want: w})
	return nil
}

// docLines is the docstring as lines: each ends with a line break, the last included.
func docLines(a *args) (string, error) {
	t, err := a.text()
	return t + "\n", err
}

// stepIndex is the answer's index of step n (from 1) of a scenario with count steps.
func stepIndex(n, count int) (int, error) {
	if n < 1 || n > count {
		return 0, fmt.Errorf("the scenario has %d steps (one a When), no step %d", count, n)
	}
	return n - 1, nil
}

// lineView is a text's line n (from 1) as a view of a path.
func lineView(n int) view { return view(fmt.Sprintf("line %d", n)) }

// Vocabulary is one area's steps and how its case is built: the value of its conformance.Area's
// Steps field. A package-level Vocabulary is plain data; its steps are defined and their phrases
// compiled on first use, since doing it at init would cost every lembas-check start (an adapter's
// too) several milliseconds.
type Vocabulary struct {
	newBuilder func() builder
	define     func() []stepDef // the area's own steps; every area also has common()'s

	once  sync.Once
	steps []stepDef
}

// ready defines the vocabulary's steps and compiles their phrases, once.
func (v *Vocabulary) ready() []stepDef {
	v.once.Do(func() {
		v.steps = append(v.define(), common()...)
		for i := range v.steps {
			v.steps[i].compiledPhrase = compilePhrase(v.steps[i].phrase)
		}
	})
	return v.steps
}

// builder collects what an area's steps say; Case is the case they built.
type builder interface {
	Case() (map[string]any, error)
}

// match finds the step a line names. A line that names a step of another keyword, or none, is an
// error that says what the area knows.
func (v *Vocabulary) match(area string, k Kind, text string) (stepDef, []string, error) {
	v.ready()
	var other *stepDef
	for i := range v.steps {
		d := &v.steps[i]
		if !strings.HasPrefix(text, d.lit) {
			continue
		}
		m := d.re().FindStringSubmatch(text)
		if m == nil {
			continue
		}
		if k == Any || d.kind == k {
			return *d, m[1:], nil
		}
		if other == nil {
			other = d
		}
	}
	if other != nil {
		return stepDef{}, nil, &stepError{msg: fmt.Sprintf("%q is a %s step here: write `%s %s`", text, other.kind,
			other.kind, text)}
	}
	return stepDef{}, nil, &stepError{msg: v.unknown(area, k, text)}
}

// unknown is the message for a line that names no step: the closest phrase, then the area's
// whole vocabulary, so a person writing a scenario sees what to write instead.
func (v *Vocabulary) unknown(area string, k Kind, text string) string {
	v.ready()
	var b strings.Builder
	fmt.Fprintf(&b, "no step of area %s reads like this", area)
	if best := v.closest(k, text); best != "" {
		fmt.Fprintf(&b, "\n  did you mean: %s", best)
	}
	fmt.Fprintf(&b, "\n  the steps of area %s (docs/features.md):", area)
	for _, k := range []Kind{Given, When, Then} {
		for _, d := range v.steps {
			if d.kind == k {
				fmt.Fprintf(&b, "\n    %s", d.Shown())
			}
		}
	}
	return b.String()
}

// closest is the phrase of kind k (any kind for *) nearest to text by edit distance over words.
func (v *Vocabulary) closest(k Kind, text string) string {
	v.ready()
	best, bestD := "", -1
	words := strings.Fields(text)
	for _, d := range v.steps {
		if k != Any && d.kind != k {
			continue
		}
		shown := strings.Fields(d.show)
		if !sharesAWord(words, shown) {
			continue
		}
		dist := wordDistance(words, shown)
		if bestD < 0 || dist < bestD {
			best, bestD = d.Shown(), dist
		}
	}
	// Far from every phrase: a guess would mislead more than help.
	if bestD > len(words)/2+1 {
		return ""
	}
	return best
}

// wordDistance is the Levenshtein distance between two lists of words, a hole's shown form
// (all capitals, or quoted capitals) matching any word.
func wordDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if sameWord(a[i-1], b[j-1]) {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// sharesAWord says whether text has a word of the phrase that is not a hole: a phrase made
// mostly of holes is near anything, and a guess needs a word in common.
func sharesAWord(text, shown []string) bool {
	for _, s := range shown {
		if holeWord().MatchString(s) && strings.ToUpper(s) == s {
			continue
		}
		for _, w := range text {
			if w == s {
				return true
			}
		}
	}
	return false
}

var holeWord = lazyre.New(`^"?[#{]?[A-Z_ …]+[}]?"?[,:.]?$`)

func sameWord(w, shown string) bool {
	return w == shown || holeWord().MatchString(shown) && strings.ToUpper(shown) == shown
}

// common are the steps every area has.
func common() []stepDef {
	return []stepDef{
		{kind: Given, phrase: "the case also has:", arg: docArg,
			doc: "a JSON object whose fields are set on the case as it is sent, over what the other steps built — " +
				"for a field no step sets",
			run: func(b *Build, a *args) error {
				var m map[string]any
				if err := a.json(&m, "a JSON object"); err != nil {
					return err
				}
				if m == nil {
					return fmt.Errorf("the docstring is not a JSON object: it is null")
				}
				for k, v := range m {
					b.extra[k] = v
				}
				return nil
			}},
		{kind: Then, phrase: "the answer is:", arg: docArg,
			doc: "the whole answer, as JSON (key order and spacing do not count)",
			run: func(b *Build, a *args) error {
				var v any
				if err := a.json(&v, "JSON"); err != nil {
					return err
				}
				return a.expect(nil, v)
			}},
	}
}

// Docs lists the vocabulary's steps as docs/features.md shows them, with what each does.
func (v *Vocabulary) Docs() []StepDoc {
	var out []StepDoc
	for _, d := range v.ready() {
		out = append(out, StepDoc{Step: d.Shown(), Doc: d.doc})
	}
	return out
}

// StepDoc is one step of a vocabulary, for documentation.
type StepDoc struct{ Step, Doc string }

// stepError is a step that cannot be used as written; its message is for the feature's author.
type stepError struct{ msg string }

func (e *stepError) Error() string { return e.msg }

// Build is one scenario's case as its steps build it, step by step (Step), until Case.
type Build struct {
	area    string
	v       *Vocabulary
	builder builder // the area's builder, typed per area for its steps
	extra   map[string]any
	checks  []Check

	phase    Kind // the last keyword seen
	stepText string
	stepLine int
}

// Begin starts a scenario of the area (its name, for messages) in this vocabulary.
func (v *Vocabulary) Begin(area string) *Build {
	return &Build{area: area, v: v, builder: v.newBuilder(), extra: map[string]any{}}
}

// Arg is what a step carries below its line: a docstring (Doc, with its media type) or a
// table's rows (Table, non-nil), or neither.
type Arg struct {
	Doc   *string
	Media string
	Table [][]string
}

// Step runs one step of the scenario: k is its keyword (Any for `*`), text its line after the
// keyword, line where it is (for the Thens' messages). Its error says what is wrong with the step
// as written, in words the feature's author acts on.
func (b *Build) Step(k Kind, text string, line int, arg Arg) error {
	b.stepText, b.stepLine = k.String()+" "+text, line
	def, subs, err := b.v.match(b.area, k, text)
	if err != nil {
		return err
	}
	if k == Any {
		k = def.kind
	}
	// The case is sent once, after the last When: a Given or When after a Then has nothing to act on.
	if b.phase == Then && k != Then {
		return errors.New("a Given or When after a Then: the case is sent once, after the last When, so every Then " +
			"comes last (write a second scenario for what follows)")
	}
	b.phase = k
	a := &args{b: b}
	for i, sub := range subs {
		v, err := def.types[i].read(sub)
		if err != nil {
			return err
		}
		a.vals = append(a.vals, v)
	}
	switch {
	case def.arg == docArg && arg.Doc == nil:
		return fmt.Errorf("this step takes a docstring (\"\"\" lines below it): %s", def.Shown())
	case def.arg == tableArg && arg.Table == nil:
		return fmt.Errorf("this step takes a table (| lines below it): %s", def.Shown())
	case def.arg != docArg && arg.Doc != nil:
		return fmt.Errorf("this step takes no docstring: %s", def.Shown())
	case def.arg != tableArg && arg.Table != nil:
		return fmt.Errorf("this step takes no table: %s", def.Shown())
	}
	a.doc, a.media = arg.Doc, arg.Media
	for i, cells := range arg.Table {
		if i == 0 && isHeader(cells, def.columns) {
			continue
		}
		a.table = append(a.table, cells)
	}
	return def.run(b, a)
}

func isHeader(cells, columns []string) bool {
	if len(columns) == 0 || len(cells) != len(columns) {
		return false
	}
	for i := range cells {
		if !strings.EqualFold(strings.TrimSpace(cells[i]), columns[i]) {
			return false
		}
	}
	return true
}

// Checks are the scenario's Thens so far, in order.
func (b *Build) Checks() []Check { return b.checks }

// Case is the case the steps built, with `Given the case also has:`'s fields set over it; an
// error says what the scenario has not said yet (no job, no tree, no steps).
func (b *Build) Case() (map[string]any, error) {
	obj, err := b.builder.Case()
	if err != nil {
		return nil, err
	}
	for k, v := range b.extra {
		obj[k] = v
	}
	return obj, nil
}
