package conformance

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

const prefixOK = `{"start":{"date":"2026-11-05","mode":"manual","could":["plan","display"]},"tools":["read","show"],"steps":[%s]}`

func prefixWith(steps string) string { return strings.Replace(prefixOK, "%s", steps, 1) }

func TestPrefixDecodeNamesTheFieldOfAMalformedCase(t *testing.T) {
	for _, tc := range []struct {
		name, raw, field, words string
	}{
		{"no start", `{"tools":[],"steps":[{"op":"user"}]}`, "start", "missing"},
		{"no date", `{"start":{"mode":"manual","could":[]},"tools":[],"steps":[{"op":"user"}]}`, "start.date", "missing"},
		{"null plan", `{"start":{"date":"d","mode":"manual","could":[],"plan":null},"tools":[],"steps":[{"op":"user"}]}`, "start.plan", "null"},
		{"files not texts", `{"start":{"date":"d","mode":"manual","could":[],"files":{"/a":1}},"tools":[],"steps":[{"op":"user"}]}`, "start.files", "want"},
		{"no could", `{"start":{"date":"d","mode":"manual"},"tools":[],"steps":[{"op":"user"}]}`, "start.could", "missing"},
		{"unknown requirement", `{"start":{"date":"d","mode":"manual","could":["gpu"]},"tools":[],"steps":[{"op":"user"}]}`, "start.could[0]", "not a requirement"},
		{"met plan", `{"start":{"date":"d","mode":"manual","could":["plan"],"met":["plan"]},"tools":[],"steps":[{"op":"user"}]}`, "start.met[0]", "plan mode"},
		{"met beyond could", `{"start":{"date":"d","mode":"manual","could":[],"met":["page"]},"tools":[],"steps":[{"op":"user"}]}`, "start.met[0]", "start.could"},
		{"plan mode without plan", `{"start":{"date":"d","mode":"plan","could":[]},"tools":[],"steps":[{"op":"user"}]}`, "start.could", "plan mode"},
		{"unknown start field", `{"start":{"date":"d","mode":"manual","could":[],"zone":"UTC"},"tools":[],"steps":[{"op":"user"}]}`, "zone", "unknown"},
		{"no tools", `{"start":{"date":"d","mode":"manual","could":[]},"steps":[{"op":"user"}]}`, "tools", "missing"},
		{"a tool twice", `{"start":{"date":"d","mode":"manual","could":[]},"tools":["read","read"],"steps":[{"op":"user"}]}`, "tools[1]", "twice"},
		{"no steps", prefixWith(``), "steps", "empty"},
		{"unknown op", prefixWith(`{"op":"user"},{"op":"undo"}`), "steps[1].op", "want one of user, tool, set, call, compact, wrapup, model"},
		{"call without tool", prefixWith(`{"op":"call"}`), "steps[0].tool", "missing"},
		{"call of another tool", prefixWith(`{"op":"call","tool":"grep"}`), "steps[0].tool", "not one of the case's tools"},
		{"call of a tool left out", `{"start":{"date":"d","mode":"manual","could":[]},"tools":["show"],"steps":[{"op":"call","tool":"show"}]}`, "steps[0].tool", "not offered"},
		{"tool on a user step", prefixWith(`{"op":"user","tool":"read"}`), "steps[0].tool", "only a call"},
		{"a change on a user step", prefixWith(`{"op":"user","memory":"m"}`), "steps[0].memory", "only a set"},
		{"an empty set", prefixWith(`{"op":"set"}`), "steps[0]", "at least one"},
		{"by someone else", prefixWith(`{"op":"set","by":"person","memory":"m"}`), "steps[0].by", "model"},
		{"the model sets the date", prefixWith(`{"op":"set","by":"model","date":"d"}`), "steps[0].date", "not the model's"},
		{"a set of plan mode it could not meet", `{"start":{"date":"d","mode":"manual","could":[]},"tools":[],"steps":[{"op":"set","mode":"plan"}]}`, "steps[0].mode", "could"},
		{"met not a list", prefixWith(`{"op":"set","met":"display"}`), "steps[0].met", "want a list"},
		{"an empty file key", prefixWith(`{"op":"set","files":{"":"x"}}`), "steps[0].files", "empty"},
		{"a call in the wrap-up's reply", prefixWith(`{"op":"user"},{"op":"wrapup"},{"op":"compact"},{"op":"call","tool":"read"}`), "steps[3].op", "not run"},
		{"a tool step in the wrap-up's reply", prefixWith(`{"op":"wrapup"},{"op":"tool"}`), "steps[1].op", "not run"},
	} {
		_, err := Prefix.Decode(json.RawMessage(tc.raw))
		fe, ok := err.(*FieldError)
		if !ok {
			t.Errorf("%s: %v, want a FieldError", tc.name, err)
			continue
		}
		if fe.Field != tc.field || !strings.Contains(fe.Msg, tc.words) {
			t.Errorf("%s: field %q: %s; want field %q saying %q", tc.name, fe.Field, fe.Msg, tc.field, tc.words)
		}
	}
	if _, err := Prefix.Decode(json.RawMessage(prefixWith(`{"op":"user"},{"op":"wrapup"},{"op":"user"},{"op":"call","tool":"show"},{"op":"set","by":"model","files":{},"mode":"plan"}`))); err != nil {
		t.Errorf("a well-formed case: %v", err)
	}
}

func TestPrefixAnswerShapeRoundTrips(t *testing.T) {
	text := "Nothing."
	note := "<session-note>\nx\n</session-note>"
	a := prefixAnswer{
		{Request: &prefixRequest{System: 1, Tools: []string{"read"}, Note: &note}},
		{Request: &prefixRequest{System: 1}},
		{},
		{Text: &text},
		{Compact: &prefixCompaction{System: 2, Tools: []string{}, Ask: "ask"}},
	}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"system":1,"tools":["read"],"note":"<session-note>\nx\n</session-note>"},{"system":1,"tools":[],"note":null},null,"Nothing.",{"system":2,"tools":[],"ask":"ask"}]`
	if d := Diff([]byte(want), b); d != "" || !strings.Contains(string(b), `"tools":[],"note":null}`) {
		t.Fatalf("marshalled\n%s\nwant\n%s\n%s", b, want, d)
	}
	// As a report shows it: the note's < and > as written, byte for byte (until 2026-12 each
	// step was marshalled by encoding/json and read \u003csession-note\u003e).
	if shown, err := jsonx.Marshal(a); err != nil || string(shown) != want {
		t.Errorf("jsonx.Marshal: %s (%v)\nwant %s", shown, err, want)
	}
	back, err := Prefix.DecodeAnswer(b)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(b) {
		t.Errorf("decoded and marshalled again: %s", again)
	}
}

func TestPrefixDecodeAnswerNamesTheFieldOfAMalformedExpectation(t *testing.T) {
	for _, tc := range []struct{ raw, field, words string }{
		{`null`, "", "want a list"},
		{`[{"system":1,"tools":[]}]`, "[0].note", "missing"},
		{`[null,{"system":0,"tools":[],"note":null}]`, "[1].system", "1 or more"},
		{`[{"system":1,"tools":null,"note":null}]`, "[0].tools", "[] for none"},
		{`[{"system":1,"tools":[],"note":null,"cached":3}]`, "[0].cached", "unknown"},
		{`[{"system":1,"tools":[],"ask":"a","note":null}]`, "[0].note", "unknown"},
		{`[{"system":1,"tools":[],"ask":7}]`, "[0].ask", "text"},
		{`[{"system":1,"tools":[],"note":7}]`, "[0].note", "text"},
		{`[true]`, "[0]", "want null, a text"},
	} {
		_, err := Prefix.DecodeAnswer(json.RawMessage(tc.raw))
		fe, ok := err.(*FieldError)
		if !ok || fe.Field != tc.field || !strings.Contains(fe.Msg, tc.words) {
			t.Errorf("%s: %v; want field %q saying %q", tc.raw, err, tc.field, tc.words)
		}
	}
}

func TestPrefixSeedsIncludeTheSpecsCases(t *testing.T) {
	b, err := fs.ReadFile(spec.Conformance(), "prefix.json")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := ParseFile("prefix.json", b, Prefix)
	if err != nil || len(cases) != 8 {
		t.Fatalf("%d cases, %v", len(cases), err)
	}
}

// TestChatCasesFailAnAgentSession: each case of a chat (start.chat) fails a reference that reads
// the session as an agent's — plan_ended and plan_own never said — by an answer that differs or
// a refusal (an agent session has no text for a mode other than plan).
func TestChatCasesFailAnAgentSession(t *testing.T) {
	cases, err := Load(EmbeddedSuites(), All())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		pc, ok := c.Decoded.(PrefixCase)
		if !ok || !pc.Start.Chat.V {
			continue
		}
		n++
		agent := *pc.Start
		agent.Chat = opt[bool]{}
		pc.Start = &agent
		got, err := answerPrefix(pc)
		if err != nil {
			continue
		}
		b, _ := json.Marshal(got)
		if Diff(c.Expect, b) == "" {
			t.Errorf("%s (%s): an agent session's answer passes it", c.ID, c.About)
		}
	}
	if n < 4 {
		t.Errorf("%d chat cases, want the 4 of cases/prefix.json at least", n)
	}
}
