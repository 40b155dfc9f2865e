package replay_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

const recDir = "../../testdata/recordings/"

// simServer is the fake provider as a simulated llama-server (the llama.cpp dialect, two slots of
// the cache simulator) answering every request with reply ("ok" when empty).
func simServer(t *testing.T, reply string) *fakeprovider.Server {
	t.Helper()
	if reply == "" {
		reply = "ok"
	}
	return fakeprovidertest.NewWith(t, fakeprovider.Config{Script: &script.Script{Name: "reply", Rules: []script.Rule{{Reply: script.Reply{Text: reply}}}},
		Models: []string{"qwen3-coder"}, Dialect: usage.LlamaCpp, CacheSlots: 2})
}

func play(t *testing.T, p *replay.Player, file string) ([]replay.Sent, error) {
	t.Helper()
	r, f, err := replay.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sent []replay.Sent
	p.OnSent = func(s replay.Sent) { sent = append(sent, s) }
	return sent, func() error { err := p.Play(context.Background(), r); return err }()
}

func TestFrozenSendsTheRecordedBytes(t *testing.T) {
	srv := simServer(t, "")
	entries, _, err := replay.ReadAll(recDir + "interleaved.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var sent []replay.Sent
	r, f, _ := replay.Open(recDir + "interleaved.jsonl")
	defer f.Close()
	p := &replay.Player{Sender: replay.Sender{URL: srv.URL + "/v1"}, Mode: replay.Frozen, OnSent: func(s replay.Sent) { sent = append(sent, s) }}
	if err := p.Play(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if len(sent) != len(entries) {
		t.Fatalf("%d sent of %d", len(sent), len(entries))
	}
	for i, s := range sent {
		if !bytes.Equal(s.Body, entries[i].Body) || s.Status != 200 || s.Error != "" {
			t.Errorf("request %d: status %d error %q, body changed: %v", s.Seq, s.Status, s.Error, !bytes.Equal(s.Body, entries[i].Body))
		}
		if s.Reply.Text != "ok" || s.FirstToken > s.Total || s.FirstToken <= 0 {
			t.Errorf("request %d: reply %q, first token %v of %v", s.Seq, s.Reply.Text, s.FirstToken, s.Total)
		}
		if s.Stream != bytes.Contains(entries[i].Body, []byte(`"stream":true`)) {
			t.Errorf("request %d: stream %v", s.Seq, s.Stream)
		}
	}
	if !bytes.Contains(sent[2].Reply.Timings, []byte(`"cache_n":`)) || bytes.Contains(sent[2].Reply.Timings, []byte(`"cache_n":0,`)) {
		t.Errorf("the main session's second request should be served from cache: %s", sent[2].Reply.Timings)
	}
}

// Live mode puts the server's answers where the recorded ones were; the recorded tool results
// keep answering the recorded call ids.
func TestLiveFeedsTheServersAnswersBack(t *testing.T) {
	srv := simServer(t, "LIVE ANSWER")
	sent, err := play(t, &replay.Player{Sender: replay.Sender{URL: srv.URL}, Mode: replay.Live}, recDir+"clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	entries, _, _ := replay.ReadAll(recDir + "clean.jsonl")
	if !bytes.Equal(sent[0].Body, entries[0].Body) {
		t.Error("the first request has no answer to replace, yet it changed")
	}
	for i := 1; i < len(sent); i++ {
		b := string(sent[i].Body)
		if strings.Count(b, `"content":"LIVE ANSWER"`) != i {
			t.Errorf("request %d carries %d live answers, want %d:\n%s", i+1, strings.Count(b, "LIVE ANSWER"), i, b)
		}
	}
	if b := string(sent[1].Body); !strings.Contains(b, `"tool_calls":[{"id":"call_1"`) || !strings.Contains(b, `"tool_call_id":"call_1"`) {
		t.Errorf("the recorded call was not kept for its recorded result:\n%s", b)
	}
	if !strings.Contains(sent[1].Note, "recorded calls were kept") {
		t.Errorf("note %q", sent[1].Note)
	}
	// Each earlier answer whose calls were kept is counted, not said again: a real llama-server's
	// ninth request said the same sentence four times.
	last := sent[len(sent)-1].Note
	if n := strings.Count(last, "recorded calls were kept"); n != 1 || !strings.Contains(last, "assistant messages)") {
		t.Errorf("the last request's note says it %d times, without the count of messages: %q", n, last)
	}
}

func TestTimedKeepsTheRecordedGaps(t *testing.T) {
	srv := simServer(t, "")
	// A clock that moves only when the player sleeps: each wait is then the recorded gap at
	// 1000x, whatever the machine's speed (with the real clock a busy machine, its replay slower
	// than the gaps, skipped waits: 1 run in 20).
	clock := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var waits []time.Duration
	p := &replay.Player{Sender: replay.Sender{URL: srv.URL}, Mode: replay.Timed, Speed: 1000,
		Now: func() time.Time { return clock },
		Sleep: func(_ context.Context, d time.Duration) error {
			waits = append(waits, d)
			clock = clock.Add(d)
			return nil
		}}
	sent, err := play(t, p, recDir+"clean.jsonl")
	if err != nil || len(sent) != 6 {
		t.Fatal(err, len(sent))
	}
	entries, _, _ := replay.ReadAll(recDir + "clean.jsonl")
	var want []time.Duration
	due := func(i int) time.Duration {
		return time.Duration(float64(entries[i].Exchange.Started.Sub(entries[0].Exchange.Started)) / 1000)
	}
	for i := 1; i < len(entries); i++ {
		if gap := due(i) - due(i-1); gap > 0 {
			want = append(want, gap)
		}
	}
	if len(want) != 5 || !slices.Equal(waits, want) {
		t.Errorf("waits %v, want %v (the recorded gaps at 1000x)", waits, want)
	}
}

func TestServerFaults(t *testing.T) {
	// A server that refuses the third request: reported, and the replay goes on.
	n := 0
	sim := simServer(t, "").Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 3 {
			http.Error(w, `{"error":{"message":"context too long"}}`, 400)
			return
		}
		sim.ServeHTTP(w, r)
	}))
	defer srv.Close()
	sent, err := play(t, &replay.Player{Sender: replay.Sender{URL: srv.URL}}, recDir+"clean.jsonl")
	if err != nil || len(sent) != 6 {
		t.Fatalf("%v, %d sent", err, len(sent))
	}
	if sent[2].Status != 400 || !strings.Contains(sent[2].Error, "context too long") || sent[3].Error != "" {
		t.Errorf("refused request: %+v", sent[2])
	}
	// A server that is not there (refused at once: no bound of the real clock needed): the replay
	// stops, naming the request.
	srv.Close()
	sent, err = play(t, &replay.Player{Sender: replay.Sender{URL: srv.URL}}, recDir+"clean.jsonl")
	if !errors.Is(err, replay.ErrUnreachable) || !strings.Contains(err.Error(), "request 1 (line 4)") || len(sent) != 0 {
		t.Errorf("unreachable: %v, %d sent", err, len(sent))
	}
	// An unknown mode is refused before anything is sent.
	if _, err := play(t, &replay.Player{Sender: replay.Sender{URL: srv.URL}, Mode: "fast"}, recDir+"clean.jsonl"); err == nil || !strings.Contains(err.Error(), "frozen, live, timed") {
		t.Errorf("mode: %v", err)
	}
}

func TestDamagedRecordingReplaysUpToTheDamage(t *testing.T) {
	srv := simServer(t, "")
	whole, _ := os.ReadFile(recDir + "clean.jsonl")
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	os.WriteFile(cut, whole[:len(whole)-100], 0o644)
	sent, err := play(t, &replay.Player{Sender: replay.Sender{URL: srv.URL}}, cut)
	var le *replay.LineError
	if !errors.As(err, &le) || !le.Cut || len(sent) != 5 {
		t.Errorf("%v, %d sent", err, len(sent))
	}
}

func TestEndpoint(t *testing.T) {
	for base, want := range map[string]string{
		"http://h:1":      "http://h:1/v1/chat/completions",
		"http://h:1/":     "http://h:1/v1/chat/completions",
		"http://h:1/v1":   "http://h:1/v1/chat/completions",
		"http://h:1/v1/":  "http://h:1/v1/chat/completions",
		"http://h:1/api/": "http://h:1/api/v1/chat/completions",
	} {
		if got := (&replay.Sender{URL: base}).Endpoint("/v1/chat/completions"); got != want {
			t.Errorf("%s: %s, want %s", base, got, want)
		}
	}
	const gemini = "/v1beta/models/m:streamGenerateContent?alt=sse"
	for _, base := range []string{"http://h:1", "http://h:1/v1"} {
		if got := (&replay.Sender{URL: base}).Endpoint(gemini); got != "http://h:1"+gemini {
			t.Errorf("%s: %s", base, got)
		}
	}
}

// JoinURL is the one join of a base and a request's path, for a whole base URL (the replay's
// sender) and for a base URL's path (the recording proxy's upstream). The proxy's own copy sent a
// Gemini path under a /v1 base to …/v1/v1beta/…, and the sender's sent /v1 itself to …/v1/v1.
func TestJoinURL(t *testing.T) {
	for _, c := range []struct{ base, path, want string }{
		{"", "/v1/chat/completions", "/v1/chat/completions"},
		{"/", "/v1/models", "/v1/models"},
		{"/v1", "/v1/chat/completions", "/v1/chat/completions"},
		{"/v1/", "/v1/responses", "/v1/responses"},
		{"/api", "/v1/messages", "/api/v1/messages"},
		{"/v1", "/v1", "/v1"},
		{"http://h:1/v1", "/v1", "http://h:1/v1"},
		{"/v1", "/v1beta/models/m:generateContent", "/v1beta/models/m:generateContent"},
		{"/openai/v1", "/v1beta/models/m:generateContent", "/openai/v1beta/models/m:generateContent"},
		{"/v1", "/v10/x", "/v1/v10/x"},
		{"/v1", "/health", "/v1/health"},
	} {
		if got := replay.JoinURL(c.base, c.path); got != c.want {
			t.Errorf("JoinURL(%q, %q) = %q, want %q", c.base, c.path, got, c.want)
		}
	}
}

// Every replayed request goes out with the answer's length capped and a stream's usage asked
// for; the prompt's bytes are the recording's.
func TestPlayerAdjustsEveryRequest(t *testing.T) {
	srv := simServer(t, "")
	p := &replay.Player{Sender: replay.Sender{URL: srv.URL}, Adjust: replay.Adjust{MaxTokens: 16, AskUsage: true}}
	sent, err := play(t, p, recDir+"interleaved.jsonl")
	if err != nil || len(sent) != 9 {
		t.Fatalf("%d sent: %v", len(sent), err)
	}
	for _, s := range sent {
		if !bytes.Contains(s.Body, []byte(`"max_tokens":16`)) || s.Stream && !bytes.Contains(s.Body, []byte(`"include_usage":true`)) {
			t.Errorf("request %d sent as %s", s.Seq, s.Body)
		}
		if s.Stream && s.Reply.Usage == nil {
			t.Errorf("request %d: a stream without usage", s.Seq)
		}
	}
}
