package refagent_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// requests are the bodies the fake was sent, parsed as chat completions.
type requests struct {
	mu   sync.Mutex
	list []chatBody
}

type chatBody struct {
	Messages []struct {
		Role       string `json:"role"`
		Content    string `json:"content"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct{ Name string } `json:"function"`
	} `json:"tools"`
	Model string `json:"model"`
}

func (r *requests) add(body []byte) {
	var b chatBody
	json.Unmarshal(body, &b)
	r.mu.Lock()
	r.list = append(r.list, b)
	r.mu.Unlock()
}

func (r *requests) all() []chatBody {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]chatBody(nil), r.list...)
}

// start runs the reference agent on pipes against a fake that answers with replies, in order,
// then "done"; it returns the client, its session and what the fake was sent.
func start(t *testing.T, dir string, o refagent.Options, replies ...script.Reply) (*acp.Client, acp.Session, *requests) {
	t.Helper()
	got := &requests{}
	var mu sync.Mutex
	n := 0
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Turn: func(q *wire.Request, body []byte) (*script.Reply, error) {
		got.add(body)
		mu.Lock()
		defer mu.Unlock()
		if n < len(replies) {
			n++
			return &replies[n-1], nil
		}
		return &script.Reply{Text: "done"}, nil
	}})
	o.BaseURL = srv.BaseURL()
	toAgent, fromClient := io.Pipe()
	fromAgent, toClient := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		refagent.Serve(ctx, toAgent, toClient, o)
	}()
	t.Cleanup(func() { cancel(); fromClient.Close(); toClient.Close(); <-done })
	// No bound of the real clock on a call (go test's -timeout catches a hang): a loaded machine
	// must not turn an answer into a timeout.
	never := func(time.Duration) <-chan time.Time { return nil }
	c := acp.New(fromClient, fromAgent, acp.Options{Dir: dir, Lembas: true, After: never})
	info, err := c.Initialize(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != refagent.Name || !info.Lembas || info.Protocol != 3 {
		t.Fatalf("initialize said %+v", info)
	}
	s, err := c.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return c, s, got
}

func call(id, name, args string) script.Reply {
	return script.Reply{ToolCalls: []wire.ToolCall{{ID: id, Name: name, Arguments: args}}}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fixed is a clock that reads one time, moved by hand.
func fixed(t *testing.T, at string) (*refagent.Clock, func(string)) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "faketime")
	set := func(at string) {
		if err := os.WriteFile(f, []byte(at+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set(at)
	t.Setenv("FAKETIME_TIMESTAMP_FILE", f)
	t.Setenv("FAKETIME", "")
	t.Setenv("TZ", "UTC")
	return refagent.EnvClock(), set
}

// A turn: the date after the person's words on the first message, a read in full then a stub,
// the same system prompt and tools on every request, nothing earlier rewritten.
func TestTurn(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "alpha\nbeta\n")
	clock, _ := fixed(t, "2026-11-04 12:00:00")
	c, s, got := start(t, dir, refagent.Options{Clock: clock},
		call("call_1", "read", `{"path":"a.md"}`), call("call_2", "read", `{"path":"a.md"}`))
	if _, _, err := c.Prompt(context.Background(), s.ID, "look at a.md"); err != nil {
		t.Fatal(err)
	}
	reqs := got.all()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	first := reqs[0].Messages
	if first[0].Role != "system" || strings.Contains(first[0].Content, "2026") {
		t.Errorf("the system prompt holds the date, or is not first: %q", first[0].Content)
	}
	if want := "look at a.md\n\n<session-note>\nToday is 2026-11-04.\n</session-note>"; first[1].Content != want {
		t.Errorf("the first user message is %q, want %q", first[1].Content, want)
	}
	last := reqs[2].Messages
	if r := last[3]; r.ToolCallID != "call_1" || r.Content != "[#0001 a.md lines 1-2 of 2 sha e49c81e2]\n1: alpha\n2: beta" {
		t.Errorf("the first read answered %q", r.Content)
	}
	if r := last[5]; r.ToolCallID != "call_2" || !strings.HasPrefix(r.Content, "[#0002 a.md lines 1-2 of 2 sha e49c81e2] Unchanged since #0001") {
		t.Errorf("the second read answered %q", r.Content)
	}
	for i, q := range reqs {
		if q.Messages[0].Content != first[0].Content || len(q.Tools) != len(reqs[0].Tools) {
			t.Errorf("request %d changed the system prompt or the tools", i+1)
		}
		for j := range q.Messages[:min(len(q.Messages), len(reqs[max(i-1, 0)].Messages))] {
			if q.Messages[j] != reqs[max(i-1, 0)].Messages[j] {
				t.Errorf("request %d rewrote message %d", i+1, j)
			}
		}
	}
}

// A compaction whose reply has no summary fails and changes nothing: the next request keeps the
// prompt and the history, and says no date again.
func TestFailedCompactionChangesNothing(t *testing.T) {
	dir := t.TempDir()
	clock, _ := fixed(t, "2026-11-04 12:00:00")
	c, s, got := start(t, dir, refagent.Options{Clock: clock},
		script.Reply{Text: "first"},
		call("call_1", "read", `{"path":"nowhere.md"}`)) // the compaction's reply: a call, no text
	ctx := context.Background()
	if _, _, err := c.Prompt(ctx, s.ID, "one"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compact(ctx, s); err == nil || !strings.Contains(err.Error(), "no summary") {
		t.Fatalf("the compaction: %v", err)
	}
	if _, _, err := c.Prompt(ctx, s.ID, "two"); err != nil {
		t.Fatal(err)
	}
	reqs := got.all()
	last := reqs[len(reqs)-1].Messages
	if last[0].Content != reqs[0].Messages[0].Content {
		t.Error("the system prompt changed after a failed compaction")
	}
	if u := last[len(last)-1]; u.Content != "two" {
		t.Errorf("the next message is %q: a failed compaction made the date be said again", u.Content)
	}
	if last[1].Content != reqs[0].Messages[1].Content {
		t.Error("the history was replaced by a failed compaction")
	}
}
