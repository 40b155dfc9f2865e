package fakeprovider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/openai/openai-go/v3"
)

const hello = `{"model":"fake-model","messages":[{"role":"user","content":"hi"}]}`

func post(t *testing.T, url, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

type apiError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func decodeError(t *testing.T, b []byte) apiError {
	t.Helper()
	var e apiError
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || e.Error.Message == "" || e.Error.Type == "" {
		t.Fatalf("not an OpenAI error body (%v): %s", err, b)
	}
	var raw map[string]map[string]json.RawMessage
	json.Unmarshal(b, &raw)
	for _, k := range []string{"message", "type", "param", "code"} {
		if _, ok := raw["error"][k]; !ok {
			t.Errorf("error body lacks %q: %s", k, b)
		}
	}
	return e
}

// Bad input gets OpenAI's error body and the right status; a script that ran out says which
// script and which request, and so does the recording.
func TestErrorStatuses(t *testing.T) {
	s, err := script.Parse("short.yaml", []byte("models: [fake-model]\nreplies:\n  - text: only one\n"))
	if err != nil {
		t.Fatal(err)
	}
	rec, w := recording(t, replay.Header{Source: "fake", Script: "short.yaml"})
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s, Record: w, MaxBody: 1000})
	url := srv.BaseURL() + "/chat/completions"
	for _, c := range []struct {
		name, body string
		status     int
		typ, code  string
		msg        string
	}{
		{"malformed JSON", `{"model":"fake-model","messages":[`, 400, "invalid_request_error", "invalid_json", "could not parse the JSON body"},
		{"unknown model", `{"model":"gpt-9","messages":[{"role":"user","content":"x"}]}`, 404, "invalid_request_error", "model_not_found", "The model `gpt-9` does not exist"},
		{"over the limit", `{"model":"fake-model","messages":[{"role":"user","content":"` + strings.Repeat("x", 2000) + `"}]}`, 413, "invalid_request_error", "request_too_large", "limit of 1000 bytes"},
		{"first reply", hello, 200, "", "", ""},
		{"ran out", hello, 500, "server_error", "script_ran_out", "script short.yaml ran out at request 2"},
	} {
		resp, b := post(t, url, c.body)
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d: %s", c.name, resp.StatusCode, c.status, b)
			continue
		}
		if c.status == 200 {
			continue
		}
		e := decodeError(t, b)
		if e.Error.Type != c.typ || e.Error.Code == nil || *e.Error.Code != c.code || !strings.Contains(e.Error.Message, c.msg) {
			t.Errorf("%s: %s", c.name, b)
		}
	}
	// The SDK reads the same body as an *openai.Error.
	client := sdkClient(srv)
	_, err = client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{Model: "gpt-9", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("x")}})
	var oe *openai.Error
	if !errors.As(err, &oe) || oe.StatusCode != 404 || oe.Code != "model_not_found" || oe.Param != "model" {
		t.Errorf("SDK error: %#v", err)
	}
	entries := readBack(t, srv, w, rec)
	if len(entries) != 6 {
		t.Fatalf("%d exchanges recorded, want 6", len(entries))
	}
	ranOut := entries[4].Exchange
	if ranOut.Response == nil || ranOut.Response.Status != 500 || ranOut.Error != "script short.yaml ran out at request 2: its 1 replies are used up, no rule matched, and it sets no default policy (add replies, or a `default:`)" {
		t.Errorf("the recording of the request the script ran out at: %+v", ranOut)
	}
	over := entries[2].Exchange
	if !strings.Contains(over.Error, "over the limit of 1000 bytes; its first 1001 bytes are recorded") {
		t.Errorf("the recording of the body over the limit: %q", over.Error)
	}
}

func TestUnknownRoutes(t *testing.T) {
	srv := fakeprovidertest.New(t, nil)
	for _, c := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/v1/nothing", 404, ""},
		{"DELETE", "/v1/chat/completions", 405, "POST"},
		{"GET", "/v1/chat/completions", 405, "POST"},
		{"POST", "/v1/models", 405, "GET"},
		{"DELETE", "/v1/me/personalization", 405, "GET, PUT"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || resp.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d Allow %q, want %d %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Allow"), c.status, c.allow)
		}
		e := decodeError(t, b)
		if c.status != 404 {
			continue
		}
		// The 404 names every route, the Messages and Gemini APIs' too.
		for _, route := range []string{"POST /v1/messages;", "POST /v1/messages/count_tokens", "POST /v1beta/models/{call}",
			"GET /v1beta/models;", "POST /v1/chat/completions", "GET /v1/models", "POST, GET /v1/responses;", "GET /metrics", "GET /.well-known/lembas.json"} {
			if !strings.Contains(e.Error.Message, route) {
				t.Errorf("the 404 does not list %s: %s", route, e.Error.Message)
			}
		}
	}
}

// A script whose `read` reply meets an agent offering no file-read tool says so, naming both.
func TestNoReadTool(t *testing.T) {
	s, _ := script.Parse("r.yaml", []byte("- read: a.md\n"))
	srv := fakeprovidertest.New(t, s)
	resp, b := post(t, srv.BaseURL()+"/chat/completions", `{"model":"fake-model","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"bash","parameters":{"properties":{"command":{}}}}}]}`)
	e := decodeError(t, b)
	if resp.StatusCode != 500 || *e.Error.Code != "no_read_tool" || !strings.Contains(e.Error.Message, "offers tools bash") {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
}

// Nothing binds beyond loopback unless asked for by name.
func TestListensOnLoopback(t *testing.T) {
	for _, listen := range []string{"", ":0", "127.0.0.1:0"} {
		srv, err := fakeprovider.Start(fakeprovider.Config{Listen: listen})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
			t.Errorf("--listen %q bound %s", listen, srv.URL)
		}
		srv.Close()
	}
	if _, err := fakeprovider.Start(fakeprovider.Config{Listen: "nonsense"}); err == nil || !strings.Contains(err.Error(), "want host:port") {
		t.Errorf("bad --listen: %v", err)
	}
	if _, err := fakeprovider.Start(fakeprovider.Config{Dialect: "tgi"}); err == nil {
		t.Error("unknown dialect accepted")
	}
}

// Serve runs until its context is done, handing the running server to ready first.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- fakeprovider.Serve(ctx, fakeprovider.Config{}, func(s *fakeprovider.Server) { got <- s.URL })
	}()
	url := <-got
	resp, b := post(t, url+"/v1/chat/completions", hello)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := http.Get(url + "/v1/models"); err == nil {
		t.Error("still serving after its context ended")
	}
}

// Strict mode answers what the API refuses with its 400 and param; without it the fake takes it.
func TestStrictServer(t *testing.T) {
	body := `{"model":"fake-model","temperature":"hot","messages":[{"role":"wizard","content":"hi"}]}`
	strict := fakeprovidertest.NewWith(t, fakeprovider.Config{Strict: true})
	resp, b := post(t, strict.BaseURL()+"/chat/completions", body)
	e := decodeError(t, b)
	if resp.StatusCode != 400 || e.Error.Param == nil || *e.Error.Param != "temperature" {
		t.Errorf("strict: %d %s", resp.StatusCode, b)
	}
	lenient := fakeprovidertest.New(t, nil)
	if resp, b := post(t, lenient.BaseURL()+"/chat/completions", body); resp.StatusCode != 200 {
		t.Errorf("lenient: %d %s", resp.StatusCode, b)
	}
}
