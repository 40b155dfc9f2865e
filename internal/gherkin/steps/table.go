package steps

import (
	"encoding/json"
	"fmt"
	"strings"
)

// NewCheck is a check as a table made at build time holds it (internal/gherkin's embedded
// scenarios): its part's steps (a key, an index, or View's), and want as JSON. A want that is
// not JSON is a table not made by GoString: it panics, as a bad literal would.
func NewCheck(step string, line int, part []any, want string) Check {
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		panic(fmt.Sprintf("steps.NewCheck %q: want %s: %v", step, want, err))
	}
	return Check{Step: step, Line: line, Part: path(part), Want: w}
}

// View is a view of a part (its length, a line of it) as NewCheck's part names it.
func View(name string) any { return view(name) }

// GoString writes the check as Go source that makes it again (NewCheck), for a table made at
// build time: parsing the features and running their steps is most of `run --features`.
func (c Check) GoString() string {
	var part []string
	for _, s := range c.Part {
		switch s := s.(type) {
		case int:
			part = append(part, fmt.Sprint(s))
		case string:
			part = append(part, fmt.Sprintf("%q", s))
		case view:
			part = append(part, fmt.Sprintf("steps.View(%q)", string(s)))
		default:
			panic(fmt.Sprintf("steps: a path step of type %T", s))
		}
	}
	want, err := json.Marshal(c.Want)
	if err != nil {
		panic(fmt.Sprintf("steps: want of %q: %v", c.Step, err))
	}
	return fmt.Sprintf("steps.NewCheck(%q, %d, []any{%s}, %q)", c.Step, c.Line, strings.Join(part, ", "), want)
}
