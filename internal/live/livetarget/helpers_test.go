package livetarget

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// An edit is the one occurrence of old replaced by new, and gives after.
func TestEditSpan(t *testing.T) {
	for _, tc := range []struct{ before, after string }{
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"x\nx\nx\n", "x\ny\nx\n"},             // a line that repeats: widened until found once
		{"one\ntwo\n", "one\ntwo\nthree\n"},    // added at the end
		{"one\ntwo\n", "zero\none\ntwo\n"},     // added at the start
		{"same\nsame\n", "same\nsame\nsame\n"}, // only repeats: the whole file
		{"no newline", "no newline at all"},
		{"é\nü\n", "é\nö\n"},
	} {
		old, new := editSpan(tc.before, tc.after)
		if old == "" {
			t.Errorf("%q → %q: no edit", tc.before, tc.after)
			continue
		}
		if n := strings.Count(tc.before, old); n != 1 {
			t.Errorf("%q → %q: old %q is there %d times", tc.before, tc.after, old, n)
		}
		if got := strings.Replace(tc.before, old, new, 1); got != tc.after {
			t.Errorf("%q → %q: old %q new %q give %q", tc.before, tc.after, old, new, got)
		}
	}
	if old, _ := editSpan("", "new\n"); old != "" {
		t.Errorf("an empty file has an edit: old %q", old)
	}
}

// A placeholder that is a whole string takes the value's type, or drops its member when the
// step has none; inside a string it is the text, {q…} quoted for a shell.
func TestFill(t *testing.T) {
	got, err := fill(json.RawMessage(`{"path":"{path}","offset":"{offset}","limit":"{limit}","cmd":"cat {qpath}","files":[{"path":"{path}"}]}`),
		vals{"path": "it's.md", "offset": 3})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"cmd":"cat 'it'\\''s.md'","files":[{"path":"it's.md"}],"offset":3,"path":"it's.md"}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	files, _ := fill(json.RawMessage(`{"files":"{files}"}`), vals{"files": []any{map[string]any{"path": "a", "delete": true}}})
	if files != `{"files":[{"delete":true,"path":"a"}]}` {
		t.Errorf("files: %s", files)
	}
}

// The harness's ids become the case's only where the spec fixes them: the k-th result's, or
// the case's own.
func TestIDMap(t *testing.T) {
	e := &env{ids: map[string]string{"#a001": "#0001", "#a002": "#0002", "#a003": "#a003", "#a004": "#0009"}}
	read := func(id string) conformance.ContextStep { return conformance.ContextStep{Op: "read", ID: &id} }
	steps := []conformance.ContextStep{read("#a001"), read("#a002"), read("#a003"), {Op: "compact"}, read("#a004")}
	m := idMap(e, steps)
	got := mapIDs("[#0002 a.md] Unchanged since #0001; [#a003]; #0009 #ffff", m)
	if want := "[#a002 a.md] Unchanged since #a001; [#a003]; #0009 #ffff"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	e.ids["#a002"] = "#0001" // given twice: neither is mapped
	if m := idMap(e, steps); m["#0001"] != "" {
		t.Errorf("an id the harness gave twice is mapped to %s", m["#0001"])
	}
}

// The note is what follows the person's words; nothing after them is no note.
func TestNoteAfter(t *testing.T) {
	q := &request{msgs: []msg{{role: "user", text: "hi"}, {role: "assistant"}, {role: "user", text: "words\n\n<session-note>\nx\n</session-note>\n"}}}
	if got := noteAfter(q, "words"); got != "<session-note>\nx\n</session-note>" {
		t.Errorf("%v", got)
	}
	if got := noteAfter(&request{msgs: []msg{{role: "user", text: "words"}}}, "words"); got != nil {
		t.Errorf("%v", got)
	}
	if got, _ := noteAfter(&request{msgs: []msg{{role: "user", text: "other"}}}, "words").(string); !strings.Contains(got, "not in the last user message") {
		t.Errorf("%v", got)
	}
}

// A profile without a call for an operation skips the cases that need it, naming the field.
func TestNoCallSkips(t *testing.T) {
	p := &agents.Profile{Name: "bare", Tools: agents.Tools{Read: []script.ToolShape{{Name: "read", Arguments: json.RawMessage(`{"path":"{path}"}`)}}}}
	_, err := makeCall(p, "recall", "call_1", vals{})
	if err == nil || !strings.Contains(err.Error(), "tools.calls.recall") {
		t.Errorf("%v", err)
	}
	c, err := makeCall(p, "read", "call_1", vals{"path": "a.md"})
	if err != nil || c.Arguments != `{"path":"a.md"}` {
		t.Errorf("%+v %v", c, err)
	}
}

// The kept rules are live.Held's: a case whose harness writes the day into its system prompt at
// two date changes breaks "system prompt held" twice, and both requests are named (only the
// first was); a compaction before a request lets its history be replaced.
func TestKeptNamesEveryBreak(t *testing.T) {
	body := func(system string, users ...string) []byte {
		msgs := []map[string]string{{"role": "system", "content": system}}
		for _, u := range users {
			msgs = append(msgs, map[string]string{"role": "user", "content": u})
		}
		b, _ := json.Marshal(map[string]any{"model": "fake-model", "messages": msgs})
		return b
	}
	slotOf := func(b []byte, reset bool) *slot {
		q, err := parseRequest(b)
		if err != nil {
			t.Fatal(err)
		}
		return &slot{body: b, req: q, reset: reset, remade: map[bool]int{true: 1}[reset]}
	}
	pl := &plan{turns: []*turn{{slots: []*slot{
		slotOf(body("Today is Nov 30.", "a"), false),
		slotOf(body("Today is Dec 01.", "a", "b"), false),
		slotOf(body("Today is Dec 02.", "a", "b", "c"), false),
		slotOf(body("Today is Dec 02.", "summary"), true),
	}}}}
	k := kept("context/x", "context", pl)
	if got := k.Broke[RulePrompt]; !strings.HasPrefix(got, "request 2 (after request 1): system prompt changed") || !strings.Contains(got, "; request 3 (after request 2): system prompt changed") {
		t.Errorf("system prompt held: %q", got)
	}
	if k.Broke[RuleRewritten] != "" || k.Broke[RuleTools] != "" || k.Requests != 4 {
		t.Errorf("%+v", k)
	}
}
