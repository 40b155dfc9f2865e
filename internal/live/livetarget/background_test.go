package livetarget

import (
	"reflect"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/search"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

// A search's results are told apart by the case's passages, one of which holds a blank line; a
// text that is none of them is kept whole, so the diff shows it.
func TestSearchAnswerSplitsByPassage(t *testing.T) {
	in := searchInput{Passages: []map[string]any{
		{"path": "/a.md", "lines": []int{1, 3}, "text": "one\n\ntwo"},
		{"path": "/b.md", "lines": []int{2, 2}, "text": "three"},
	}}
	a := search.Result(search.Passage{Path: "/a.md", Start: 1, End: 3, Text: "one\n\ntwo"})
	b := search.Result(search.Passage{Path: "/b.md", Start: 2, End: 2, Text: "three"})
	e := &env{root: "/tmp/case-1"}
	for _, tc := range []struct {
		result string
		want   []string
	}{
		{"[#0001]\n" + b + "\n\n" + a, []string{b, a}},
		{"[#0001]\n", []string{}},
		{"[#0001]\n" + a + "\n\nsomething else", []string{a, "something else"}},
	} {
		after := &slot{req: &request{msgs: []msg{{role: "tool", callID: "call_search", text: tc.result}}}}
		got, err := searchAnswer(e, after, "call_search", in)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]any{"results": tc.want}; !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %v, want %v", tc.result, got, want)
		}
	}
}

// A job's note is the user message after the results that begins with a mark; without one, what
// was added after the results, for the diff.
func TestJobNote(t *testing.T) {
	mark := spec.LoopJSON().Jobs.Marks.Command
	q := &request{msgs: []msg{{role: "assistant"}, {role: "tool", text: "result"}, {role: "user", text: "rules"},
		{role: "user", text: mark + "\njob1 ended"}}}
	if got := jobNote(q); got != mark+"\njob1 ended" {
		t.Errorf("got %q", got)
	}
	q.msgs[3].text = "no mark"
	if got := jobNote(q); got != "rules\nno mark" {
		t.Errorf("unmarked: got %q", got)
	}
}

// A refusal is the word its message begins with, only where the word is one; a session's root is
// the path under the case's root its system prompt names first.
func TestWorkspaceReadings(t *testing.T) {
	for msg, want := range map[string]string{"not_allowed: /x is not one of …": "not_allowed", "escape: a": "escape",
		"nope: x": "nope: x", "no such session": "no such session"} {
		if got := refusalWord(msg); got != want {
			t.Errorf("refusalWord(%q) = %q, want %q", msg, got, want)
		}
	}
	e := &env{root: "/tmp/case-2"}
	for sys, want := range map[string]string{
		"Relative paths start at `/tmp/case-2/srv/docs`.\n": "/srv/docs",
		"cwd: /tmp/case-2/srv/app/\n":                       "/srv/app",
		"nothing here":                                      "(the system prompt names no directory of the case)",
	} {
		if got := wsRootIn(e, sys); got != want {
			t.Errorf("wsRootIn(%q) = %q, want %q", sys, got, want)
		}
	}
}
