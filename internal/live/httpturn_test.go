package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// turnServer is a server whose prompt request answers at once: the turn's text and end come on
// its event stream (/events) or from its message list (/s/ses1/msgs), which says the new turn
// has ended only at the second poll after a prompt.
type turnServer struct {
	mu     sync.Mutex
	subs   []chan string
	turns  int
	polls  int
	events func(turn int) []string // the events of a turn, in order
}

func (ts *turnServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method + " " + r.URL.Path {
	case "POST /s":
		fmt.Fprint(w, `{"id":"ses1"}`)
	case "POST /s/ses1/go":
		ts.mu.Lock()
		ts.turns++
		ts.polls = 0
		evs, subs := ts.events(ts.turns), ts.subs
		ts.mu.Unlock()
		for _, c := range subs {
			for _, e := range evs {
				c <- e
			}
		}
		w.WriteHeader(http.StatusNoContent)
	case "GET /s/ses1/msgs":
		ts.mu.Lock()
		ts.polls++
		last, text := ts.turns, fmt.Sprintf("answer %d", ts.turns)
		if ts.polls == 1 && ts.turns > 0 { // the turn's first poll: the message before it, still done
			last, text = ts.turns-1, fmt.Sprintf("answer %d", ts.turns-1)
		}
		ts.mu.Unlock()
		fmt.Fprintf(w, `[{"id":"u"},{"id":"m%d","done":true,"text":%q}]`, last, text)
	case "GET /events":
		c := make(chan string, 64)
		ts.mu.Lock()
		ts.subs = append(ts.subs, c)
		ts.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": hello\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case e := <-c:
				if e == "CLOSE" {
					return
				}
				fmt.Fprintf(w, "data: %s\n\n", e)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	default:
		http.NotFound(w, r)
	}
}

func turnProfile(t *testing.T, section string) *agents.HTTP {
	t.Helper()
	var h agents.HTTP
	if err := json.Unmarshal([]byte(section), &h); err != nil {
		t.Fatal(err)
	}
	return &h
}

const turnBase = `"open": {"method": "POST", "path": "/s", "read": {"session": "$.id"}},
	"prompt": {"method": "POST", "path": "/s/{session}/go", "body": {"text": "{prompt}"}}`

// Over SSE the turn's answer is the text of its last message's deltas (said.by), the events of
// another session are not taken, and the turn ends at events.end; a second turn reads only its
// own events.
func TestHTTPEvents(t *testing.T) {
	ts := &turnServer{events: func(n int) []string {
		return []string{
			`{"type":"delta","session":"other","msg":"x","text":"not ours"}`,
			fmt.Sprintf(`{"type":"delta","session":"ses1","msg":"a%d","text":"reading"}`, n),
			fmt.Sprintf(`{"type":"delta","session":"ses1","msg":"b%d","text":"do"}`, n),
			`{"type":"idle","session":"other"}`,
			fmt.Sprintf(`{"type":"delta","session":"ses1","msg":"b%d","text":"ne %d"}`, n, n),
			`{"type":"idle","session":"ses1"}`,
		}
	}}
	srv := httptest.NewServer(ts)
	defer srv.Close()
	h := turnProfile(t, `{`+turnBase+`, "events": {"path": "/events", "where": {"$.session": "{session}"},
		"said": {"when": {"$.type": "delta"}, "read": "$.text", "by": "$.msg"}, "end": {"$.type": "idle"}}}`)
	var tr strings.Builder
	s, err := OpenHTTP(context.Background(), h, agents.Vars{}, srv.URL, HTTPOptions{After: never, Transcript: &tr})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	for n := 1; n <= 2; n++ {
		said, err := s.Prompt(context.Background(), "hi", time.Minute)
		if want := fmt.Sprintf("done %d", n); err != nil || said != want {
			t.Fatalf("turn %d: %q, %v; want %q", n, said, err, want)
		}
	}
	if strings.Contains(tr.String(), "not ours") || !strings.Contains(tr.String(), `< event {"type":"idle","session":"ses1"}`) {
		t.Errorf("the transcript holds another session's events, or not the turn's:\n%s", tr.String())
	}
}

// An event of events.error fails the turn with what it says; a stream that ends before the
// turn does is the server's fault (Died), not a hang.
func TestHTTPEventsFail(t *testing.T) {
	for _, tc := range []struct {
		last, want string
		kind       acp.Kind
	}{
		{`{"type":"error","session":"ses1","error":{"message":"no model"}}`, `the server said: "{\"message\":\"no model\"}"`, ""},
		{"CLOSE", "its event stream ended before its prompt did", acp.Died},
	} {
		ts := &turnServer{events: func(int) []string { return []string{tc.last} }}
		srv := httptest.NewServer(ts)
		h := turnProfile(t, `{`+turnBase+`, "events": {"path": "/events", "where": {"$.session": "{session}"},
			"error": {"when": {"$.type": "error"}, "read": "$.error"}, "end": {"$.type": "idle"}}}`)
		s, err := OpenHTTP(context.Background(), h, agents.Vars{}, srv.URL, HTTPOptions{After: never})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Prompt(context.Background(), "hi", time.Minute)
		var f *acp.Fault
		if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.kind != "") != errors.As(err, &f) ||
			(f != nil && f.Kind != tc.kind) {
			t.Errorf("%s: %v; want %q (fault %v)", tc.last, err, tc.want, tc.kind)
		}
		s.Close(context.Background())
		srv.Close()
	}
}

// Polling: the last turn's message, though done, is not taken for this one's (poll.changed);
// the turn ends at the first answer that meets poll.until with a new message.
func TestHTTPPoll(t *testing.T) {
	ts := &turnServer{events: func(int) []string { return nil }}
	srv := httptest.NewServer(ts)
	defer srv.Close()
	h := turnProfile(t, `{`+turnBase+`, "poll": {"method": "GET", "path": "/s/{session}/msgs", "read": {"said": "$[-1].text"},
		"until": {"$[-1].done": "true"}, "changed": "$[-1].id", "every": "1ms"}}`)
	ticks := 0
	tick := func(d time.Duration) <-chan time.Time { ticks++; return now(d) }
	s, err := OpenHTTP(context.Background(), h, agents.Vars{}, srv.URL, HTTPOptions{After: never, Tick: tick})
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		said, err := s.Prompt(context.Background(), "hi", time.Minute)
		if want := fmt.Sprintf("answer %d", n); err != nil || said != want {
			t.Fatalf("turn %d: %q, %v; want %q", n, said, err, want)
		}
	}
	if ticks != 2 {
		t.Errorf("%d waits between polls, want 2 (one a turn)", ticks)
	}
}

// A poll whose answer never says the turn ended is a hang, bounded by the turn's time.
func TestHTTPPollHung(t *testing.T) {
	ts := &turnServer{events: func(int) []string { return nil }}
	srv := httptest.NewServer(ts)
	defer srv.Close()
	h := turnProfile(t, `{`+turnBase+`, "poll": {"method": "GET", "path": "/s/{session}/msgs", "until": {"$[-1].done": "never"}}}`)
	// The prompt request's bound (the first of an hour) never fires; the turn's (the second) has.
	fire, hours := make(chan time.Time), atomic.Int32{}
	after := func(d time.Duration) <-chan time.Time {
		if d == time.Hour {
			if hours.Add(1) == 2 {
				return fire
			}
		}
		return nil
	}
	s, err := OpenHTTP(context.Background(), h, agents.Vars{}, srv.URL, HTTPOptions{After: after,
		Tick: func(time.Duration) <-chan time.Time { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	close(fire)
	_, err = s.Prompt(context.Background(), "hi", time.Hour)
	var f *acp.Fault
	if !errors.As(err, &f) || f.Kind != acp.Hung {
		t.Errorf("%v, want a hang", err)
	}
}

// A model step to a model the profile's http section does not list moves to the first it lists
// that the session is not on (run --live's prefix cases name fake-model-3, which opencode's
// config has not: it failed the turn); with no other, the step is skipped.
func TestHTTPSetModel(t *testing.T) {
	h := &agents.HTTP{Models: []string{"{model}", "{model}-2"}}
	v := agents.Vars{Model: "m"}
	s := &HTTPSession{h: h, vars: v, extra: map[string]string{"model": "m"}, offered: v.FillAll(h.Models)}
	if err := s.SetModel("m-3"); err != nil || s.extra["model"] != "m-2" || s.vars.Model != "m-2" {
		t.Errorf("to m-3: %v, on %q", err, s.extra["model"])
	}
	if err := s.SetModel("m"); err != nil || s.extra["model"] != "m" {
		t.Errorf("to m, listed: %v, on %q", err, s.extra["model"])
	}
	s.offered = []string{"m"}
	var u *acp.Unsupported
	if err := s.SetModel("other"); !errors.As(err, &u) {
		t.Errorf("no other model listed: %v, want a skip", err)
	}
}
