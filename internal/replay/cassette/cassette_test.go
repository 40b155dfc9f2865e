package cassette

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Two runs of one session differ in what the harness is handed and the clock; the built-in
// rules make their requests one key, and a changed prompt another.
func TestNormalizeBuiltin(t *testing.T) {
	r := Builtin()
	a := `{"model":"m","messages":[{"role":"system","content":"Current date: 2026-12-02\nCurrent working directory: ` +
		`/tmp/lembas-record-2665881382/session\nid 6f1c2a3b-1d2e-4f50-8a9b-0c1d2e3f4a5b at 03:07:59"},` +
		`{"role":"user","content":"hi"}],"prompt_cache_key":"s-1","stream":true}`
	b := `{"stream":true, "prompt_cache_key":"s-2","messages":[{"role":"system","content":"Current date: 2027-01-09\n` +
		`Current working directory: /tmp/lembas-record-1930134177/session\nid 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d ` +
		`at 11:12:13"},{"role":"user","content":"hi"}],"model":"m"}`
	const path = "/v1/chat/completions"
	ka, kb := r.Normalize("POST", path, []byte(a)), r.Normalize("POST", path, []byte(b))
	if string(ka.Body) != string(kb.Body) {
		t.Fatalf("one session, two keys:\n%s\n%s", ka.Body, kb.Body)
	}
	if k := r.Normalize("GET", "/tmp/TestX1/003/a", nil); k.Path != "<tmpdir>/a" {
		t.Errorf("t.TempDir's path: %s", k.Path)
	}
	for _, want := range []string{"<date>", "<tmpdir>/session", "<uuid>", "<time>", `"prompt_cache_key":"<omitted>"`} {
		if !strings.Contains(string(ka.Body), want) {
			t.Errorf("key %s lacks %s", ka.Body, want)
		}
	}
	c := strings.Replace(b, `"content":"hi"`, `"content":"hello"`, 1)
	if kc := r.Normalize("POST", path, []byte(c)); string(kc.Body) == string(ka.Body) {
		t.Error("a changed prompt gave the same key")
	}
}

func TestParse(t *testing.T) {
	r, err := Parse([]byte("builtin: false\npatterns: ['corp-[0-9]+']\npaths: [$.metadata.run]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Describe(); got != "pattern-1, $.metadata.run" {
		t.Errorf("rules %q", got)
	}
	k := r.Normalize("POST", "/x", []byte(`{"a":"corp-12 on 2026-12-02","metadata":{"run":7}}`))
	if want := `{"a":"<pattern-1> on 2026-12-02","metadata":{"run":"<omitted>"}}`; string(k.Body) != want {
		t.Errorf("key %s, want %s", k.Body, want)
	}
	// docs/ci.md's example, an install directory that varies between machines.
	doc := "patterns: ['/(?:root|home/[^/]+|Users/[^/]+)/\\.cache/[^\"\\s]*', 'my-agent/[0-9.]+']\n" +
		"paths: [$.metadata.trace_id]\n"
	if r, err := Parse([]byte(doc)); err != nil {
		t.Errorf("docs/ci.md's rules: %v", err)
	} else {
		k := r.Normalize("POST", "/", []byte(`{"s":"docs: /home/ci/.cache/agents/pi/README.md by my-agent/1.2"}`))
		if string(k.Body) != `{"s":"docs: <pattern-1> by <pattern-2>"}` {
			t.Errorf("docs/ci.md's rules: %s", k.Body)
		}
	}
	if r, err := Parse(nil); err != nil || len(r.Patterns) != len(Builtin().Patterns) {
		t.Errorf("an empty file: %v, %v", r, err)
	}
	for in, want := range map[string]string{
		"patterns: ['(']":   "patterns[0]",
		"paths: [a.b]":      "paths[0]",
		"paths: ['$.a..b']": "paths[0]",
		"paterns: [x]":      "paterns",
		"builtin: maybe":    "builtin",
	} {
		if _, err := Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want an error naming %s", in, err, want)
		}
	}
}

func entry(seq int, path, body, answer string) replay.Entry {
	return replay.Entry{Line: seq + 1, Body: []byte(body), Exchange: replay.Exchange{Seq: seq, Method: "POST", Path: path,
		Response: &replay.Response{Status: 200, Body: json.RawMessage(answer)}}}
}

// Two identical requests get the answers they got in turn; a third gets the last again.
func TestPlayInOrder(t *testing.T) {
	c := New([]replay.Entry{
		entry(1, "/v1/chat/completions", `{"messages":[{"role":"user","content":"title?"}]}`, `{"n":1}`),
		entry(2, "/v1/chat/completions", `{"messages":[{"role":"user","content":"title?"}]}`, `{"n":2}`),
	}, nil)
	for i, want := range []string{`{"n":1}`, `{"n":2}`, `{"n":2}`} {
		body := []byte(`{"messages":[{"content":"title?","role":"user"}]}`)
		rec, repeat, miss := c.Play("POST", "/v1/chat/completions", body)
		if miss != nil {
			t.Fatal(miss)
		}
		if string(rec.Response.Body) != want || repeat != (i == 2) {
			t.Errorf("request %d: %s (repeat %v), want %s", i+1, rec.Response.Body, repeat, want)
		}
	}
	if u := c.Unplayed(); len(u) != 0 {
		t.Errorf("unplayed %v", u)
	}
}

// A request that matches none names the exchange whose conversation it continues and the
// first path where it parts from it.
func TestMissNamesNearestAndPath(t *testing.T) {
	c := New([]replay.Entry{
		entry(1, "/v1/chat/completions", `{"messages":[{"role":"user","content":"a"}],"model":"m"}`, `{}`),
		entry(2, "/v1/chat/completions", `{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},`+
			`{"role":"user","content":"read it"}],"model":"m"}`, `{}`),
		entry(3, "/v1/messages", `{"messages":[]}`, `{}`),
	}, nil)
	_, _, miss := c.Play("POST", "/v1/chat/completions", []byte(`{"messages":[{"role":"user","content":"a"},`+
		`{"role":"assistant","content":"b"},{"role":"user","content":"write it"}],"model":"m"}`))
	if miss == nil {
		t.Fatal("a changed request matched")
	}
	if miss.Nearest == nil || miss.Nearest.Seq != 2 || miss.Path != "$.messages[2].content" {
		t.Fatalf("nearest %+v at %q", miss.Nearest, miss.Path)
	}
	msg := miss.Error()
	for _, want := range []string{"exchange 2 (line 3)", "$.messages[2].content", "⟦read⟧", "⟦write⟧"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	// The first request changed after it was played: its twin is the first exchange (as many
	// messages), not the unused second one, which shares as long a prefix.
	c.used[0] = true
	changed := []byte(`{"messages":[{"role":"user","content":"z"}],"model":"m"}`)
	_, _, miss = c.Play("POST", "/v1/chat/completions", changed)
	if miss == nil || miss.Nearest.Seq != 1 {
		t.Errorf("a changed first request: %v", miss)
	}
	_, _, miss = c.Play("POST", "/v1/responses", []byte(`{}`))
	if miss == nil || miss.Path != "" || !strings.Contains(miss.Error(), "the cassette has no POST /v1/responses") {
		t.Errorf("another route: %v", miss)
	}
}

// The schedule is the recorded chunks' times; a whole body's is its first byte's.
func TestSchedule(t *testing.T) {
	r := &Recorded{Response: &replay.Response{Stream: true, Chunks: []replay.Chunk{{MS: 1.5}, {MS: 30}}}}
	if s := r.Schedule(); len(s) != 2 || s[0].Microseconds() != 1500 || s[1].Milliseconds() != 30 {
		t.Errorf("schedule %v", s)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("patterns: ['x+']\npaths: [$.a.b]\n"))
	f.Add([]byte(`{"builtin":false,"paths":["$.user"]}`))
	f.Add([]byte("builtin: true"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Parse(b)
		if err != nil {
			return
		}
		r.Normalize("POST", "/v1/chat/completions", []byte(`{"a":"2026-12-02","user":"u"}`))
	})
}

// Normalize takes any body; a JSON one's key is JSON, and normalising it again changes nothing.
func FuzzNormalize(f *testing.F) {
	f.Add([]byte(`{"messages":[{"role":"user","content":"at /tmp/x1 on 2026-12-02 12:00"}],"user":"u"}`))
	f.Add([]byte(`not json /tmp/a`))
	f.Add([]byte(`[1, 2.50, "Dec 2, 2026"]`))
	r := Builtin()
	f.Fuzz(func(t *testing.T, b []byte) {
		k := r.Normalize("POST", "/p", b)
		if !json.Valid(b) {
			return
		}
		if !json.Valid(k.Body) && len(k.Body) > 0 {
			t.Fatalf("key %q of %q is not JSON", k.Body, b)
		}
		if again := r.Normalize("POST", "/p", k.Body); string(again.Body) != string(k.Body) {
			t.Fatalf("not stable:\n%q\n%q", k.Body, again.Body)
		}
	})
}
