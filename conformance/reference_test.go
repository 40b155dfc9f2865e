package conformance

import (
	"encoding/json"
	"testing"
)

// TestReference runs every embedded case against the reference implementation, one subtest per
// case: go test -run 'TestReference/jobs/' runs one area.
func TestReference(t *testing.T) {
	cases, err := Load(EmbeddedSuites(), All())
	if err != nil {
		t.Fatal(err)
	}
	areas := map[string]Area{}
	for _, a := range All() {
		areas[a.Name] = a
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			got, err := areas[c.Area].Reference(c.Decoded)
			if err != nil {
				t.Fatalf("%s (%s): %v", c.Where(), c.About, err)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if d := Diff(c.Expect, b); d != "" {
				t.Errorf("%s %s\ncase: %s\n(-want +got)\n%s", c.Where(), c.About, c.Input, d)
			}
		})
	}
}
