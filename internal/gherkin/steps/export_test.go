package steps

import "regexp"

// What the external tests (package steps_test, which ranges over conformance.All()) look into.

// Def is one step as the tests see it.
type Def struct {
	Kind   Kind
	Phrase string
	Shown  string
}

func def(d stepDef) Def { return Def{Kind: d.kind, Phrase: d.phrase, Shown: d.Shown()} }

// Defs is the vocabulary's steps, in order.
func (v *Vocabulary) Defs() []Def {
	var out []Def
	for _, d := range v.ready() {
		out = append(out, def(d))
	}
	return out
}

// Match is the step a line names, or why none.
func (v *Vocabulary) Match(area string, k Kind, text string) (Def, error) {
	d, _, err := v.match(area, k, text)
	if err != nil {
		return Def{}, err
	}
	return def(d), nil
}

// Unknown is the message for a line no step names.
func (v *Vocabulary) Unknown(area string, k Kind, text string) string {
	return v.unknown(area, k, text)
}

// HoleRE finds a phrase's holes.
var HoleRE *regexp.Regexp = holeRE()
