package fakeprovider_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Settings are checked as the flags they come from: each error names its flag.
func TestSettingsConfig(t *testing.T) {
	ok := fakeprovider.Settings{Usage: "llama.cpp", CacheSlots: 2, Models: []string{"m"}, MaxBody: 10, Strict: true}
	cfg, err := ok.Config()
	if err != nil || cfg.Dialect != usage.LlamaCpp || cfg.CacheSlots != 2 || cfg.Models[0] != "m" || cfg.MaxBody != 10 || !cfg.Strict || cfg.Script != nil {
		t.Fatalf("%+v %v", cfg, err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("turns: [[["), 0o644)
	for _, c := range []struct {
		s    fakeprovider.Settings
		want string
	}{
		{fakeprovider.Settings{Script: "s.yaml", Upstream: "http://x", Usage: "openai", CacheSlots: 1}, "--script and --upstream: give one"},
		{fakeprovider.Settings{Usage: "klingon", CacheSlots: 1}, "--usage: "},
		{fakeprovider.Settings{Usage: "openai", CacheSlots: 0}, "--cache-slots 0: want 1 or more"},
		{fakeprovider.Settings{Script: bad, Usage: "openai", CacheSlots: 1}, "--script " + bad + ": "},
	} {
		if _, err := c.s.Config(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

// A recording's header and the announcing line say what answers: a proxy, a script or the
// default policy.
func TestSettingsHeaderAbout(t *testing.T) {
	for _, c := range []struct {
		s                     fakeprovider.Settings
		source, upstream, scr string
		about                 string
	}{
		{fakeprovider.Settings{}, "fake", "", "", "the default policy (read README.md, then answer done)"},
		{fakeprovider.Settings{Script: "s.yaml"}, "fake", "", "s.yaml", "script s.yaml"},
		{fakeprovider.Settings{Upstream: "http://u"}, "proxy", "http://u", "", "a recording proxy to http://u"},
	} {
		h := c.s.Header("lembas-check 1.2")
		if h.Tool != "lembas-check 1.2" || h.Source != c.source || h.Upstream != c.upstream || h.Script != c.scr {
			t.Errorf("%+v: header %+v", c.s, h)
		}
		if got := c.s.About(); got != c.about {
			t.Errorf("%+v: about %q, want %q", c.s, got, c.about)
		}
	}
}

// Stop closes the recording, reads it back, and says what it holds; without a recording it
// counts the requests served.
func TestStop(t *testing.T) {
	path, w := recording(t, replay.Header{Source: "fake"})
	srv, err := fakeprovider.Start(fakeprovider.Config{Record: w})
	if err != nil {
		t.Fatal(err)
	}
	post(t, srv.BaseURL()+"/chat/completions", `{"model":"fake-model","messages":[{"role":"user","content":"hi"}]}`)
	post(t, srv.BaseURL()+"/chat/completions", `{"model":"other","messages":[{"role":"user","content":"hi"}]}`)
	var log bytes.Buffer
	n, ok := srv.Stop(path, &log)
	if n != 2 || !ok {
		t.Errorf("Stop: %d exchanges, ok %v; want 2, true\n%s", n, ok, log.String())
	}
	if !strings.HasPrefix(log.String(), "lembas-check: recorded 2 exchanges (2 requests served, ") || !strings.Contains(log.String(), " in "+path+", ") {
		t.Errorf("the summary:\n%s", log.String())
	}

	bare, err := fakeprovider.Start(fakeprovider.Config{})
	if err != nil {
		t.Fatal(err)
	}
	post(t, bare.BaseURL()+"/chat/completions", `{"model":"fake-model","messages":[{"role":"user","content":"hi"}]}`)
	log.Reset()
	if n, ok := bare.Stop("", &log); n != 1 || !ok || log.Len() != 0 {
		t.Errorf("Stop without a recording: %d, %v, %q", n, ok, log.String())
	}

	// A recording that cannot be read back is not finished.
	_, w2 := recording(t, replay.Header{Source: "fake"})
	srv2, err := fakeprovider.Start(fakeprovider.Config{Record: w2})
	if err != nil {
		t.Fatal(err)
	}
	log.Reset()
	missing := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	if n, ok := srv2.Stop(missing, &log); n != 0 || ok || !strings.Contains(log.String(), "reading "+missing+" back") {
		t.Errorf("Stop with a recording not read back: %d, %v, %q", n, ok, log.String())
	}
}

// Logged counts what the server said on its log: the default policy finding no tool to drive.
func TestLogged(t *testing.T) {
	var log bytes.Buffer
	srv, err := fakeprovider.Start(fakeprovider.Config{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	post(t, srv.BaseURL()+"/chat/completions", `{"model":"fake-model","messages":[{"role":"user","content":"hi"}]}`)
	if srv.Logged() != 0 {
		t.Fatalf("logged %d before any problem: %s", srv.Logged(), log.String())
	}
	post(t, srv.BaseURL()+"/chat/completions", `{"model":"fake-model","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"paint","parameters":{"type":"object"}}}]}`)
	if srv.Logged() != 1 || !strings.Contains(log.String(), "the default policy can use none of them") {
		t.Errorf("logged %d: %s", srv.Logged(), log.String())
	}
}

// --env's words are NAME=VALUE; the command's environment points at the server, {url} standing
// for its root URL.
func TestCommandEnv(t *testing.T) {
	for _, bad := range []string{"X", "=1"} {
		if err := fakeprovider.CheckEnv([]string{bad}); err == nil || !strings.HasPrefix(err.Error(), "--env \""+bad+"\": want NAME=VALUE") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if err := fakeprovider.CheckEnv([]string{"A={url}/x", "B="}); err != nil {
		t.Error(err)
	}
	srv, err := fakeprovider.Start(fakeprovider.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := strings.Join(srv.Env([]string{"A={url}/x"}), "\n")
	for _, want := range []string{"\nOPENAI_BASE_URL=" + srv.BaseURL() + "\n", "\nOPENAI_API_KEY=lembas-check-fake\n", "\nA=" + srv.URL + "/x"} {
		if !strings.Contains(env, want) {
			t.Errorf("the environment has no %q", want)
		}
	}
}

// Serve says its URL first, serves until its context ends, and finishes its recording.
func TestSettingsServe(t *testing.T) {
	if ok, err := (fakeprovider.Settings{Usage: "klingon", CacheSlots: 1}).Serve(t.Context(), "t", "", io.Discard, io.Discard); ok || err == nil {
		t.Errorf("bad settings: %v, %v", ok, err)
	}
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	ctx, cancel := context.WithCancel(t.Context())
	r, w := io.Pipe()
	var log bytes.Buffer
	done := make(chan bool)
	go func() {
		ok, err := (fakeprovider.Settings{Usage: "openai", CacheSlots: 1}).Serve(ctx, "lembas-check test", rec, w, &log)
		w.Close()
		done <- ok && err == nil
	}()
	url, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	post(t, strings.TrimSpace(url)+"/v1/chat/completions", `{"model":"fake-model","messages":[{"role":"user","content":"hi"}]}`)
	cancel()
	go io.Copy(io.Discard, r)
	if !<-done || !strings.Contains(log.String(), "lembas-check: recorded 1 exchanges") {
		t.Errorf("Serve did not finish its recording:\n%s", log.String())
	}
}

// --redact's file is checked up front, its error naming the flag; its rules reach the header.
func TestRedactSetting(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.yaml")
	os.WriteFile(p, []byte("patterns: ['(']\n"), 0o644)
	if _, err := (fakeprovider.Settings{Usage: "openai", CacheSlots: 1, Redact: p}).Config(); err == nil || !strings.Contains(err.Error(), "--redact") {
		t.Errorf("bad pattern: %v", err)
	}
	os.WriteFile(p, []byte("paths: [$.user]\n"), 0o644)
	s := fakeprovider.Settings{Usage: "openai", CacheSlots: 1, Redact: p}
	if _, err := s.Config(); err != nil {
		t.Fatal(err)
	}
	if h := s.Header("t"); h.Rules == nil || !slices.Contains(h.Rules.Kinds(), "$.user") {
		t.Errorf("header rules %v", h.Rules)
	}
}
