package gherkin

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// kind is a step's keyword as Gherkin reads it (And and But take the one before them's).
type kind int

const (
	anyKind kind = iota // `*` steps: matched against every kind
	given
	when
	then
)

func (k kind) String() string {
	switch k {
	case given:
		return "Given"
	case when:
		return "When"
	case then:
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
	kind   kind
	phrase string
	re     *regexp.Regexp
	types  []paramType
	show   string // the phrase as the vocabulary shows it
	arg    argForm
	// columns names a table's columns; a first row that spells them is a header and is skipped.
	columns []string
	doc     string
	run     func(st *state, a *args) error
}

// step defines a phrase whose handler works on the area's builder B.
func step[B any](k kind, phrase string, arg argForm, doc string, fn func(b *B, a *args) error, columns ...string) stepDef {
	// The phrase is compiled when its vocabulary is first used (vocabulary.ready).
	return stepDef{kind: k, phrase: phrase, arg: arg, columns: columns, doc: doc,
		run: func(st *state, a *args) error {
			b, ok := st.builder.(*B)
			if !ok {
				return fmt.Errorf("step %q is not one of area %s's", phrase, st.vocab.area)
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
	st    *state
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
	a.st.checks = append(a.st.checks, Check{Step: a.st.stepText(), Line: a.st.stepLine, Part: part, Want: w})
	return nil
}

// vocabulary is one area's steps and how its case is built.
type vocabulary struct {
	area       string
	newBuilder func() builder
	raw        []stepDef
	// steps are raw with their phrases compiled, on first use: compiling every area's phrases at
	// init would cost every lembas-check start (an adapter's too) several milliseconds.
	once  sync.Once
	steps []stepDef
}

// ready compiles the vocabulary's phrases once.
func (v *vocabulary) ready() []stepDef {
	v.once.Do(func() {
		v.steps = v.raw
		for i := range v.steps {
			if v.steps[i].re == nil {
				v.steps[i].re, v.steps[i].types, v.steps[i].show = compilePhrase(v.steps[i].phrase)
			}
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
func (v *vocabulary) match(k kind, text string) (stepDef, []string, error) {
	v.ready()
	var other *stepDef
	for i := range v.steps {
		d := &v.steps[i]
		m := d.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		if k == anyKind || d.kind == k {
			return *d, m[1:], nil
		}
		if other == nil {
			other = d
		}
	}
	if other != nil {
		return stepDef{}, nil, &stepError{msg: fmt.Sprintf("%q is a %s step here: write `%s %s`", text, other.kind, other.kind, text)}
	}
	return stepDef{}, nil, &stepError{msg: v.unknown(k, text)}
}

// unknown is the message for a line that names no step: the closest phrase, then the area's
// whole vocabulary, so a person writing a scenario sees what to write instead.
func (v *vocabulary) unknown(k kind, text string) string {
	v.ready()
	var b strings.Builder
	fmt.Fprintf(&b, "no step of area %s reads like this", v.area)
	if best := v.closest(k, text); best != "" {
		fmt.Fprintf(&b, "\n  did you mean: %s", best)
	}
	fmt.Fprintf(&b, "\n  the steps of area %s (docs/features.md):", v.area)
	for _, k := range []kind{given, when, then} {
		for _, d := range v.steps {
			if d.kind == k {
				fmt.Fprintf(&b, "\n    %s", d.Shown())
			}
		}
	}
	return b.String()
}

// closest is the phrase of kind k (any kind for *) nearest to text by edit distance over words.
func (v *vocabulary) closest(k kind, text string) string {
	v.ready()
	best, bestD := "", -1
	words := strings.Fields(text)
	for _, d := range v.steps {
		if k != anyKind && d.kind != k {
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
		if holeWord.MatchString(s) && strings.ToUpper(s) == s {
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

var holeWord = regexp.MustCompile(`^"?[#{]?[A-Z_ …]+[}]?"?[,:.]?$`)

func sameWord(w, shown string) bool {
	return w == shown || holeWord.MatchString(shown) && strings.ToUpper(shown) == shown
}

// common are the steps every area has.
func common() []stepDef {
	return []stepDef{
		{kind: given, phrase: "the case also has:", arg: docArg,
			doc: "a JSON object whose fields are set on the case as it is sent, over what the other steps built — for a field no step sets",
			run: func(st *state, a *args) error {
				text, err := a.text()
				if err != nil {
					return err
				}
				var m map[string]any
				if err := json.Unmarshal([]byte(text), &m); err != nil || m == nil {
					return fmt.Errorf("the docstring is not a JSON object: %v", err)
				}
				for k, v := range m {
					st.extra[k] = v
				}
				return nil
			}},
		{kind: then, phrase: "the answer is:", arg: docArg,
			doc: "the whole answer, as JSON (key order and spacing do not count)",
			run: func(st *state, a *args) error {
				text, err := a.text()
				if err != nil {
					return err
				}
				var v any
				if err := json.Unmarshal([]byte(text), &v); err != nil {
					return fmt.Errorf("the docstring is not JSON: %v", err)
				}
				return a.expect(nil, v)
			}},
	}
}

// vocabularies is every area's vocabulary, by area name. An area of the registry without one has
// no features yet: a feature file for it is refused with that message.
var vocabularies = map[string]*vocabulary{}

// register adds an area's vocabulary (with the common steps) at init.
func register(area string, newBuilder func() builder, steps ...stepDef) {
	vocabularies[area] = &vocabulary{area: area, newBuilder: newBuilder, raw: append(steps, common()...)}
}

// Areas lists the areas that have a step vocabulary, sorted.
func Areas() []string {
	var out []string
	for a := range vocabularies {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// Vocabulary lists an area's steps as docs/features.md shows them, with what each does.
func Vocabulary(area string) []StepDoc {
	v, ok := vocabularies[area]
	if !ok {
		return nil
	}
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
