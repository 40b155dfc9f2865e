package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/acp"
)

// fakeServer is an A2A server as the Gemini CLI's is: a task per conversation, left
// input-required at the end of each turn, its words streamed as status messages chunk by chunk;
// or (send) answering message/send with the whole task.
type fakeServer struct {
	t      *testing.T
	lembas bool
	mu     sync.Mutex
	got    []Message
	calls  []string
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		c := Card{Name: "fake", Version: "1.0", URL: "http://" + r.Host + "/rpc", Capabilities: Capabilities{Streaming: true}}
		if f.lembas {
			c.Capabilities.Extensions = []Extension{{URI: ExtLembas}}
		}
		json.NewEncoder(w).Encode(c)
		return
	}
	var q Request
	json.NewDecoder(r.Body).Decode(&q)
	f.mu.Lock()
	f.calls = append(f.calls, q.Method)
	f.mu.Unlock()
	if q.Method != MethodSend && q.Method != MethodStream {
		json.NewEncoder(w).Encode(Response{JSONRPC: "2.0", ID: q.ID, Result: json.RawMessage(`{}`)})
		return
	}
	var p SendParams
	json.Unmarshal(q.Params, &p)
	f.mu.Lock()
	f.got = append(f.got, p.Message)
	n := len(f.got)
	f.mu.Unlock()
	task, ctxID := "task-1", "ctx-1"
	answer := fmt.Sprintf("answer %d", n)
	if q.Method == MethodSend {
		t := Task{Kind: "task", ID: task, ContextID: ctxID, Status: Status{State: "completed"},
			Artifacts: []Artifact{{ArtifactID: "a", Parts: []Part{{Kind: "text", Text: answer}}}}}
		b, _ := json.Marshal(t)
		json.NewEncoder(w).Encode(Response{JSONRPC: "2.0", ID: q.ID, Result: b})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	events := []Event{{Kind: "task", ID: task, ContextID: ctxID, Status: &Status{State: "submitted"}}}
	for _, chunk := range []string{"answer", " ", fmt.Sprint(n)} {
		events = append(events, Event{Kind: "status-update", TaskID: task, ContextID: ctxID,
			Status: &Status{State: "working", Message: &Message{Kind: "message", Role: "agent", Parts: []Part{{Kind: "text", Text: chunk}}}}})
	}
	events = append(events, Event{Kind: "status-update", TaskID: task, ContextID: ctxID, Status: &Status{State: "input-required"}, Final: true})
	for _, e := range events {
		b, _ := json.Marshal(e)
		r, _ := json.Marshal(Response{JSONRPC: "2.0", ID: q.ID, Result: b})
		fmt.Fprintf(w, "data: %s\n\n", r)
	}
}

func never(time.Duration) <-chan time.Time { return nil }

func open(t *testing.T, f *fakeServer, o Options) *Client {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	o.After = never
	c, err := Open(context.Background(), srv.URL, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Over message/stream the words come chunk by chunk; the task the first turn opened is carried
// on by the second message (its taskId and contextId), and the workspace goes with the first.
func TestStreamCarriesTheTaskOn(t *testing.T) {
	f := &fakeServer{t: t}
	c := open(t, f, Options{Stream: true, Metadata: map[string]any{"coderAgent": map[string]any{"workspacePath": "/w"}}})
	for i, want := range []string{"answer 1", "answer 2"} {
		said, err := c.Send(context.Background(), fmt.Sprintf("prompt %d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		if said != want {
			t.Errorf("turn %d said %q, want %q", i+1, said, want)
		}
	}
	if f.got[0].TaskID != "" || f.got[0].ContextID != "" || f.got[0].Metadata == nil {
		t.Errorf("the first message: task %q, context %q, metadata %v; want none, none, the workspace", f.got[0].TaskID, f.got[0].ContextID, f.got[0].Metadata)
	}
	if f.got[1].TaskID != "task-1" || f.got[1].ContextID != "ctx-1" || f.got[1].Metadata != nil {
		t.Errorf("the second message: task %q, context %q, metadata %v; want task-1, ctx-1, none", f.got[1].TaskID, f.got[1].ContextID, f.got[1].Metadata)
	}
	if c.Session() != "A2A task task-1 (context ctx-1)" {
		t.Errorf("session %q", c.Session())
	}
}

// Over message/send a completed task ends the turn; the next message starts another task in the
// same context, so it carries the contextId alone.
func TestSendStartsATaskInTheContext(t *testing.T) {
	f := &fakeServer{t: t}
	c := open(t, f, Options{})
	for range 2 {
		if _, err := c.Send(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
	}
	if f.got[1].TaskID != "" || f.got[1].ContextID != "ctx-1" {
		t.Errorf("after a completed task: task %q, context %q; want none, ctx-1", f.got[1].TaskID, f.got[1].ContextID)
	}
	if f.calls[0] != MethodSend {
		t.Errorf("called %s, want %s", f.calls[0], MethodSend)
	}
}

// A mode, a model or a compaction is unsupported, saying why, without the LLeMbas extension on
// the card; with it, each is a LLeMbas call on the conversation.
func TestLembasMethodsNeedTheExtension(t *testing.T) {
	c := open(t, &fakeServer{t: t}, Options{})
	var u *acp.Unsupported
	if err := c.Configure(context.Background(), "mode plan", map[string]any{"mode": "plan"}); !errors.As(err, &u) || !strings.Contains(u.Why, ExtLembas) {
		t.Errorf("Configure without the extension: %v, want unsupported naming %s", err, ExtLembas)
	}
	f := &fakeServer{t: t, lembas: true}
	c = open(t, f, Options{})
	if err := c.Configure(context.Background(), "mode plan", map[string]any{"mode": "plan"}); err != nil {
		t.Fatal(err)
	}
	if c.Context == "" {
		t.Error("configured before any message, the conversation has no contextId")
	}
	if _, err := c.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if err := c.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := []string{"_lembas/configure", MethodSend, "_lembas/session/compact"}; strings.Join(f.calls, " ") != strings.Join(want, " ") {
		t.Errorf("calls %v, want %v", f.calls, want)
	}
}

// A turn past its timeout (on the client's clock) is a Hung fault; a card that is no card is
// Malformed.
func TestHungAndMalformed(t *testing.T) {
	stuck, release := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			fmt.Fprintf(w, `{"name":"x","url":"http://%s/"}`, r.Host)
			return
		}
		<-release
	}))
	defer srv.Close()
	defer close(release)
	fire := make(chan time.Time, 1)
	c, err := Open(context.Background(), srv.URL, Options{After: func(time.Duration) <-chan time.Time {
		select {
		case <-stuck:
			return fire
		default:
			return nil
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	close(stuck)
	fire <- time.Time{}
	var f *acp.Fault
	if _, err := c.Send(context.Background(), "hi"); !errors.As(err, &f) || f.Kind != acp.Hung {
		t.Errorf("a turn past its time: %v, want a Hung fault", err)
	}
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>") }))
	defer bad.Close()
	if _, err := Open(context.Background(), bad.URL, Options{After: never}); !errors.As(err, &f) || f.Kind != acp.Malformed {
		t.Errorf("a page for a card: %v, want a Malformed fault", err)
	}
}
