package live

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/syncbuf"
	"github.com/LLeMbas/lembas-check/runner"
)

// fakeRPCAgent is the test binary as an RPC agent (LIVE_TEST_AGENT=rpc): for each prompt it
// sends the fake one request, its system prompt naming its process, and ends the prompt as pi
// does (a response, then agent_end). LIVE_TEST_RPC says how it misbehaves: garbage (a line
// that is not JSON), refuse (the prompt refused), die (exits as it is prompted), silent (never
// answers).
func fakeRPCAgent() int {
	how := os.Getenv("LIVE_TEST_RPC")
	out := bufio.NewWriter(os.Stdout)
	say := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	system := fmt.Sprintf("You are the fake RPC agent, process %d.", os.Getpid())
	msgs := []map[string]any{{"role": "system", "content": system}}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var cmd struct{ ID, Type, Message string }
		if json.Unmarshal(in.Bytes(), &cmd) != nil {
			continue
		}
		switch {
		case how == "garbage":
			fmt.Println("Loading...")
			continue
		case how == "silent":
			continue
		case how == "die":
			return 3
		case how == "refuse":
			say(map[string]any{"id": cmd.ID, "type": "response", "command": cmd.Type, "success": false, "error": "no model"})
			continue
		case cmd.Type != "prompt":
			say(map[string]any{"id": cmd.ID, "type": "response", "command": cmd.Type, "success": false, "error": "unknown command"})
			continue
		}
		say(map[string]any{"id": cmd.ID, "type": "response", "command": "prompt", "success": true})
		msgs = append(msgs, map[string]any{"role": "user", "content": cmd.Message})
		body, _ := json.Marshal(map[string]any{"model": os.Getenv("OPENAI_MODEL"), "messages": msgs})
		resp, err := http.Post(os.Getenv("OPENAI_BASE_URL")+"/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		msgs = append(msgs, map[string]any{"role": "assistant", "content": "done"})
		say(map[string]any{"type": "agent_end", "messages": []any{
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": cmd.Message}}},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "done"}}},
		}})
	}
	return 0
}

func rpcProfile(t *testing.T, how string) *agents.Profile {
	t.Helper()
	p, err := agents.Parse([]byte(`{"name":"fake-rpc","bin":"fake-rpc","api":"chat completions","clock":"libfaketime",
		"env":{"LIVE_TEST_AGENT":"rpc","LIVE_TEST_RPC":`+quoteJSON(how)+`,"OPENAI_MODEL":"{model}"},"rpc":{"args":[]}}`), "fake-rpc.json")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Over RPC one process answers every prompt of the scenario: its system prompt (naming its
// process) is the same bytes on every request, which a new process a prompt would change.
func TestRPCOneProcessForTheSession(t *testing.T) {
	sc, _ := LoadScenario("two-prompts")
	r, err := Drive(context.Background(), Options{Profile: rpcProfile(t, ""), Bin: os.Args[0], RPC: true, Scenario: sc, Work: t.TempDir(), After: never, Tool: "lembas-check test", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Fault != nil || r.Driven != "rpc" {
		t.Fatalf("driven %s, fault %v\nstderr: %s", r.Driven, r.Fault, r.Stderr)
	}
	prompts := 0
	for _, s := range r.Steps {
		if s.Step.Prompt == "" {
			continue
		}
		prompts++
		if s.Said != "done" || s.Last != s.First {
			t.Errorf("step %s: said %q, requests %d..%d, want done and one request", s.Step, s.Said, s.First, s.Last)
		}
	}
	es := readBack(t, r.Recording)
	if prompts != 2 || len(es) != 2 {
		t.Fatalf("%d prompts, %d requests recorded", prompts, len(es))
	}
	j, err := Judge(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range j.Results {
		if strings.HasSuffix(x.Case.ID, "/"+RuleSystemPrompt) && x.Verdict != runner.Pass {
			t.Errorf("%s: %s: %s", x.Case.ID, x.Verdict, x.Message)
		}
	}
}

// A faulty RPC agent ends the scenario with the verdict that names what it did.
func TestRPCFaultyAgents(t *testing.T) {
	sc, _ := LoadScenario("two-prompts")
	for _, c := range []struct {
		how     string
		verdict runner.Verdict
		msg     string
	}{
		{"garbage", runner.ProtocolError, `line 1 of its output is not an RPC message: "Loading..."`},
		{"die", runner.Crashed, "the agent closed its output before ending its prompt (exit status 3)"},
		{"refuse", runner.Error, "the agent refused its prompt: no model"},
		{"silent", runner.Timeout, "its prompt did not end within 200ms"},
	} {
		o := Options{Profile: rpcProfile(t, c.how), Bin: os.Args[0], RPC: true, Scenario: sc, Work: t.TempDir()}
		if s := faultVerdict(t, o, c.verdict == runner.Timeout); s.Case.ID != "live/two-prompts/session" || s.Verdict != c.verdict || !strings.Contains(s.Message, c.msg) {
			t.Errorf("%s: %s %s: %s", c.how, s.Case.ID, s.Verdict, s.Message)
		}
	}
}

// A line is split on LF alone: U+2028 inside a JSON string is part of it.
func TestReadRPCSplitsOnLFOnly(t *testing.T) {
	lines, done := make(chan rpcMsg), make(chan struct{})
	defer close(done)
	go readRPC(strings.NewReader("{\"type\":\"agent_end\",\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"a\u2028b\"}]}]}\r\n\n{\"type\":\"response\",\"id\":\"x\",\"success\":true}\n"), lines, done)
	var got []rpcMsg
	for m := range lines {
		got = append(got, m)
	}
	if len(got) != 2 || got[0].err != nil || got[0].said() != "a\u2028b" || got[1].ID != "x" || !got[1].Success {
		t.Errorf("%+v", got)
	}
}

// A line that is not an RPC message is quoted as every message quotes a line (format.Quote):
// whole up to 200 characters, never cut inside one (at 200 bytes it was cut inside an é, which
// came out as \xc3).
func TestReadRPCQuotesTheLine(t *testing.T) {
	for line, want := range map[string]string{
		"x" + strings.Repeat("é", 150): `"x` + strings.Repeat("é", 150) + `"`,
		strings.Repeat("é", 300):       `"` + strings.Repeat("é", 200) + `"… (600 bytes)`,
	} {
		lines, done := make(chan rpcMsg), make(chan struct{})
		go readRPC(strings.NewReader(line+"\n"), lines, done)
		m := <-lines
		close(done)
		if m.err == nil || !strings.HasSuffix(m.err.Error(), "is not an RPC message: "+want) {
			t.Errorf("%.20s…: %v", line, m.err)
		}
	}
}

// A line over maxRPCLine is a malformed message naming its start, not read whole into memory:
// the agent's output is read as the adapter protocol's is (jsonx.ReadLine).
func TestReadRPCBoundsALine(t *testing.T) {
	lines, done := make(chan rpcMsg), make(chan struct{})
	defer close(done)
	long := `{"type":"response","id":"x","error":"` + strings.Repeat("x", 16<<20) + `"}`
	go readRPC(strings.NewReader(long+"\n"), lines, done)
	m := <-lines
	if m.err == nil || !strings.Contains(m.err.Error(), "line 1 of its output is over 16 MiB: \"{\\\"type\\\":\\\"response\\\"") {
		t.Errorf("%.200v", m.err)
	}
}

// What a prompt's agent said is the text blocks of its last assistant message: pi's thinking and
// tool call blocks, and the person's words, are not.
func TestRPCSaidIsTheLastAssistantMessagesText(t *testing.T) {
	m := rpcMsg{Messages: []json.RawMessage{
		json.RawMessage(`{"role":"assistant","content":[{"type":"text","text":"earlier"}]}`),
		json.RawMessage(`{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":" a"},{"type":"toolCall","id":"1","name":"read","arguments":{}},{"type":"text","text":"b "}]}`),
		json.RawMessage(`{"role":"toolResult","content":[{"type":"text","text":"file"}]}`),
	}}
	if got := m.said(); got != "ab" {
		t.Errorf("said %q, want %q", got, "ab")
	}
}

// --record keeps a transcript for every way of driving (issue 21: only ACP kept one, though
// docs/live.md said RPC and one-shot agents did): RPC's lines each way, each one-shot command and
// what it printed, in DIR/<scenario>.<driven>.log.
func TestTranscriptEveryWay(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	sc, _ := LoadScenario("two-prompts")
	sh, err := agents.Parse([]byte(`{"name":"echo","bin":"sh","api":"chat completions","clock":"libfaketime",
		"oneshot":{"args":["-c","echo said: \"$0\"","{prompt}"],"continue":["-c","echo again: \"$0\"","{prompt}"]}}`), "echo.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    Options
		file string
		want []string
	}{
		{Options{Profile: rpcProfile(t, ""), Bin: os.Args[0], RPC: true}, "two-prompts.rpc.log",
			[]string{`> {"id":"lembas-1","message":"Read README.md and NOTES.md, then tell me what the project is.","type":"prompt"}`, `< {"command":"prompt","id":"lembas-2","success":true,"type":"response"}`, `"type":"agent_end"}`}},
		{Options{Profile: sh, Bin: "/bin/sh"}, "two-prompts.one-shot.log",
			[]string{`$ /bin/sh -c "echo said: \"$0\"" "Read README.md and NOTES.md, then tell me what the project is."`, "< said: Read README.md", "< again: Read them again", "= exit 0"}},
	} {
		dir := t.TempDir()
		c.o.After, c.o.Tool, c.o.Version = never, "lembas-check test", "test"
		if _, err := Report(context.Background(), c.o, []*Scenario{sc}, dir, nil); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.o.Driven(), err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: no %q in\n%s", c.file, w, b)
			}
		}
	}
}

// Each scenario's verdicts are shown as it is judged, before the next scenario starts (issue
// 27: only at the end), and each step's line names its scenario.
func TestVerdictsStreamedAfterEachScenario(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	sc, _ := LoadScenario("two-prompts")
	sh, err := agents.Parse([]byte(`{"name":"echo","bin":"sh","api":"chat completions","clock":"libfaketime",
		"oneshot":{"args":["-c","echo said: \"$0\"","{prompt}"],"continue":["-c","echo again: \"$0\"","{prompt}"]}}`), "echo.json")
	if err != nil {
		t.Fatal(err)
	}
	var both syncbuf.Buffer
	o := Options{Profile: sh, Bin: "/bin/sh", After: never, Tool: "lembas-check test", Version: "test", Log: &both, Stream: &both, Verbose: true}
	rep, err := Report(context.Background(), o, []*Scenario{sc, sc}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := both.String()
	steps := strings.Split(out, "echo, two-prompts, step 1 of")
	if len(steps) != 3 {
		t.Fatalf("want two scenarios' first steps, named, in\n%s", out)
	}
	if n := strings.Count(steps[1], "\n--- "); n != len(rep.Results)/2 || !rep.Streamed {
		t.Errorf("%d verdicts shown between the scenarios, want %d (streamed %v):\n%s", n, len(rep.Results)/2, rep.Streamed, out)
	}
}
