package prefix

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/google/go-cmp/cmp"
)

func str(s string) *string { return &s }

var allTools = []string{"read", "show", "python", "commit", "plan_submit", "plan_write"}

func start(could ...string) Start {
	return Start{Date: "2026-11-05", Mode: "manual", Could: could}
}

func mustNew(t *testing.T, st Start, tools []string) *Session {
	t.Helper()
	s, err := New(st, tools)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustUser(t *testing.T, s *Session) Request {
	t.Helper()
	r, err := s.User()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustSet(t *testing.T, s *Session, c Change) {
	t.Helper()
	if err := s.Set(c); err != nil {
		t.Fatal(err)
	}
}

// note builds a note from blocks as the spec frames it: open, blocks a blank line apart, close.
func note(blocks ...string) string {
	n := spec.LoopJSON().Context.Note
	return n.Open + "\n" + strings.Join(blocks, "\n\n") + "\n" + n.Close
}

func block(tmpl string, vars map[string]string) string { return spec.MustRender(tmpl, vars) }

var tmpl = spec.LoopJSON().Context.Note

func TestToolListIsFixedFromWhatTheSessionCouldMeet(t *testing.T) {
	for _, tc := range []struct {
		could []string
		tools []string
		want  []string
	}{
		{nil, allTools, []string{"read", "plan_write"}},
		{[]string{"plan"}, allTools, []string{"read", "plan_submit", "plan_write"}},
		{[]string{"display", "page"}, allTools, []string{"read", "show", "python", "plan_write"}},
		{[]string{"forge"}, allTools, []string{"read", "commit", "plan_write"}},
		{[]string{"forge", "display", "page", "plan"}, allTools, allTools},
		{[]string{"plan"}, []string{"plan_submit", "read"}, []string{"plan_submit", "read"}},
		{[]string{"plan"}, []string{}, nil},
		{nil, []string{"no_such_tool"}, []string{"no_such_tool"}},
	} {
		s := mustNew(t, start(tc.could...), tc.tools)
		if d := cmp.Diff(tc.want, s.Tools()); d != "" {
			t.Errorf("could %v: tools (-want +got)\n%s", tc.could, d)
		}
		// The list is the same on every kind of request, whatever is met or not.
		mustSet(t, s, Change{Met: []string{}})
		w := s.WrapUp()
		c := s.Compact()
		u := mustUser(t, s)
		for _, got := range [][]string{w.Tools, c.Tools, u.Tools} {
			if !slices.Equal(got, s.Tools()) {
				t.Errorf("could %v: a request offers %v, the session %v", tc.could, got, s.Tools())
			}
		}
	}
}

func TestCallAnswersUnavailableWhileARequirementIsNotMetNow(t *testing.T) {
	un := func(tool string) string { return spec.Tools()[tool].Unavailable }
	for _, tc := range []struct {
		name  string
		could []string
		met   []string
		mode  string
		tool  string
		want  string // "" runs
	}{
		{"met by default", []string{"display"}, nil, "manual", "show", ""},
		{"display not met", []string{"display"}, []string{}, "manual", "show", un("show")},
		{"plan_submit outside plan mode", []string{"plan"}, nil, "edit", "plan_submit", un("plan_submit")},
		{"plan_submit in plan mode", []string{"plan"}, nil, "plan", "plan_submit", ""},
		{"page not met, display is", []string{"display", "page"}, []string{"display"}, "manual", "python", un("python")},
		{"forge met", []string{"forge"}, []string{"forge"}, "auto", "commit", ""},
		{"a tool with no requirement", nil, nil, "manual", "read", ""},
	} {
		st := start(tc.could...)
		st.Met, st.Mode = tc.met, tc.mode
		s := mustNew(t, st, allTools)
		text, refused, err := s.Call(tc.tool)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if text != tc.want || refused != (tc.want != "") {
			t.Errorf("%s: Call(%s) = %q, %v; want %q", tc.name, tc.tool, text, refused, tc.want)
		}
	}
}

func TestMetChangesBackAndForth(t *testing.T) {
	s := mustNew(t, start("forge", "display"), []string{"commit", "show"})
	for i, met := range [][]string{{}, {"forge"}, {"display"}, {"forge", "display"}, {}} {
		mustSet(t, s, Change{Met: met})
		for _, tool := range []string{"commit", "show"} {
			_, refused, err := s.Call(tool)
			if err != nil {
				t.Fatal(err)
			}
			need := spec.Tools()[tool].Requires[0]
			if refused == slices.Contains(met, need) {
				t.Errorf("set %d (met %v): %s refused=%v", i, met, tool, refused)
			}
		}
		// What is met is no block of the note: it never reaches the model but through a call.
		if r := mustUser(t, s); i > 0 && r.Note != "" {
			t.Errorf("met %v: note %q", met, r.Note)
		}
	}
}

func TestCallErrors(t *testing.T) {
	s := mustNew(t, start(), allTools)
	if _, _, err := s.Call("show"); err == nil || !strings.Contains(err.Error(), "never meet") {
		t.Errorf("a tool left out: %v", err)
	}
	if _, _, err := s.Call("grep"); err == nil || !strings.Contains(err.Error(), "not one of") {
		t.Errorf("a tool not listed: %v", err)
	}
	s.WrapUp()
	if _, _, err := s.Call("read"); !errors.Is(err, ErrWrapUpReply) {
		t.Errorf("a call in the wrap-up's reply: %v", err)
	}
	if _, err := s.Step(); !errors.Is(err, ErrWrapUpReply) {
		t.Errorf("a tool step after the wrap-up: %v", err)
	}
	mustUser(t, s)
	if _, _, err := s.Call("read"); err != nil {
		t.Errorf("a call after the next user message: %v", err)
	}
}

func TestEveryNoteBlockHasARule(t *testing.T) {
	handled := append([]string{"date", "mode", "plan", "memory", "instructions", "personality", "mcp"}, ChatBlocks...)
	got := append([]string(nil), spec.NoteOrder()...)
	slices.Sort(got)
	slices.Sort(handled)
	if d := cmp.Diff(handled, got); d != "" {
		t.Errorf("loop.json context.note's blocks (-handled +listed)\n%s", d)
	}
}

func TestAllChangesAtOnceAreOneBlockEachInLoopJSONOrder(t *testing.T) {
	st := start("plan")
	st.Files = map[string]string{"/p/AGENTS.md": "old"}
	s := mustNew(t, st, nil)
	mustUser(t, s)
	mustSet(t, s, Change{
		Date: str("2026-11-06"), Mode: str("plan"), Plan: str("# P"), Memory: str("m"), Personality: str("Be brief."),
		Files: map[string]string{"/p/AGENTS.md": "new"}, MCP: map[string]string{"docs": "Read."},
	})
	mode, err := ModeText("plan")
	if err != nil {
		t.Fatal(err)
	}
	server := block(spec.Text("note.mcp_server"), map[string]string{"name": "docs", "instructions": "Read."})
	want := note(
		block(tmpl.Date, map[string]string{"date": "2026-11-06"}),
		block(tmpl.Mode, map[string]string{"mode": "plan", "mode_text": mode}),
		block(tmpl.Plan, map[string]string{"plan": "# P"}),
		block(tmpl.Memory, map[string]string{"memory": "m"}),
		block(tmpl.Instr, map[string]string{"path": "/p/AGENTS.md", "text": "new"}),
		block(tmpl.Personality, map[string]string{"personality": "Be brief."}),
		block(tmpl.MCP, map[string]string{"instructions": server}),
	)
	if d := cmp.Diff(want, mustUser(t, s).Note); d != "" {
		t.Errorf("note (-want +got)\n%s", d)
	}
	if r := mustUser(t, s); r.Note != "" {
		t.Errorf("said twice: %q", r.Note)
	}
}

func TestAValueThatBecameEmptyReadsEmpty(t *testing.T) {
	none := tmpl.Empty
	for _, tc := range []struct {
		field string
		c     Change
		want  string
	}{
		{"plan", Change{Plan: str("")}, block(tmpl.Plan, map[string]string{"plan": none})},
		{"memory", Change{Memory: str("")}, block(tmpl.Memory, map[string]string{"memory": none})},
		{"personality", Change{Personality: str("")}, block(tmpl.Personality, map[string]string{"personality": none})},
		{"a file removed", Change{Files: map[string]string{}}, block(tmpl.Instr, map[string]string{"path": "/a", "text": none})},
		{"a file emptied", Change{Files: map[string]string{"/a": ""}}, block(tmpl.Instr, map[string]string{"path": "/a", "text": none})},
	} {
		st := Start{Date: "d", Mode: "manual", Plan: "p", Memory: "m", Personality: "x", Files: map[string]string{"/a": "A"}}
		s := mustNew(t, st, nil)
		mustUser(t, s)
		mustSet(t, s, tc.c)
		if got := mustUser(t, s).Note; got != note(tc.want) {
			t.Errorf("%s: note %q, want %q", tc.field, got, note(tc.want))
		}
	}
}

func TestTheModelsOwnChangesAreNotSaid(t *testing.T) {
	st := start("plan")
	st.Files = map[string]string{"/a": "A", "/b": "B"}
	s := mustNew(t, st, nil)
	mustUser(t, s)
	// The person edits /a; then the model writes /b — its set carries the whole tree as it is.
	mustSet(t, s, Change{Files: map[string]string{"/a": "A2", "/b": "B"}})
	mustSet(t, s, Change{ByModel: true, Files: map[string]string{"/a": "A2", "/b": "B2"}, Memory: str("mine"), Plan: str("# mine"), Mode: str("plan")})
	want := note(block(tmpl.Instr, map[string]string{"path": "/a", "text": "A2"}))
	if got := mustUser(t, s).Note; got != want {
		t.Errorf("note %q, want %q (the person's edit only)", got, want)
	}
	// The person changes memory to what the model had set: nothing to say.
	mustSet(t, s, Change{Memory: str("mine")})
	if got := mustUser(t, s).Note; got != "" {
		t.Errorf("a value the model already knows: %q", got)
	}
	// The model writes a file the person had changed: the model's text is what it knows.
	mustSet(t, s, Change{Files: map[string]string{"/a": "person", "/b": "B2"}})
	mustSet(t, s, Change{ByModel: true, Files: map[string]string{"/a": "model", "/b": "B2"}})
	if got := mustUser(t, s).Note; got != "" {
		t.Errorf("overwritten by the model: %q", got)
	}
}

func TestAChangeUndoneBeforeTheNextMessageIsNotSaid(t *testing.T) {
	st := start("plan")
	st.Memory, st.Files = "m", map[string]string{"/a": "A"}
	s := mustNew(t, st, nil)
	mustUser(t, s)
	mustSet(t, s, Change{Mode: str("plan"), Memory: str("other"), Files: map[string]string{}, Date: str("2026-11-06")})
	mustSet(t, s, Change{Mode: str("manual"), Memory: str("m"), Files: map[string]string{"/a": "A"}, Date: str("2026-11-05")})
	if got := mustUser(t, s).Note; got != "" {
		t.Errorf("note %q", got)
	}
}

func TestMCPInstructionsAreSaidWhenTheyArrive(t *testing.T) {
	server := func(name, text string) string {
		return block(tmpl.MCP, map[string]string{"instructions": block(spec.Text("note.mcp_server"), map[string]string{"name": name, "instructions": text})})
	}
	st := start()
	st.MCP = map[string]string{"docs": "D"}
	s := mustNew(t, st, nil)
	mustUser(t, s)
	for _, tc := range []struct {
		name string
		mcp  map[string]string
		want []string
	}{
		{"two connect: one block each, by name", map[string]string{"docs": "D", "zeta": "Z", "alpha": "A"}, []string{server("alpha", "A"), server("zeta", "Z")}},
		{"one goes: nothing", map[string]string{"docs": "D", "zeta": "Z"}, nil},
		{"it comes back: said again", map[string]string{"docs": "D", "zeta": "Z", "alpha": "A"}, []string{server("alpha", "A")}},
		{"new instructions: said", map[string]string{"docs": "D2", "zeta": "Z", "alpha": "A"}, []string{server("docs", "D2")}},
		{"one with none: nothing", map[string]string{"docs": "D2", "zeta": "Z", "alpha": "A", "bare": ""}, nil},
	} {
		mustSet(t, s, Change{MCP: tc.mcp})
		want := ""
		if tc.want != nil {
			want = note(tc.want...)
		}
		if got := mustUser(t, s); got.Note != want || got.System != 1 {
			t.Errorf("%s: system %d, note %q, want %q", tc.name, got.System, got.Note, want)
		}
	}
}

func TestFilesAreSaidInTheOrderACaseWritesTheirKeys(t *testing.T) {
	// RFC 8785 sorts keys by UTF-16 code units: U+1F600 (D83D DE00) before U+FFFD, the other way
	// round from UTF-8's bytes.
	personal := tmpl.Personal
	st := start()
	st.Files = map[string]string{"/\uFFFD": "x", "/gone": "g"}
	s := mustNew(t, st, nil)
	mustUser(t, s)
	mustSet(t, s, Change{Files: map[string]string{"/\uFFFD": "y", "/\U0001F600": "z", personal: "mine"}})
	want := note(
		block(tmpl.Instr, map[string]string{"path": "/gone", "text": tmpl.Empty}),
		block(tmpl.Instr, map[string]string{"path": "/\U0001F600", "text": "z"}),
		block(tmpl.Instr, map[string]string{"path": "/\uFFFD", "text": "y"}),
		block(tmpl.Instr, map[string]string{"path": personal, "text": "mine"}),
	)
	if d := cmp.Diff(want, mustUser(t, s).Note); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

func TestUTF16Less(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"a", "b", true}, {"b", "a", false}, {"a", "a", false}, {"a", "ab", true}, {"ab", "a", false},
		{"\U0001F600", "\uFFFD", true}, {"\uFFFD", "\U0001F600", false},
		{"\U0001F600", "\U0001F601", true}, {"\U00010000", "\U0001F600", true}, {"\uE000", "\U00010000", false},
		{"Z", "a", true}, {"/p/AGENTS.md", "/p/src/AGENTS.md", true},
	} {
		if got := utf16Less(tc.a, tc.b); got != tc.want {
			t.Errorf("utf16Less(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

func TestSystemPromptIsRemadeOnlyAfterACompactionOrAModelMove(t *testing.T) {
	s := mustNew(t, start("plan"), []string{"read"})
	steps := []struct {
		do   func() int
		want int
	}{
		{func() int { return mustUser(t, s).System }, 1},
		{func() int { mustSet(t, s, Change{Mode: str("plan"), Memory: str("x")}); return s.System() }, 1},
		{func() int { return mustUser(t, s).System }, 1},
		{func() int { return s.WrapUp().System }, 1},
		{func() int { return s.Compact().System }, 1}, // the summary request is the old prompt
		{func() int { return s.System() }, 2},
		{func() int { s.Model(); s.Model(); return s.System() }, 4},
		{func() int { return s.Compact().System }, 4},
		{func() int { return mustUser(t, s).System }, 5},
		{func() int { r, _ := s.Step(); return r.System }, 5},
	}
	for i, st := range steps {
		if got := st.do(); got != st.want {
			t.Errorf("step %d: system %d, want %d", i, got, st.want)
		}
	}
}

func TestARemadePromptHoldsWhatWasPending(t *testing.T) {
	date := func(d string) string { return block(tmpl.Date, map[string]string{"date": d}) }
	// A model move: the memory is in the new prompt; the conversation still says the date.
	s := mustNew(t, start("plan"), nil)
	mustUser(t, s)
	mustSet(t, s, Change{Memory: str("new"), Mode: str("plan")})
	s.Model()
	if got := mustUser(t, s).Note; got != "" {
		t.Errorf("after a model move: %q", got)
	}
	// A compaction: the same, but the date is said again — the new one if it changed.
	mustSet(t, s, Change{Memory: str("newer"), Date: str("2026-11-06")})
	s.Compact()
	if got, want := mustUser(t, s).Note, note(date("2026-11-06")); got != want {
		t.Errorf("after a compaction: %q, want %q", got, want)
	}
	// A date change pending at a model move is still said: the date is in no prompt.
	mustSet(t, s, Change{Date: str("2026-11-07")})
	s.Model()
	if got, want := mustUser(t, s).Note, note(date("2026-11-07")); got != want {
		t.Errorf("a date pending at a model move: %q, want %q", got, want)
	}
}

func TestWrapUpAndToolStepsCarryNoNote(t *testing.T) {
	s := mustNew(t, start(), []string{"read"})
	mustSet(t, s, Change{Memory: str("m")})
	if r, err := s.Step(); err != nil || r.Note != "" {
		t.Errorf("a tool step: %q, %v", r.Note, err)
	}
	if r := s.WrapUp(); r.Note != "" {
		t.Errorf("the wrap-up: %q", r.Note)
	}
	peek, err := s.Note()
	if err != nil || peek == "" {
		t.Fatalf("the pending note: %q, %v", peek, err)
	}
	if again, _ := s.Note(); again != peek {
		t.Errorf("Note changed the session: %q then %q", peek, again)
	}
	if r := mustUser(t, s); r.Note != peek {
		t.Errorf("the user message says %q, Note said %q", r.Note, peek)
	}
}

func TestAModeWithNoVendoredTextIsAnErrorNamingTheFile(t *testing.T) {
	s := mustNew(t, start("plan"), nil)
	mustUser(t, s)
	mustSet(t, s, Change{Mode: str("edit")})
	_, err := s.User()
	if err == nil || !strings.Contains(err.Error(), "prompts/modes/edit.md") {
		t.Fatalf("a person's move to edit: %v", err)
	}
	// The failed message sent nothing: the change is still pending, and undoing it clears it.
	mustSet(t, s, Change{Mode: str("manual")})
	if r := mustUser(t, s); r.Note != "" {
		t.Errorf("note %q", r.Note)
	}
	// The model's own move needs no text.
	mustSet(t, s, Change{ByModel: true, Mode: str("auto")})
	if r := mustUser(t, s); r.Note != "" {
		t.Errorf("note %q", r.Note)
	}
	for _, m := range []string{"", "plan.plan_dir", "manual"} {
		if _, err := ModeText(m); err == nil {
			t.Errorf("ModeText(%q): no error", m)
		}
	}
}

func TestNewRefusesASessionThatContradictsItself(t *testing.T) {
	for _, tc := range []struct {
		name  string
		st    Start
		tools []string
		want  string
	}{
		{"no date", Start{Mode: "manual"}, nil, "date"},
		{"no mode", Start{Date: "d"}, nil, "mode"},
		{"unknown requirement", Start{Date: "d", Mode: "manual", Could: []string{"gpu"}}, nil, "not a requirement"},
		{"could twice", Start{Date: "d", Mode: "manual", Could: []string{"page", "page"}}, nil, "twice"},
		{"met beyond could", Start{Date: "d", Mode: "manual", Could: []string{"page"}, Met: []string{"forge"}}, nil, "not among"},
		{"plan listed as met", Start{Date: "d", Mode: "manual", Could: []string{"plan"}, Met: []string{"plan"}}, nil, "plan mode"},
		{"plan mode it could not meet", Start{Date: "d", Mode: "plan"}, nil, "could"},
		{"a tool twice", Start{Date: "d", Mode: "manual"}, []string{"read", "read"}, "twice"},
		{"a tool with no name", Start{Date: "d", Mode: "manual"}, []string{""}, "no name"},
	} {
		if _, err := New(tc.st, tc.tools); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error about %q", tc.name, err, tc.want)
		}
	}
}

func TestARefusedSetChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Change
	}{
		{"the model sets the date", Change{ByModel: true, Date: str("x"), Memory: str("m")}},
		{"the model sets the personality", Change{ByModel: true, Personality: str("p")}},
		{"the model connects a server", Change{ByModel: true, MCP: map[string]string{"a": "b"}}},
		{"the model sets what is met", Change{ByModel: true, Met: []string{}}},
		{"met beyond could", Change{Memory: str("m"), Met: []string{"forge"}}},
		{"plan mode it could not meet", Change{Memory: str("m"), Mode: str("plan")}},
		{"an empty date", Change{Memory: str("m"), Date: str("")}},
	} {
		s := mustNew(t, start("display"), []string{"show"})
		mustUser(t, s)
		if err := s.Set(tc.c); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
		if n, _ := s.Note(); n != "" || s.Mode() != "manual" {
			t.Errorf("%s: the refused set changed the session: %q", tc.name, n)
		}
		if _, refused, _ := s.Call("show"); refused {
			t.Errorf("%s: the refused set changed what is met", tc.name)
		}
	}
}

func TestTheDateIsSaidFirstAndWhenItChanges(t *testing.T) {
	s := mustNew(t, start(), nil)
	var got []string
	for _, d := range []string{"", "2026-11-06", "2026-11-06", "2026-11-07", "2026-11-05"} {
		if d != "" {
			mustSet(t, s, Change{Date: str(d)})
		}
		got = append(got, mustUser(t, s).Note)
		got = append(got, mustUser(t, s).Note)
	}
	date := func(d string) string { return note(block(tmpl.Date, map[string]string{"date": d})) }
	want := []string{date("2026-11-05"), "", date("2026-11-06"), "", "", "", date("2026-11-07"), "", date("2026-11-05"), ""}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

// Definitions are decoded once, but a caller's are its own: changing one call's parameters
// leaves the next call's as the vendored file says.
func TestDefinitionsAreEachCallsOwn(t *testing.T) {
	first, err := Definitions([]string{"show"})
	if err != nil {
		t.Fatal(err)
	}
	first[0].Parameters["type"] = "changed"
	if props, ok := first[0].Parameters["properties"].(map[string]any); ok {
		props["added"] = true
	}
	again, err := Definitions([]string{"show"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := spec.ReadFile("tools/show.json")
	var want Definition
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again[0], want) {
		t.Errorf("after a caller changed its copy, Definitions gives %v, want the file's %v", again[0], want)
	}
}
