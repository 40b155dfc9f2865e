package fakeprovider_test

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

const (
	castFirst = `{"model":"fake-model","stream":true,"messages":[{"role":"system","content":"cwd /tmp/run-1 on ` +
		`2026-12-02"},{"role":"user","content":"Read README.md"}],"tools":[{"type":"function","function":{"name":` +
		`"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]}`
	// The same request from another run: another temporary directory and day, members reordered.
	castAgain = `{"messages":[{"role":"system","content":"cwd /tmp/run-2 on 2026-12-03"},{"role":"user","content":` +
		`"Read README.md"}],"model":"fake-model","stream":true,"tools":[{"type":"function","function":{"name":"read",` +
		`"parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]}`
)

// castFrom records one streamed exchange with the fake's default policy: the cassette.
func castFrom(t *testing.T) (path string, answer []byte) {
	t.Helper()
	srv, path, w := recorded(t, fakeprovider.Config{})
	resp, b := post(t, srv.BaseURL()+"/chat/completions", castFirst)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	readBack(t, srv, w, path)
	return path, b
}

// cassetteServer is a fake playing the cassette with settings s, recording to its own file.
func cassetteServer(t *testing.T, s fakeprovider.Settings) (srv *fakeprovider.Server, path string, w *replay.Writer,
	log *bytes.Buffer) {
	t.Helper()
	cfg, err := flagged(s).Config()
	if err != nil {
		t.Fatal(err)
	}
	log = &bytes.Buffer{}
	cfg.Log = log
	path, w = recording(t, s.Header("test"))
	cfg.Record = w
	return fakeprovidertest.NewWith(t, cfg), path, w, log
}

// An agent's request from another run gets the recorded answer byte for byte, in its recorded
// chunks, and the new recording says what it played.
func TestCassettePlays(t *testing.T) {
	cas, answer := castFrom(t)
	srv, path, w, _ := cassetteServer(t, fakeprovider.Settings{Cassette: cas})
	resp, b := post(t, srv.BaseURL()+"/chat/completions", castAgain)
	if resp.StatusCode != 200 || !bytes.Equal(b, answer) {
		t.Fatalf("%d %s\nwant the recorded %s", resp.StatusCode, b, answer)
	}
	if resp.Header.Get("X-Request-Id") != "req_fake1" {
		t.Errorf("headers %v, want the recorded ones", resp.Header)
	}
	es := readBack(t, srv, w, path)
	orig, _, _ := replay.ReadAll(cas)
	if len(es) != 1 || es[0].Exchange.Note != "cassette exchange 1" {
		t.Fatalf("recorded %+v", es)
	}
	if got, want := len(es[0].Exchange.Response.Chunks), len(orig[0].Exchange.Response.Chunks); got != want || want < 3 {
		t.Errorf("%d chunks played, %d recorded", got, want)
	}
	if u := srv.Unplayed(); len(u) != 0 {
		t.Errorf("unplayed %v", u)
	}
}

// A changed prompt is a 400 the agent sees, said on the log and recorded, naming the nearest
// recorded request and the first path where they differ.
func TestCassetteMiss(t *testing.T) {
	cas, _ := castFrom(t)
	srv, path, w, log := cassetteServer(t, fakeprovider.Settings{Cassette: cas})
	changed := strings.Replace(castAgain, "Read README.md", "Read main.go", 1)
	resp, b := post(t, srv.BaseURL()+"/chat/completions", changed)
	e := decodeError(t, b)
	want := "nearest is exchange 1 (line 4), first differing at $.messages[1].content"
	if resp.StatusCode != 400 || *e.Error.Code != "cassette_miss" || !strings.Contains(e.Error.Message, want) {
		t.Errorf("%d %s, want a 400 saying %s", resp.StatusCode, b, want)
	}
	if !strings.Contains(log.String(), want) {
		t.Errorf("log %q", log)
	}
	es := readBack(t, srv, w, path)
	if len(es) != 1 || !strings.Contains(es[0].Exchange.Error, want) {
		t.Errorf("recorded %+v", es[0].Exchange)
	}
	if srv.Misses() != 1 || len(srv.Unplayed()) != 1 {
		t.Errorf("misses %d, unplayed %v", srv.Misses(), srv.Unplayed())
	}
}

// Mode new answers what the cassette holds from it and only a miss from the upstream.
func TestCassetteNew(t *testing.T) {
	cas, answer := castFrom(t)
	up := fakeprovidertest.New(t, nil)
	srv, path, w, _ := cassetteServer(t, fakeprovider.Settings{Cassette: cas, CassetteMode: "new",
		Upstream: up.BaseURL()})
	if _, b := post(t, srv.BaseURL()+"/chat/completions", castAgain); !bytes.Equal(b, answer) || up.Requests() != 0 {
		t.Fatalf("a recorded request: %s, %d upstream requests", b, up.Requests())
	}
	resp, _ := post(t, srv.BaseURL()+"/chat/completions", hello)
	if resp.StatusCode != 200 || up.Requests() != 1 {
		t.Errorf("a new request: %d, %d upstream requests", resp.StatusCode, up.Requests())
	}
	es := readBack(t, srv, w, path)
	if len(es) != 2 || !strings.Contains(es[1].Exchange.Note, "answered by the upstream") {
		t.Errorf("recorded %+v", es)
	}
}

// With --timed each write goes at its recorded time; without, at once (the bubble's clock).
func TestCassetteTimed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "timed.jsonl")
	w, err := replay.Create(path, replay.Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	x := replay.Exchange{Seq: 1, Method: "POST", Path: "/v1/chat/completions", Response: &replay.Response{Status: 200,
		Stream: true, Headers: map[string][]string{"Content-Type": {"text/event-stream"}},
		Chunks: []replay.Chunk{{MS: 100, Data: "data: {}\n\n"}, {MS: 250, Data: "data: [DONE]\n\n"}}}}
	if err := w.Write(x, []byte(hello)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, timed := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			cfg, err := flagged(fakeprovider.Settings{Cassette: path, Timed: timed}).Config()
			if err != nil {
				t.Fatal(err)
			}
			srv, err := fakeprovider.NewInProcess(cfg)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			resp, err := srv.Client().Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(hello))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := 250 * time.Millisecond
			if !timed {
				want = 0
			}
			if took := time.Since(start); took != want || string(b) != "data: {}\n\ndata: [DONE]\n\n" {
				t.Errorf("timed %v: %q in %v, want %v", timed, b, took, want)
			}
			srv.Close()
		})
	}
}

// The flags that go with --cassette say what is wrong with them.
func TestCassetteSettings(t *testing.T) {
	cas, _ := castFrom(t)
	for _, c := range []struct {
		s    fakeprovider.Settings
		want string
	}{
		{fakeprovider.Settings{CassetteMode: "new"}, "--cassette-mode goes with --cassette"},
		{fakeprovider.Settings{Timed: true}, "--timed goes with --cassette"},
		{fakeprovider.Settings{Cassette: cas, CassetteMode: "sometimes"}, `--cassette-mode "sometimes"`},
		{fakeprovider.Settings{Cassette: cas, CassetteMode: "new"}, "give --upstream URL"},
		{fakeprovider.Settings{Cassette: cas, Upstream: "http://127.0.0.1:1/v1"}, "--upstream goes with"},
		{fakeprovider.Settings{Cassette: cas, Script: "s.yaml"}, "--script and --cassette"},
		{fakeprovider.Settings{Cassette: filepath.Join(t.TempDir(), "none.jsonl")}, "--cassette"},
		{fakeprovider.Settings{Cassette: cas, CassetteMatch: filepath.Join(t.TempDir(), "none.yaml")}, "--cassette-match"},
	} {
		if _, err := flagged(c.s).Config(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %s", c.s, err, c.want)
		}
	}
	s := fakeprovider.Settings{Cassette: cas, CassetteMode: "all", Upstream: "http://127.0.0.1:1/v1"}
	if err := s.CheckOut("--record", ""); err == nil || !strings.Contains(err.Error(), "give --record FILE") {
		t.Errorf("mode all with no recording: %v", err)
	}
	if err := s.CheckOut("--out", cas); err == nil || !strings.Contains(err.Error(), "is the cassette") {
		t.Errorf("the cassette as the new recording: %v", err)
	}
	if _, err := flagged(s).Config(); err != nil {
		t.Errorf("mode all: %v", err)
	}
}

// flagged is s with the defaults its flags have.
func flagged(s fakeprovider.Settings) fakeprovider.Settings {
	s.Usage, s.CacheSlots = "openai", 1
	return s
}

// A miss on the Messages API is in its error shape, with its request-id header, as the
// Anthropic SDKs read an error.
func TestCassetteMissAnthropic(t *testing.T) {
	cas, _ := castFrom(t)
	srv, _, _, _ := cassetteServer(t, fakeprovider.Settings{Cassette: cas})
	resp, b := post(t, srv.BaseURL()+"/messages", `{"model":"m","max_tokens":9,"messages":[]}`,
		"anthropic-version", "2023-06-01")
	if resp.StatusCode != 400 || resp.Header.Get("request-id") == "" || !strings.Contains(string(b), `"type":"error"`) ||
		!strings.Contains(string(b), "the cassette has no POST /v1/messages") {
		t.Errorf("%d %v %s", resp.StatusCode, resp.Header, b)
	}
}
