package fakeprovider_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// An Anthropic error carries its request_id in the request-id header too, and errors and
// successes are numbered by one counter: the 200 after a 400 has the next id.
func TestAnthropicRequestIDs(t *testing.T) {
	srv := strictServer(t, "replies:\n  - {text: hi}\n")
	send := func(body string) (int, string, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var e struct {
			RequestID string `json:"request_id"`
		}
		json.Unmarshal(b, &e)
		return resp.StatusCode, resp.Header.Get("request-id"), e.RequestID
	}
	status, header, body := send(`{"model":"fake-model","messages":[]}`)
	if status != http.StatusBadRequest || header != "req_fake1" || body != "req_fake1" {
		t.Errorf("400: status %d, header %q, body %q; want req_fake1 in both", status, header, body)
	}
	status, header, _ = send(`{"model":"fake-model","max_tokens":9,"messages":[{"role":"user","content":"hi"}]}`)
	if status != http.StatusOK || header != "req_fake2" {
		t.Errorf("200 after the 400: status %d, header %q; want req_fake2", status, header)
	}
}

// Without --model or a script's models, any model id is served, in every API, and the start
// line says so; a list restricts them.
func TestAnyModelByDefault(t *testing.T) {
	srv := strictServer(t, "replies:\n  - {text: a}\n  - {text: b}\n  - {text: c}\n")
	for path, body := range map[string]string{
		"/v1/chat/completions": `{"model":"gpt-9","messages":[{"role":"user","content":"x"}]}`,
		"/v1/messages":         `{"model":"claude-nine","max_tokens":9,"messages":[{"role":"user","content":"x"}]}`,
		"/v1beta/models/gemini-nine:generateContent": `{"contents":[{"role":"user","parts":[{"text":"x"}]}]}`,
	} {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %s %s", path, resp.Status, b)
		}
	}
	if got := srv.ModelsAbout(); !strings.HasPrefix(got, "any model id") {
		t.Errorf("ModelsAbout %q", got)
	}
	only := strictServer(t, "models: [m1]\nreplies:\n  - {text: a}\n")
	resp, err := http.Post(only.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-9","messages":[{"role":"user","content":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(only.ModelsAbout(), "m1") {
		t.Errorf("restricted: %s, %q", resp.Status, only.ModelsAbout())
	}
}
