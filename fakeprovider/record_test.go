package fakeprovider_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/google/go-cmp/cmp"
)

// The recording holds each request byte for byte (system prompt and tools once), the response as
// sent, chunk by chunk with times, and never a credential.
func TestRecording(t *testing.T) {
	srv, path, w := recorded(t, fakeprovider.Config{})
	secrets := []string{"sk-live-SECRET1", "SECRET2-key", "SECRET3-cookie", "SECRET4-token", "SECRET5-apikey", "SECRET6-org", "SECRET7-proxy"}
	headers := []string{"Authorization", "Bearer " + secrets[0], "X-Api-Key", secrets[1], "Cookie", "session=" + secrets[2],
		"X-Custom-Token", secrets[3], "Api-Key", secrets[4], "OpenAI-Organization", secrets[5], "Proxy-Authorization", "Basic " + secrets[6],
		"X-Harness", "pi/0.73"}
	// Pretty-printed, as some clients send it: kept exactly.
	first := `{
  "model": "fake-model",
  "stream": true,
  "messages": [
    {"role": "system", "content": "You are a coding agent. Be brief."},
    {"role": "user", "content": "Read README.md"}
  ],
  "tools": [{"type": "function", "function": {"name": "read", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]
}`
	second := `{"model":"fake-model","messages":[{"role":"system","content":"You are a coding agent. Be brief."},{"role":"user","content":"Read README.md"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1_0","type":"function","function":{"name":"read","arguments":"{\"path\":\"README.md\"}"}}]},` +
		`{"role":"tool","tool_call_id":"call_1_0","content":"# Hello \u00e9\n"}],` +
		`"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]}`
	resp, got1 := post(t, srv.BaseURL()+"/chat/completions", first, headers...)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, got1)
	}
	// Written as soon as it completes, before anything else happens.
	waitExchanges(t, path, 1)
	_, got2 := post(t, srv.BaseURL()+"/chat/completions", second, headers...)
	srv.Close()
	w.Close()

	raw, _ := os.ReadFile(path)
	for _, s := range secrets {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("the recording holds the credential %q", s)
		}
	}
	if n := bytes.Count(raw, []byte(`"type":"blob"`)); n != 2 {
		t.Errorf("%d blob lines, want 2: the system prompt and the tools, once each", n)
	}
	es, r, err := replay.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Source != "fake" || len(es) != 2 {
		t.Fatalf("header %+v, %d exchanges", r.Header, len(es))
	}
	for i, body := range []string{first, second} {
		if string(es[i].Body) != body {
			t.Errorf("exchange %d: the body read back differs from the bytes sent:\n%s\n%s", i+1, es[i].Body, body)
		}
	}
	x := es[0].Exchange
	if d := cmp.Diff([]string{"api-key", "authorization", "cookie", "openai-organization", "proxy-authorization", "x-api-key", "x-custom-token"}, x.Request.Redacted); d != "" {
		t.Errorf("redacted (-want +got)\n%s", d)
	}
	if x.Request.Headers["X-Harness"][0] != "pi/0.73" {
		t.Errorf("a plain header was lost: %v", x.Request.Headers)
	}
	if x.Seq != 1 || x.Method != "POST" || x.Path != "/v1/chat/completions" || !x.Response.Stream || x.Response.Status != 200 {
		t.Errorf("exchange 1: %+v", x)
	}
	var joined strings.Builder
	prev := 0.0
	for _, c := range x.Response.Chunks {
		if c.MS < prev {
			t.Errorf("chunk offsets go back: %v after %v", c.MS, prev)
		}
		prev = c.MS
		joined.WriteString(c.Data)
	}
	if joined.String() != string(got1) {
		t.Errorf("the chunks recorded are not the bytes the client got:\n%s\n%s", joined.String(), got1)
	}
	if x.Timing.FirstByteMS <= 0 || x.Timing.FirstByteMS > x.Timing.TotalMS || x.Timing.FirstByteMS != x.Response.Chunks[0].MS {
		t.Errorf("timing %+v, first chunk at %v", x.Timing, x.Response.Chunks[0].MS)
	}
	y := es[1].Exchange
	if y.Response.Stream || !strings.Contains(string(y.Response.Body), `"content":"done"`) || string(got2) != string(y.Response.Body) {
		t.Errorf("exchange 2's body: %s\nsent: %s", y.Response.Body, got2)
	}
}

// GET requests and the instance endpoints are recorded too; /metrics is not.
func TestRecordingAllRoutes(t *testing.T) {
	srv, path, w := recorded(t, fakeprovider.Config{})
	for _, p := range []string{"/v1/models", "/.well-known/lembas.json", "/metrics", "/nowhere"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if srv.Requests() != 3 {
		t.Errorf("%d requests counted, want 3 (not /metrics)", srv.Requests())
	}
	es := readBack(t, srv, w, path)
	var paths []string
	for _, e := range es {
		paths = append(paths, e.Exchange.Path)
	}
	if d := cmp.Diff([]string{"/v1/models", "/.well-known/lembas.json", "/nowhere"}, paths); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}
