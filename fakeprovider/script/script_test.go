package script

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/google/go-cmp/cmp"
)

func tools(specs ...string) []wire.Tool {
	var out []wire.Tool
	for _, s := range specs {
		name, props, _ := strings.Cut(s, ":")
		t := wire.Tool{Name: name}
		if props != "" {
			t.Props = strings.Split(props, ",")
		}
		out = append(out, t)
	}
	return out
}

// The read tool is found whatever the agent named it, by its name and its path-like property.
func TestFindReadTool(t *testing.T) {
	for _, c := range []struct {
		tools   []wire.Tool
		want    ReadTool
		found   bool
		because string
	}{
		{tools("bash:command", "read:path,offset,limit", "edit:path,oldText"), ReadTool{"read", "path"}, true, "pi"},
		{tools("Read:file_path,offset", "Write:file_path,content"), ReadTool{"Read", "file_path"}, true, "Claude Code"},
		{tools("read_file:absolute_path", "shell:command"), ReadTool{"read_file", "absolute_path"}, true, "Gemini CLI"},
		{tools("view:path,view_range", "str_replace:path"), ReadTool{"view", "path"}, true, "an editor tool"},
		{tools("cat:filename"), ReadTool{"cat", "filename"}, true, "cat"},
		{tools("mcp__fs__read_text_file:path,head"), ReadTool{"mcp__fs__read_text_file", "path"}, true, "an MCP server's, by 'read' in its name"},
		{tools("write:path,content", "read-file:target_file"), ReadTool{"read-file", "target_file"}, true, "dashes and Cursor's property"},
		{tools("readDocs:query", "read:"), ReadTool{}, false, "a read tool with no path property is not one"},
		{tools("bash:command", "grep:pattern,path"), ReadTool{}, false, "grep has a path but does not read a file"},
		{nil, ReadTool{}, false, "no tools"},
		{tools("read_many_files:paths", "open_file:uri", "read:path"), ReadTool{"read", "path"}, true, "the best-known name wins"},
		{tools("ReadFile:file", "read_file:path"), ReadTool{"read_file", "path"}, true, "names compare without case and separators; the better path property breaks a tie"},
		{tools("ReadFile:path", "read_file:path"), ReadTool{"ReadFile", "path"}, true, "then the first offered wins"},
	} {
		got, ok := FindReadTool(c.tools)
		if ok != c.found || got != c.want {
			t.Errorf("%s: got %+v %v, want %+v %v", c.because, got, ok, c.want, c.found)
		}
	}
}

func req(toolResults int, last bool, user string, ts ...wire.Tool) *wire.Request {
	return &wire.Request{Messages: 1 + toolResults, ToolResults: toolResults, ResultsSinceUser: toolResults, LastIsToolResult: last, LastUserText: user, Tools: ts}
}

var piTools = tools("read:path,offset,limit", "bash:command")

// Without a script: read README.md while no tool result came back, then say done.
func TestDefaultPolicy(t *testing.T) {
	p := NewPicker(Default())
	first, err := p.Next(req(0, false, "hi", piTools...))
	if err != nil {
		t.Fatal(err)
	}
	want := wire.Answer{ToolCalls: []wire.ToolCall{{ID: "call_1_0", Name: "read", Arguments: `{"path":"README.md"}`}}}
	if d := cmp.Diff(want, first.Answer); d != "" {
		t.Errorf("first: (-want +got)\n%s", d)
	}
	second, _ := p.Next(req(1, true, "hi", piTools...))
	if second.Answer.Text != "done" || len(second.Answer.ToolCalls) != 0 || second.N != 2 || second.Source != "default" {
		t.Errorf("second: %+v", second)
	}
	// An agent offering no read tool is answered at once.
	third, _ := p.Next(req(0, false, "hi", tools("bash:command")...))
	if third.Answer.Text != "done" {
		t.Errorf("no read tool: %+v", third.Answer)
	}
}

func TestPickerOrderRulesAndRunningOut(t *testing.T) {
	s, err := Parse("session.yaml", []byte(`
replies:
  - text: one
  - read: notes.md
  - text: three
rules:
  - when: {user_matches: "^stop"}
    reply: {text: stopped}
  - when: {tool_result: true}
    times: 1
    reply: {text: got the result}
`))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPicker(s)
	steps := []struct {
		r      *wire.Request
		text   string
		call   string
		source string
	}{
		{req(0, false, "go", piTools...), "one", "", "reply 1 (line 3)"},
		{req(0, false, "stop now"), "stopped", "", "rule 1 (line 7)"},
		{req(0, false, "go", piTools...), "", `read {"path":"notes.md"}`, "reply 2 (line 4)"},
		{req(1, true, "go", piTools...), "got the result", "", "rule 2 (line 9)"},
		{req(2, true, "go", piTools...), "three", "", "reply 3 (line 5)"}, // rule 2 fired its once
	}
	for i, st := range steps {
		got, err := p.Next(st.r)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		call := ""
		if len(got.Answer.ToolCalls) > 0 {
			call = got.Answer.ToolCalls[0].Name + " " + got.Answer.ToolCalls[0].Arguments
		}
		if got.Answer.Text != st.text || call != st.call || got.Source != st.source || got.N != i+1 {
			t.Errorf("step %d: got %q %q %q n=%d; want %q %q %q", i, got.Answer.Text, call, got.Source, got.N, st.text, st.call, st.source)
		}
	}
	_, err = p.Next(req(0, false, "go"))
	var ro *RanOut
	if !errors.As(err, &ro) || ro.N != 6 || ro.Script != "session.yaml" {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "script session.yaml ran out at request 6") {
		t.Errorf("message %q", err)
	}
	// A rule still answers after the list ran out.
	if got, err := p.Next(req(0, false, "stop")); err != nil || got.Answer.Text != "stopped" {
		t.Errorf("rule after running out: %+v %v", got, err)
	}
}

func TestReadWithoutTool(t *testing.T) {
	s, _ := Parse("s.yaml", []byte("- read: a.md\n"))
	_, err := NewPicker(s).Next(req(0, false, "x", tools("bash:command", "grep:pattern")...))
	var nr *NoReadTool
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "offers tools bash, grep, none of which reads a file") || !strings.Contains(err.Error(), "reply 1 (line 1)") {
		t.Errorf("got %v", err)
	}
}

// Concurrent requests each get a reply of their own, none twice.
func TestPickerConcurrent(t *testing.T) {
	var src strings.Builder
	for i := 0; i < 200; i++ {
		src.WriteString("- text: r\n")
	}
	s, _ := Parse("s.yaml", []byte(src.String()))
	p := NewPicker(s)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{}
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				pk, err := p.Next(req(0, false, "x"))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[pk.Source] {
					t.Errorf("%s served twice", pk.Source)
				}
				seen[pk.Source] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 200 {
		t.Errorf("%d replies served", len(seen))
	}
}

// tool_results counts the rounds of an agent's tool calls; input_matches reads every message.
func TestRuleRoundsAndInput(t *testing.T) {
	s, err := Parse("r.yaml", []byte(`
rules:
  - when: {tool_results: 0}
    reply: {text: first}
  - when: {tool_results: 2, input_matches: "(?m)^secret$"}
    reply: {text: third}
  - when: {tool_results: 2}
    reply: {text: third-no-secret}
default: {}
`))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPicker(s)
	body := func(n int, extra string) *wire.Request {
		msgs := `{"role":"user","content":"go"}` + extra
		for i := 0; i < n; i++ {
			msgs += `,{"role":"tool","tool_call_id":"c","content":"r"}`
		}
		q, e := wire.DecodeChat([]byte(`{"model":"m","messages":[` + msgs + `]}`))
		if e != nil {
			t.Fatal(e)
		}
		return q
	}
	for _, c := range []struct {
		q    *wire.Request
		want string
	}{{body(0, ""), "first"}, {body(1, ""), "done"}, {body(2, `,{"role":"user","content":"secret"}`), "third"}, {body(2, ""), "third-no-secret"}} {
		pk, _ := p.Next(c.q)
		if pk.Answer.Text != c.want {
			t.Errorf("%d results: %q, want %q", c.q.ToolResults, pk.Answer.Text, c.want)
		}
	}
}

// TestPickerTimesConcurrently: with the rules matched before the picker's lock, a rule of
// `times: 3` still fires exactly three times when many requests pick at once.
func TestPickerTimesConcurrently(t *testing.T) {
	s, err := Parse("times.yaml", []byte(`
rules:
  - when: {user_matches: "go"}
    times: 3
    reply: {text: limited}
  - when: {user_matches: "go"}
    reply: {text: always}
`))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPicker(s)
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pk, err := p.Next(req(0, false, "go"))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			got[pk.Answer.Text+" "+pk.Source]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	want := map[string]int{"limited rule 1 (line 3)": 3, "always rule 2 (line 6)": 61}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
}
