package proc

import (
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		left []Leftover
		want string
	}{
		{nil, ""},
		{[]Leftover{{Pid: 42, Command: "sleep 25"}}, "ended 1 process the command left behind: sleep 25 (pid 42)"},
		{[]Leftover{{Pid: 42, Command: "sleep 25"}, {Pid: 43}, {Pid: 7, Group: true}},
			"ended 3 processes the command left behind: sleep 25 (pid 42), pid 43, the rest of process group 7"},
	} {
		if got := Summary(c.left, "the command"); got != c.want {
			t.Errorf("Summary(%v) = %q, want %q", c.left, got, c.want)
		}
	}
}

func TestLimitsNamesTheOS(t *testing.T) {
	// Where something is not guaranteed, the sentence says what and where.
	if l := Limits(); l != "" && !strings.Contains(l, "outlive") && !strings.Contains(l, "TERM") {
		t.Errorf("Limits() = %q: it should say what may go wrong", l)
	}
}
