package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// agent is a scripted ACP agent on the other end of two pipes: it reads the client's lines and
// answers each request with handle's result, or does what handle does to the connection.
type agent struct {
	t      *testing.T
	out    *io.PipeWriter // what the agent writes, the client reads
	mu     sync.Mutex
	nextID int
	wait   map[int]chan json.RawMessage
	got    []string // methods the client called, in order
	params map[string]json.RawMessage
}

type handle func(a *agent, id json.RawMessage, method string, params json.RawMessage)

func startAgent(t *testing.T, o Options, h handle) (*Client, *agent) {
	t.Helper()
	toAgent, fromClient := io.Pipe()
	fromAgent, toClient := io.Pipe()
	a := &agent{t: t, out: toClient, wait: map[int]chan json.RawMessage{}, params: map[string]json.RawMessage{}}
	go func() {
		sc := bufio.NewScanner(toAgent)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			if m.Method == "" {
				var n int
				json.Unmarshal(m.ID, &n)
				a.mu.Lock()
				ch := a.wait[n]
				a.mu.Unlock()
				if ch != nil {
					if m.Error != nil {
						ch <- m.Error
					} else {
						ch <- m.Result
					}
				}
				continue
			}
			a.mu.Lock()
			a.got = append(a.got, m.Method)
			a.params[m.Method] = m.Params
			a.mu.Unlock()
			go h(a, m.ID, m.Method, m.Params)
		}
	}()
	c := New(fromClient, fromAgent, o)
	t.Cleanup(func() { toClient.Close(); fromClient.Close() })
	return c, a
}

func (a *agent) line(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	io.WriteString(a.out, s+"\n")
}

func (a *agent) answer(id json.RawMessage, result any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	a.line(string(b))
}

func (a *agent) notify(method string, params any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	a.line(string(b))
}

// ask sends the client a request and waits for its answer (a result, or an error object).
func (a *agent) ask(method string, params any) json.RawMessage {
	a.mu.Lock()
	a.nextID++
	id := a.nextID
	ch := make(chan json.RawMessage, 1)
	a.wait[id] = ch
	a.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	a.line(string(b))
	return <-ch
}

// basic answers initialize and session/new like a plain agent with two modes.
func basic(a *agent, id json.RawMessage, method string, params json.RawMessage) bool {
	switch method {
	case "initialize":
		a.answer(id, map[string]any{"protocolVersion": 1, "agentInfo": map[string]any{"name": "scripted", "version": "1.0"}, "authMethods": []any{}})
	case "session/new":
		a.answer(id, map[string]any{"sessionId": "s1", "modes": map[string]any{"currentModeId": "default",
			"availableModes": []any{map[string]any{"id": "default", "name": "Default"}, map[string]any{"id": "plan", "name": "Plan"}}}})
	case "session/set_mode":
		a.answer(id, map[string]any{})
	default:
		return false
	}
	return true
}

func open(t *testing.T, c *Client) Session {
	t.Helper()
	ctx := context.Background()
	if _, err := c.Initialize(ctx, "test"); err != nil {
		t.Fatal(err)
	}
	s, err := c.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A well-behaved turn: the agent reads a file of the session through the client, asks permission
// for a command (allowed once), writes its answer in chunks, and ends the turn.
func TestPromptTurn(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("one\ntwo\nthree\n"), 0o644)
	var read, perm json.RawMessage // written before the turn's answer, read after it
	c, a := startAgent(t, Options{Dir: dir}, func(a *agent, id json.RawMessage, method string, params json.RawMessage) {
		if basic(a, id, method, params) {
			return
		}
		if method == "session/prompt" {
			read = a.ask("fs/read_text_file", map[string]any{"sessionId": "s1", "path": filepath.Join(dir, "README.md"), "line": 2, "limit": 1})
			perm = a.ask("session/request_permission", map[string]any{"sessionId": "s1", "toolCall": map[string]any{"toolCallId": "t1", "title": "ls -la", "kind": "execute"},
				"options": []any{map[string]any{"optionId": "always", "kind": "allow_always", "name": "Always"}, map[string]any{"optionId": "once", "kind": "allow_once", "name": "Once"}, map[string]any{"optionId": "no", "kind": "reject_once", "name": "No"}}})
			for _, w := range []string{"It ", "says two."} {
				a.notify("session/update", map[string]any{"sessionId": "s1", "update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": w}}})
			}
			a.answer(id, map[string]any{"stopReason": "end_turn"})
		}
	})
	s := open(t, c)
	if s.ID != "s1" || s.CurrentMode != "default" || strings.Join(s.Modes, ",") != "default,plan" {
		t.Errorf("session %+v", s)
	}
	var nw struct {
		Cwd string `json:"cwd"`
	}
	json.Unmarshal(a.params["session/new"], &nw)
	if nw.Cwd != dir {
		t.Errorf("session/new cwd %q, want %q", nw.Cwd, dir)
	}
	stop, said, err := c.Prompt(context.Background(), s.ID, "What does README.md say?")
	if err != nil || stop != "end_turn" || said != "It says two." {
		t.Fatalf("prompt: %q %q %v", stop, said, err)
	}
	if string(read) != `{"content":"two\n"}` {
		t.Errorf("fs/read_text_file answered %s", read)
	}
	if string(perm) != `{"outcome":{"optionId":"once","outcome":"selected"}}` {
		t.Errorf("permission answered %s, want allow once", perm)
	}
	if p := c.Permissions(); len(p) != 1 || p[0].Title != "ls -la" || p[0].Answer != "allow_once" {
		t.Errorf("permissions %+v", p)
	}
	if err := c.SetMode(context.Background(), s, "plan"); err != nil || c.Mode(s.ID) != "plan" {
		t.Errorf("set mode: %v, mode %q", err, c.Mode(s.ID))
	}
	// The client says it reads and writes files, and (not being asked to) no LLeMbas meta.
	var init struct {
		ClientCapabilities struct {
			Fs   map[string]bool `json:"fs"`
			Meta map[string]any  `json:"_meta"`
		} `json:"clientCapabilities"`
	}
	json.Unmarshal(a.params["initialize"], &init)
	if !init.ClientCapabilities.Fs["readTextFile"] || !init.ClientCapabilities.Fs["writeTextFile"] || init.ClientCapabilities.Meta != nil {
		t.Errorf("initialize said %s", a.params["initialize"])
	}
}

// A file outside the session directory — by its path, or through a link — is refused, and the
// session ends with a fault that names it.
func TestFileOutsideTheDirectoryEndsTheSession(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("no"), 0o644)
	for _, c := range []struct{ name, path func(dir string) string }{
		{func(string) string { return "by path" }, func(string) string { return filepath.Join(outside, "secret") }},
		{func(string) string { return "by ../" }, func(dir string) string { return dir + "/../" + filepath.Base(outside) + "/secret" }},
		{func(string) string { return "through a link" }, func(dir string) string {
			os.Symlink(outside, filepath.Join(dir, "link"))
			return filepath.Join(dir, "link", "secret")
		}},
		{func(string) string { return "a write" }, func(string) string { return filepath.Join(outside, "new") }},
	} {
		dir := t.TempDir()
		path := c.path(dir)
		method := "fs/read_text_file"
		if c.name("") == "a write" {
			method = "fs/write_text_file"
		}
		answer := make(chan json.RawMessage, 1)
		cl, _ := startAgent(t, Options{Dir: dir}, func(a *agent, id json.RawMessage, m string, params json.RawMessage) {
			if basic(a, id, m, params) {
				return
			}
			answer <- a.ask(method, map[string]any{"sessionId": "s1", "path": path, "content": "x"})
			// The agent, told no, would carry on: the client does not wait for it.
		})
		s := open(t, cl)
		_, _, err := cl.Prompt(context.Background(), s.ID, "go")
		var f *Fault
		if !errors.As(err, &f) || f.Kind != Outside || !strings.Contains(f.Detail, path) {
			t.Errorf("%s: %v", c.name(""), err)
		}
		if got := <-answer; !strings.Contains(string(got), "outside the session directory") {
			t.Errorf("%s: the agent was answered %s", c.name(""), got)
		}
		if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
			t.Errorf("%s: a file was written outside", c.name(""))
		}
	}
}

// Lines that are not JSON-RPC messages end the session at once, naming the line.
func TestMalformedMessageEndsTheSession(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"Loading model...", "line 3 of its output is not JSON: \"Loading model...\""},
		{`{"id": 7, "result": {}}`, `is not JSON-RPC 2.0`},
		{`{"jsonrpc": "2.0", "id": 2}`, "answers with neither a result nor an error"},
		{`[1, 2]`, "is not JSON"},
		// Quoted as every message quotes a line (format.Quote): cut after 200 characters, not
		// inside one (at 120 bytes it was cut inside an é, which came out as \xc3).
		{"x" + strings.Repeat("é", 150), `"x` + strings.Repeat("é", 150) + `"`},
		{strings.Repeat("é", 300), `"` + strings.Repeat("é", 200) + `"… (600 bytes)`},
		// A CR before the LF is not the line's (as bufio.ScanLines had it).
		{"Loading model...\r", "line 3 of its output is not JSON: \"Loading model...\""},
		// A line over the SDK's bound names its start (it said "bufio.Scanner: token too long").
		{strings.Repeat("x", 10<<20+1), "line 3 of its output is over 10 MiB: \"xxx"},
	} {
		cl, _ := startAgent(t, Options{Dir: t.TempDir()}, func(a *agent, id json.RawMessage, m string, params json.RawMessage) {
			if basic(a, id, m, params) {
				return
			}
			a.line(c.line)
		})
		s := open(t, cl)
		_, _, err := cl.Prompt(context.Background(), s.ID, "go")
		var f *Fault
		if !errors.As(err, &f) || f.Kind != Malformed || !strings.Contains(f.Detail, c.want) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
	}
}

// An agent that closes its output (it exited, or crashed) mid-turn has died; one that never
// answers has hung, once the prompt's timeout has passed (a fake clock: no wall-clock wait).
func TestDeadAndHungAgents(t *testing.T) {
	cl, a := startAgent(t, Options{Dir: t.TempDir()}, func(a *agent, id json.RawMessage, m string, params json.RawMessage) {
		if !basic(a, id, m, params) {
			a.out.Close()
		}
	})
	s := open(t, cl)
	_, _, err := cl.Prompt(context.Background(), s.ID, "go")
	var f *Fault
	if !errors.As(err, &f) || f.Kind != Died || !strings.Contains(f.Detail, "before answering session/prompt") {
		t.Errorf("died: %v", err)
	}
	_ = a
	synctest.Test(t, func(t *testing.T) {
		cl, _ := startAgent(t, Options{Dir: "/", PromptTimeout: 90 * time.Second}, func(a *agent, id json.RawMessage, m string, params json.RawMessage) {
			basic(a, id, m, params) // and silence for a prompt
		})
		s := open(t, cl)
		start := time.Now()
		_, _, err := cl.Prompt(context.Background(), s.ID, "go")
		var f *Fault
		if !errors.As(err, &f) || f.Kind != Hung || f.Detail != "session/prompt had no answer within 1m30s" {
			t.Errorf("hung: %v", err)
		}
		if d := time.Since(start); d != 90*time.Second {
			t.Errorf("gave up after %v", d)
		}
		// Every later call fails at once with the same fault.
		if _, err := cl.NewSession(context.Background()); !errors.Is(err, cl.Fault()) {
			t.Errorf("after the fault: %v", err)
		}
	})
}

// To a LLeMbas agent: _meta.lembas.protocol 3 in initialize, and the _lembas/* methods it
// advertises — configure for the model, compact, status. To a plain agent they are unsupported.
func TestLembasMethods(t *testing.T) {
	cl, a := startAgent(t, Options{Dir: t.TempDir(), Lembas: true}, func(a *agent, id json.RawMessage, m string, params json.RawMessage) {
		switch m {
		case "initialize":
			a.answer(id, map[string]any{"protocolVersion": 1, "authMethods": []any{}, "_meta": map[string]any{"lembas": map[string]any{"protocol": 3, "capabilities": []any{"directories", "configure"}}}})
		case "_lembas/configure":
			a.answer(id, map[string]any{"model": "other", "effort": "off"})
		case "_lembas/session/compact":
			a.answer(id, map[string]any{"summary": "## What we are doing\nTesting."})
		case "_lembas/session/status":
			a.answer(id, map[string]any{"sessionId": "s1", "exists": true, "held": "here", "busy": false})
		default:
			basic(a, id, m, params)
		}
	})
	info, err := cl.Initialize(context.Background(), "test")
	if err != nil || !info.Lembas || info.Protocol != 3 {
		t.Fatalf("%+v %v", info, err)
	}
	var init struct {
		ClientCapabilities struct {
			Meta struct {
				Lembas struct {
					Protocol int `json:"protocol"`
				} `json:"lembas"`
			} `json:"_meta"`
		} `json:"clientCapabilities"`
	}
	json.Unmarshal(a.params["initialize"], &init)
	if init.ClientCapabilities.Meta.Lembas.Protocol != 3 {
		t.Errorf("initialize said %s", a.params["initialize"])
	}
	s, _ := cl.NewSession(context.Background())
	if err := cl.SetModel(context.Background(), s, "other"); err != nil || !strings.Contains(string(a.params["_lembas/configure"]), `"model":"other"`) {
		t.Errorf("configure: %v %s", err, a.params["_lembas/configure"])
	}
	if sum, err := cl.Compact(context.Background(), s); err != nil || !strings.HasPrefix(sum, "## What we are doing") {
		t.Errorf("compact: %q %v", sum, err)
	}
	if st, err := cl.Status(context.Background(), s); err != nil || !strings.Contains(string(st), `"held":"here"`) {
		t.Errorf("status: %s %v", st, err)
	}

	plain, _ := startAgent(t, Options{Dir: t.TempDir()}, func(a *agent, id json.RawMessage, m string, params json.RawMessage) { basic(a, id, m, params) })
	ps := open(t, plain)
	var u *Unsupported
	if _, err := plain.Compact(context.Background(), ps); !errors.As(err, &u) {
		t.Errorf("compact on a plain agent: %v", err)
	}
	if err := plain.SetModel(context.Background(), ps, "x"); !errors.As(err, &u) {
		t.Errorf("model on a plain agent: %v", err)
	}
}

// The agent's error answer is a CallError naming the method.
func TestCallError(t *testing.T) {
	cl, _ := startAgent(t, Options{Dir: t.TempDir()}, func(a *agent, id json.RawMessage, m string, params json.RawMessage) {
		if m == "initialize" {
			a.line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"no model configured"}}`, id))
		}
	})
	_, err := cl.Initialize(context.Background(), "test")
	var ce *CallError
	if !errors.As(err, &ce) || ce.Method != "initialize" || ce.Code != -32603 || ce.Message != "no model configured" {
		t.Errorf("%v", err)
	}
}

// An agent whose input is closed (it exited) is dead at the next call, whatever the SDK answers.
func TestWriteToAGoneAgent(t *testing.T) {
	toAgent, fromClient := io.Pipe()
	fromAgent, agentOut := io.Pipe()
	toAgent.Close() // it exited: its input and its output are closed
	agentOut.Close()
	c := New(fromClient, fromAgent, Options{Dir: t.TempDir()})
	_, err := c.Initialize(context.Background(), "test")
	var f *Fault
	if !errors.As(err, &f) || f.Kind != Died || !strings.Contains(f.Detail, "input is closed") {
		t.Errorf("%v", err)
	}
}

// The text blocks of a turn's tool calls are kept as the agent sent them, with their call's id:
// a tool_call's content and a tool_call_update's; a diff, and another session's, are not.
func TestShownToolCallText(t *testing.T) {
	c, _ := startAgent(t, Options{Dir: t.TempDir()}, func(a *agent, id json.RawMessage, method string, params json.RawMessage) {
		if basic(a, id, method, params) {
			return
		}
		if method == "session/prompt" {
			a.notify("session/update", map[string]any{"sessionId": "s1", "update": map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "read", "status": "completed",
				"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "[#0001]\none"}},
					map[string]any{"type": "diff", "path": "/x", "newText": "y"}}}})
			a.notify("session/update", map[string]any{"sessionId": "s1", "update": map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t2",
				"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "[#0002]\ntwo"}}}}})
			a.notify("session/update", map[string]any{"sessionId": "s2", "update": map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t3", "title": "read",
				"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "other"}}}}})
			a.answer(id, map[string]any{"stopReason": "end_turn"})
		}
	})
	s := open(t, c)
	if _, _, err := c.Prompt(context.Background(), s.ID, "Read it."); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(c.Shown(s.ID))
	if want := "[{t1 [#0001]\none} {t2 [#0002]\ntwo}]"; got != want {
		t.Errorf("shown %q, want %q", got, want)
	}
}
