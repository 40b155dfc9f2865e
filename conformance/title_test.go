package conformance

import (
	"strings"
	"testing"
)

// Every embedded case is named by what it asks, not by its id alone (issue 27: 80 of 267 JUnit
// names were a hash): its about, or a title its area's titler made.
func TestEveryCaseHasATitle(t *testing.T) {
	for _, a := range All() {
		cases, err := EmbeddedCases(a.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			title := c.Title()
			if c.About == "" && (!strings.HasPrefix(title, a.Name+": ") || strings.Contains(title, "a case of")) {
				t.Errorf("%s: title %q, want one its area's titler made", c.ID, title)
			}
		}
	}
}

func TestJobsTitle(t *testing.T) {
	for input, want := range map[string]string{
		`{"command":"make build\nmake test","exit":2,"id":"job2","kind":"command","seconds":7325,"unread":""}`: "jobs: note for command `make build…`, exit 2 after 2h02m05s",
		`{"command":"x","exit":null,"id":"job1","kind":"command","seconds":65,"unread":""}`:                    "jobs: note for command `x`, stopped by a signal after 1m05s",
		`{"kind":"nonsense"}`: "jobs: a case of kind",
	} {
		c := Case{Label: Label{Area: "jobs"}, Input: []byte(input)}
		if got := c.Title(); got != want {
			t.Errorf("%s: %q, want %q", input, got, want)
		}
	}
}
