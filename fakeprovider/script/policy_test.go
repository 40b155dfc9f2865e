package script

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// calls runs the policy over one prompt the way an agent would: each call's result comes back
// in the next request, until the policy answers. It returns the calls made.
func calls(t *testing.T, p *Picker, ts []wire.Tool, before int) []wire.ToolCall {
	t.Helper()
	var out []wire.ToolCall
	for k := 0; k < 10; k++ {
		pk, err := p.Next(&wire.Request{ToolResults: before + k, ResultsSinceUser: k, CallsInARow: k, LastIsToolResult: k > 0, Tools: ts})
		if err != nil {
			t.Fatal(err)
		}
		if len(pk.Answer.ToolCalls) == 0 {
			if pk.Answer.Text != "done" {
				t.Fatalf("answer %q", pk.Answer.Text)
			}
			return out
		}
		out = append(out, pk.Answer.ToolCalls...)
	}
	t.Fatal("the policy never answers")
	return nil
}

func profilePolicy(shapes ...ToolShape) *Picker {
	return NewPicker(&Script{Name: "profile", Default: &Policy{Read: "README.md", Then: []string{"NOTES.md"}, Answer: "done", Dir: "/work/s 1", Tools: shapes}})
}

// A profile's policy reads each file in turn, in the agent's own tool shape and with absolute
// paths, and starts again for the person's next words: 3 requests per prompt.
func TestPolicyDrivesEachAgentsOwnTool(t *testing.T) {
	for _, c := range []struct {
		name   string
		shapes []ToolShape
		tools  []wire.Tool
		want   []string
	}{
		{"cline: a nested path", []ToolShape{{Name: "read_files", Arguments: json.RawMessage(`{"files":[{"path":"{path}"}]}`)}},
			tools("read_files:files", "run_commands:commands"),
			[]string{`read_files {"files":[{"path":"/work/s 1/README.md"}]}`, `read_files {"files":[{"path":"/work/s 1/NOTES.md"}]}`}},
		{"codex: a shell command, the path quoted", []ToolShape{{Name: "exec_command", Arguments: json.RawMessage(`{"cmd":"cat {qpath}"}`)}},
			tools("exec_command:cmd,workdir", "view_image:path"),
			[]string{`exec_command {"cmd":"cat '/work/s 1/README.md'"}`, `exec_command {"cmd":"cat '/work/s 1/NOTES.md'"}`}},
		{"codex 0.171: its exec custom tool, JavaScript that runs exec_command", []ToolShape{{Name: "exec", Input: `text((await tools.exec_command({cmd: "cat {qpath}"})).output);`}},
			[]wire.Tool{{Name: "exec", Custom: true}, {Name: "wait"}},
			[]string{`exec text((await tools.exec_command({cmd: "cat '/work/s 1/README.md'"})).output);`, `exec text((await tools.exec_command({cmd: "cat '/work/s 1/NOTES.md'"})).output);`}},
		{"qwen-code: found by name, made absolute", nil,
			tools("list_directory:path", "read_file:file_path,offset"),
			[]string{`read_file {"file_path":"/work/s 1/README.md"}`, `read_file {"file_path":"/work/s 1/NOTES.md"}`}},
		{"a shape not offered falls back to the name", []ToolShape{{Name: "exec_command", Arguments: json.RawMessage(`{"cmd":"cat {qpath}"}`)}},
			tools("read:path"),
			[]string{`read {"path":"/work/s 1/README.md"}`, `read {"path":"/work/s 1/NOTES.md"}`}},
	} {
		p := profilePolicy(c.shapes...)
		for prompt := 0; prompt < 2; prompt++ {
			var got []string
			for _, call := range calls(t, p, c.tools, 2*prompt) {
				got = append(got, call.Name+" "+call.Arguments)
				if custom := len(c.shapes) > 0 && c.shapes[0].Input != ""; call.Custom != custom {
					t.Errorf("%s: a call of %s with Custom %v", c.name, call.Name, call.Custom)
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("%s, prompt %d:\n got %q\nwant %q", c.name, prompt+1, got, c.want)
			}
		}
	}
}

// An agent that adds a user message after every tool result (a reminder) still gets its answer:
// the policy makes at most as many calls in a row as it has files.
func TestPolicyAnswersAnAgentThatRemindsAfterEachResult(t *testing.T) {
	p := profilePolicy()
	n := 0
	for ; n < 10; n++ {
		pk, _ := p.Next(&wire.Request{ToolResults: n, ResultsSinceUser: 0, CallsInARow: n, Tools: tools("read:path")})
		if len(pk.Answer.ToolCalls) == 0 {
			break
		}
	}
	if n != 2 {
		t.Errorf("%d calls before the answer, want 2", n)
	}
}

// Tools offered, none usable: the agent is answered at once and the pick says why, once.
func TestPolicyWarnsWhenNoToolReads(t *testing.T) {
	p := profilePolicy()
	first, _ := p.Next(&wire.Request{Tools: tools("bash:command", "grep:pattern,path")})
	if first.Answer.Text != "done" || !strings.Contains(first.Warning, "request 1 offers the tools bash, grep") || !strings.Contains(first.Warning, "profile") {
		t.Errorf("first: %+v", first)
	}
	second, _ := p.Next(&wire.Request{Tools: tools("bash:command")})
	if second.Warning != "" {
		t.Errorf("warned twice: %q", second.Warning)
	}
	// A request with no tools at all (a title request) is no reason to warn.
	q := profilePolicy()
	if pk, _ := q.Next(&wire.Request{}); pk.Warning != "" || pk.Answer.Text != "done" {
		t.Errorf("no tools: %+v", pk)
	}
}

// The policy's answer is the request's own: asked the same twice, it answers the same, whatever
// came in between (a request answered at once, another conversation's calls).
func TestPolicyAnswersTheSameRequestTheSame(t *testing.T) {
	p := profilePolicy()
	q := &wire.Request{Tools: tools("read:path")}
	first, _ := p.Next(q)
	if len(first.Answer.ToolCalls) != 1 {
		t.Fatalf("the first request answered %+v", first.Answer)
	}
	for i := 2; i <= 4; i++ {
		p.Next(&wire.Request{ToolResults: 1, ResultsSinceUser: 1, CallsInARow: 1, Tools: tools("read:path")})
		again, _ := p.Next(q)
		if len(again.Answer.ToolCalls) != 1 || again.Answer.ToolCalls[0].Arguments != first.Answer.ToolCalls[0].Arguments {
			t.Errorf("the same request answered %+v, then %+v the %dth time", first.Answer, again.Answer, i)
		}
	}
}
