package script

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const sessionYAML = `# a session
models: [fake-model, other]
replies:
  - text: "Hello!"
    chunk: 2
    delay: 50ms
    interval: 1ms
  - reasoning: "Let me look."
    tool_calls:
      - name: read
        arguments: {path: README.md, limit: 10, opts: [a, true]}
      - id: call_x
        name: bash
        arguments: '{"command": "ls"'
  - read: docs/a.md
    keepalive: 1s
  - fault: {status: 429, retry_after: 2, message: slow down}
  - fault: {drop_after: 3}
  - text: half
    fault: {malformed_at: 2, stall: 2s, stall_after: 1}
  - fault: {stall: forever}
  - text: ""
    finish_reason: length
rules:
  - when: {tool_result: true, tool_offered: read}
    times: 1
    reply: {text: "read it"}
  - when: {user_matches: "(?i)^bye"}
    reply: {text: bye}
default: {read: README.md, answer: finished}
`

func TestParseYAML(t *testing.T) {
	s, err := Parse("session.yaml", []byte(sessionYAML))
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	want := &Script{
		Name:   "session.yaml",
		Models: []string{"fake-model", "other"},
		Replies: []Reply{
			{Line: 4, Text: "Hello!", Chunk: 2, Delay: 50 * time.Millisecond, Interval: time.Millisecond},
			{Line: 8, Reasoning: "Let me look.", ToolCalls: []wire.ToolCall{
				{Name: "read", Arguments: `{"path":"README.md","limit":10,"opts":["a",true]}`},
				{ID: "call_x", Name: "bash", Arguments: `{"command": "ls"`},
			}},
			{Line: 15, Read: "docs/a.md", KeepAlive: time.Second},
			{Line: 17, Fault: &Fault{Status: 429, RetryAfter: "2", Message: "slow down"}},
			{Line: 18, Text: "this reply is cut short on purpose", Fault: &Fault{Drop: true, DropAfter: 3}},
			{Line: 19, Text: "half", Fault: &Fault{MalformedAt: 2, Stall: 2 * time.Second, StallAfter: 1}},
			{Line: 21, Text: "this reply is cut short on purpose", Fault: &Fault{StallForever: true}},
			{Line: 22, FinishReason: "length"},
		},
		Rules: []Rule{
			{Line: 25, ToolResult: &yes, ToolOffered: "read", Times: 1, Reply: Reply{Line: 27, Text: "read it"}},
			{Line: 28, UserMatches: regexp.MustCompile("(?i)^bye"), Reply: Reply{Line: 29, Text: "bye"}},
		},
		Default: &Policy{Read: "README.md", Answer: "finished", Line: 30},
	}
	if d := cmp.Diff(want, s, cmp.Comparer(func(a, b *regexp.Regexp) bool {
		return (a == nil) == (b == nil) && (a == nil || a.String() == b.String())
	})); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

// A JSON script reads the same as its YAML twin, tabs and all.
func TestParseJSON(t *testing.T) {
	j := "{\n\t\"replies\": [\n\t\t{\"text\": \"hi\", \"delay\": \"10ms\"},\n\t\t{\"tool_calls\": [{\"name\": \"read\", \"arguments\": {\"path\": \"x\"}}]}\n\t],\n\t\"default\": {}\n}\n"
	s, err := Parse("s.json", []byte(j))
	if err != nil {
		t.Fatal(err)
	}
	y, err := Parse("s.yaml", []byte("replies:\n  - {text: hi, delay: 10ms}\n  - tool_calls: [{name: read, arguments: {path: x}}]\ndefault: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(y, s, cmpopts.IgnoreFields(Script{}, "Name"), cmpopts.IgnoreFields(Reply{}, "Line"), cmpopts.IgnoreFields(Policy{}, "Line")); d != "" {
		t.Errorf("(-yaml +json)\n%s", d)
	}
	if s.Default.Read != "README.md" || s.Default.Answer != "done" {
		t.Errorf("an empty default is read README.md, answer done: %+v", s.Default)
	}
}

func TestParseBareList(t *testing.T) {
	s, err := Parse("l.yaml", []byte("- text: one\n- text: two\n"))
	if err != nil || len(s.Replies) != 2 || s.Replies[1].Text != "two" {
		t.Fatalf("%+v %v", s, err)
	}
}

// Every mistake names the file, the line and column, and what to do.
func TestParseErrors(t *testing.T) {
	for name, c := range map[string]struct{ src, want string }{
		"empty":             {"", "s.yaml: the script is empty"},
		"comment only":      {"# nothing\n", "the script is empty"},
		"unknown top key":   {"replies: []\ncolour: red\n", "s.yaml:2:1: script: unknown key \"colour\" (known: models, replies, rules, default, compaction)"},
		"unknown reply key": {"replies:\n  - text: hi\n    txet: ho\n", "s.yaml:3:5: replies[0]: unknown key \"txet\""},
		"text not string":   {"replies:\n  - text: 42\n", "s.yaml:2:11: replies[0].text: want a string, got int 42 (quote it"},
		"duplicate key":     {"replies:\n  - text: a\n    text: b\n", "s.yaml:3:5: replies[0]: key \"text\" given twice"},
		"says nothing":      {"replies:\n  - delay: 1s\n", "s.yaml:2:5: replies[0]: the reply says nothing"},
		"bad duration":      {"replies:\n  - text: a\n    delay: 5\n", "s.yaml:3:12: replies[0].delay: want a duration such as 250ms"},
		"negative chunk":    {"replies:\n  - text: a\n    chunk: -1\n", "replies[0].chunk: want a whole number of at least 0, got -1"},
		"bad regexp":        {"rules:\n  - when: {user_matches: \"(\"}\n    reply: {text: a}\n", "s.yaml:2:26: rules[0].when.user_matches: error parsing regexp"},
		"rule no when":      {"rules:\n  - reply: {text: a}\n", "s.yaml:2:5: rules[0]: a rule needs `when`"},
		"rule empty when":   {"rules:\n  - when: {}\n    reply: {text: a}\n", "rules[0].when: give at least one condition"},
		"rule no reply":     {"rules:\n  - when: {tool_result: true}\n", "rules[0]: a rule needs `reply`"},
		"tool_result str":   {"rules:\n  - when: {tool_result: yes please}\n    reply: {text: a}\n", "rules[0].when.tool_result: want true or false"},
		"times zero":        {"rules:\n  - when: {tool_result: true}\n    times: 0\n    reply: {text: a}\n", "rules[0].times: want a whole number of at least 1"},
		"status and text":   {"replies:\n  - text: a\n    fault: {status: 500}\n", "replies[0]: a fault with a status answers with an error body only"},
		"status and drop":   {"replies:\n  - fault: {status: 500, drop_after: 1}\n", "replies[0].fault: a fault is either a status"},
		"status too low":    {"replies:\n  - fault: {status: 200}\n", "replies[0].fault.status: want a whole number of at least 400"},
		"status too high":   {"replies:\n  - fault: {status: 600}\n", "replies[0].fault.status: want an HTTP error status"},
		"empty fault":       {"replies:\n  - fault: {}\n", "replies[0].fault: say what goes wrong"},
		"message no status": {"replies:\n  - fault: {drop_after: 1, message: x}\n", "replies[0].fault.message: only a fault with a status"},
		"retry no status":   {"replies:\n  - fault: {drop_after: 1, retry_after: 2}\n", "retry_after: only a fault with a status"},
		"stall_after alone": {"replies:\n  - fault: {drop_after: 1, stall_after: 2}\n", "stall_after: give stall too"},
		"stall zero":        {"replies:\n  - fault: {stall: 0s}\n", "stall: give a duration above 0, or forever"},
		"keepalive zero":    {"replies:\n  - text: a\n    keepalive: 0s\n", "keepalive: a period of 0"},
		"call no name":      {"replies:\n  - tool_calls: [{arguments: {}}]\n", "replies[0].tool_calls[0]: a tool call needs `name`"},
		"call unknown key":  {"replies:\n  - tool_calls: [{name: a, args: {}}]\n", "replies[0].tool_calls[0]: unknown key \"args\""},
		"replies mapping":   {"replies: {text: a}\n", "s.yaml:1:10: replies: want a list, got a mapping"},
		"models number":     {"models: [3]\nreplies: [{text: a}]\n", "models[0]: want a string"},
		"nothing to answer": {"models: [a]\n", "could answer nothing"},
		"default unknown":   {"default: {read: a, say: b}\n", "default: unknown key \"say\""},
		"read empty":        {"replies:\n  - read: \"\"\n", "replies[0].read: name the file"},
		"yaml syntax":       {"replies:\n  - text: [unclosed\n", "s.yaml: line"},
		"json syntax":       {"{\n  \"replies\": [\n    {\"text\": \"a\",}\n  ]\n}", "s.yaml:3:18: not valid JSON: invalid character '}'"},
		"json cut":          {"{\"replies\": [", "s.yaml:1:14: not valid JSON: unexpected end of JSON input"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("s.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("no error; want %q", c.want)
			}
			var se *Error
			if !errors.As(err, &se) || se.File != "s.yaml" {
				t.Fatalf("%T %v: want a *script.Error naming the file", err, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got  %s\nwant %s", err, c.want)
			}
		})
	}
}

// aliasBomb is a script whose aliases repeat each other: n levels of 10, 10^n values.
func aliasBomb(n int) []byte {
	src := "replies:\n  - tool_calls:\n    - name: a0\n      arguments: &a0 [" + strings.TrimSuffix(strings.Repeat("x,", 10), ",") + "]\n"
	for i := 1; i < n; i++ {
		prev := fmt.Sprintf("*a%d,", i-1)
		src += fmt.Sprintf("    - name: a%d\n      arguments: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(prev, 10), ","))
	}
	return []byte(src)
}

// Aliases that repeat each other are bounded, not expanded without end (10^8 values here); under
// the bound they are expanded. How long the refusal takes is BenchmarkParseAliasBomb's (this test
// had a 5 s bound, which the decoder's count of a million nodes passed under -race on a busy
// machine: 13 to 26 s).
func TestParseAliasBomb(t *testing.T) {
	if _, err := Parse("bomb.yaml", aliasBomb(8)); err == nil || !strings.Contains(err.Error(), "too large once its aliases are expanded") {
		t.Fatalf("got %v", err)
	}
	s, err := Parse("small.yaml", aliasBomb(3))
	if err != nil {
		t.Fatal(err)
	}
	if args := s.Replies[0].ToolCalls[2].Arguments; strings.Count(args, "x") != 1000 {
		t.Errorf("the last call's arguments hold %d x, want 1000", strings.Count(args, "x"))
	}
}

func BenchmarkParseAliasBomb(b *testing.B) {
	src := aliasBomb(8)
	for b.Loop() {
		if _, err := Parse("bomb.yaml", src); err == nil {
			b.Fatal("the bomb was parsed")
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "session.yaml")
	os.WriteFile(p, []byte("replies:\n  - text: hi\n  - txt: no\n"), 0o644)
	_, err := Load(p)
	if err == nil || !strings.HasPrefix(err.Error(), "session.yaml:3:5: replies[1]: unknown key \"txt\"") {
		t.Errorf("got %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzParse: any bytes give a script or a *script.Error, never a panic or a hang; a script that
// parses has something to answer with and faults that make sense.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sessionYAML))
	f.Add([]byte(`{"replies":[{"text":"a","fault":{"drop_after":0}}],"rules":[{"when":{"tool_result":false},"reply":{"read":"x"}}]}`))
	f.Add([]byte("- text: a\n- fault: {stall: forever, stall_after: 3}\n"))
	f.Add([]byte("default: {}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("f.yaml", data)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		if len(s.Replies) == 0 && len(s.Rules) == 0 && s.Default == nil {
			t.Fatal("a script that can answer nothing")
		}
		all := append([]Reply(nil), s.Replies...)
		for _, r := range s.Rules {
			all = append(all, r.Reply)
			if r.ToolResult == nil && r.ToolOffered == "" && r.UserMatches == nil {
				t.Fatal("a rule without conditions")
			}
		}
		for _, r := range all {
			if f := r.Fault; f != nil {
				stream := f.Drop || f.MalformedAt > 0 || f.Stalls()
				if (f.Status != 0) == stream {
					t.Fatalf("fault %+v is both or neither", f)
				}
				if f.Status != 0 && (f.Status < 400 || f.Status > 599) {
					t.Fatalf("status %d", f.Status)
				}
			}
			if r.Chunk < 0 || r.Delay < 0 || r.Interval < 0 {
				t.Fatalf("negative %+v", r)
			}
		}
	})
}
