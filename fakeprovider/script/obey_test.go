package script

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// obeyed picks and obeys the answer to a chat request body.
func obeyed(t *testing.T, p *Picker, body string) (wire.Answer, []string) {
	t.Helper()
	q, e := wire.DecodeChat([]byte(body))
	if e != nil {
		t.Fatal(e)
	}
	pick, err := p.Next(q)
	if err != nil {
		t.Fatal(err)
	}
	return p.Obey(q, pick, wire.CountWords)
}

const readAndBash = `"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}},
	{"type":"function","function":{"name":"bash","parameters":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}}]`

func chatBody(extra string) string {
	return `{"model":"m","messages":[{"role":"user","content":"hi"}],` + readAndBash + extra + `}`
}

func names(a wire.Answer) string {
	var out []string
	for _, c := range a.ToolCalls {
		out = append(out, c.Name+" "+c.Arguments)
	}
	return strings.Join(out, "; ")
}

// tool_choice is obeyed by the default policy and by scripts: none never calls, required and a
// named tool always call, allowed_tools keeps to its list; parallel_tool_calls false makes one call.
func TestObeyToolChoice(t *testing.T) {
	twoCalls := func() *Picker {
		s, err := Parse("s.yaml", []byte(`- {text: "Looking.", tool_calls: [{name: read, arguments: {path: a}}, {name: bash, arguments: {command: ls}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return NewPicker(s)
	}
	for _, c := range []struct {
		name   string
		p      *Picker
		extra  string
		calls  string
		text   string
		noteOf string
	}{
		{"policy, none", NewPicker(Default()), `,"tool_choice":"none"`, "", "done", ""},
		{"policy, auto", NewPicker(Default()), ``, `read {"path":"README.md"}`, "", ""},
		{"policy, named bash", NewPicker(Default()), `,"tool_choice":{"type":"function","function":{"name":"bash"}}`, `bash {"command":"x"}`, "", "tool_choice naming bash requires a call"},
		{"script, none", twoCalls(), `,"tool_choice":"none"`, "", "Looking.", "does not allow it"},
		{"script, named", twoCalls(), `,"tool_choice":{"type":"function","function":{"name":"bash"}}`, `bash {"command":"ls"}`, "Looking.", "left out the call of read"},
		{"script, allowed", twoCalls(), `,"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[{"type":"function","function":{"name":"read"}}]}}`, `read {"path":"a"}`, "Looking.", "allowing only read"},
		{"script, serial", twoCalls(), `,"parallel_tool_calls":false`, `read {"path":"a"}`, "Looking.", "parallel_tool_calls is false"},
	} {
		a, notes := obeyed(t, c.p, chatBody(c.extra))
		if names(a) != c.calls || a.Text != c.text {
			t.Errorf("%s: calls %q text %q, want %q %q", c.name, names(a), a.Text, c.calls, c.text)
		}
		if c.noteOf != "" && !strings.Contains(strings.Join(notes, "; "), c.noteOf) {
			t.Errorf("%s: notes %q, want one with %q", c.name, notes, c.noteOf)
		}
	}
	// required with only a custom tool offered: its grammar's shortest text.
	q, _ := wire.DecodeResponses([]byte(`{"model":"m","input":"hi","tool_choice":"required","tools":[{"type":"custom","name":"math","format":{"type":"grammar","syntax":"lark","definition":"start: INT \" + \" INT\n%import common.INT"}}]}`))
	p := NewPicker(Default())
	pick, _ := p.Next(q)
	a, _ := p.Obey(q, pick, wire.CountWords)
	if len(a.ToolCalls) != 1 || !a.ToolCalls[0].Custom || a.ToolCalls[0].Arguments != "0 + 0" {
		t.Errorf("custom required: %+v", a)
	}
}

// A JSON format gets JSON: the policy's answer made from the schema, so it validates.
func TestObeyFormat(t *testing.T) {
	schema := `{"type":"object","properties":{"name":{"type":"string","minLength":3},"age":{"type":"integer","minimum":18},"tags":{"type":"array","items":{"type":"string"},"minItems":1},"kind":{"enum":["a","b"]},"ref":{"$ref":"#/$defs/r"}},"required":["name","age","tags","kind","ref"],"additionalProperties":false,"$defs":{"r":{"type":"boolean"}}}`
	a, _ := obeyed(t, NewPicker(Default()), `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"p","schema":`+schema+`}}}`)
	if a.Text != `{"name":"xxx","age":18,"tags":["x"],"kind":"a","ref":false}` {
		t.Errorf("json_schema: %s", a.Text)
	}
	a, _ = obeyed(t, NewPicker(Default()), `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_object"}}`)
	var v map[string]any
	if json.Unmarshal([]byte(a.Text), &v) != nil {
		t.Errorf("json_object: %q is not an object", a.Text)
	}
}

// max_tokens cuts the completion with finish reason length; stop cuts the text before the
// sequence; n gives choices.
func TestObeyLengthStopN(t *testing.T) {
	s, _ := Parse("s.yaml", []byte(`- {text: "one two six ten four five"}`))
	a, _ := obeyed(t, NewPicker(s), chatBody(`,"max_tokens":3`))
	if a.Text != "one two six" || a.Finish() != "length" {
		t.Errorf("max_tokens: %q %s", a.Text, a.Finish())
	}
	a, _ = obeyed(t, NewPicker(s), chatBody(`,"stop":["four"],"n":3`))
	if a.Text != "one two six ten " || a.Finish() != "stop" || a.Choices != 3 {
		t.Errorf("stop, n: %q %s %d", a.Text, a.Finish(), a.Choices)
	}
	long, _ := Parse("s.yaml", []byte(`- {reasoning: "r1 r2 r3", text: "t1 t2", tool_calls: [{name: bash, arguments: '{"command":"a b c d e f g h"}'}]}`))
	a, _ = obeyed(t, NewPicker(long), chatBody(`,"max_completion_tokens":4`))
	if a.Reasoning != "r1 r2 r3" || a.Text != "t1" || len(a.ToolCalls) != 0 || a.Finish() != "length" {
		t.Errorf("reasoning counts first: %+v", a)
	}
}

func TestGrammarInput(t *testing.T) {
	for _, c := range []struct{ syntax, grammar, want string }{
		{"lark", "start: expr\nexpr: term (SP ADD SP term)* -> add\n    | term\nterm: INT\nSP: \" \"\nADD: \"+\"\n%import common.INT", "0"},
		{"lark", "start: \"*** Begin Patch\" LF hunk+ \"*** End Patch\"\nhunk: \"*** Delete File: \" /(.+)/ LF\n%import common.LF", "*** Begin Patch\n*** Delete File: x\n*** End Patch"},
		{"lark", "start: [\"a\"] \"b\"~2 (\"cc\" | \"d\")", "bbd"},
		{"regex", `^\d{3}-[a-z]+$`, "000-a"},
		{"regex", `(yes|no)`, "no"},
		{"", "", "done"},
		{"lark", "start: unknown_rule", "done"},
	} {
		if got := GrammarInput(c.syntax, c.grammar); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.syntax, c.grammar, got, c.want)
		}
	}
}

// FuzzGrammarInput: any grammar gives a text, never a panic or a hang.
func FuzzGrammarInput(f *testing.F) {
	f.Add("lark", "start: a+\na: \"x\" | b\nb: a")
	f.Add("regex", `a{2,}b*`)
	f.Add("lark", "start: (\"a\"")
	f.Fuzz(func(t *testing.T, syntax, grammar string) {
		GrammarInput(syntax, grammar)
	})
}
