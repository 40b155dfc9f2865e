package simserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// keys lists a JSON value's object keys, recursively, as paths.
func keys(t *testing.T, raw []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(p string, v any)
	walk = func(p string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				out = append(out, p+"."+k)
				walk(p+"."+k, c)
			}
		case []any:
			if len(x) > 0 {
				walk(p+"[]", x[0])
			}
		}
	}
	walk("", v)
	sort.Strings(out)
	return out
}

func post(t *testing.T, url, body string) []byte {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %s", resp.Status, b)
	}
	return b
}

// The simulated server answers with llama-server's fields, field for field (the fixtures in
// testdata/llamacpp), streamed or not.
func TestFieldForFieldWithTheFixtures(t *testing.T) {
	s := New(1, "m")
	s.Now = func() time.Time { return time.Unix(1796008311, 0) }
	srv := httptest.NewServer(s)
	defer srv.Close()
	body := `{"model":"m","messages":[{"role":"system","content":"You are careful."},{"role":"user","content":"hi"}]}`
	got := post(t, srv.URL+"/v1/chat/completions", body)
	want, _ := os.ReadFile("../../testdata/llamacpp/01-cold-nonstream.json")
	if d := cmp.Diff(keys(t, want), keys(t, got)); d != "" {
		t.Errorf("whole answer's fields (-fixture +sim):\n%s", d)
	}
	stream := post(t, srv.URL+"/v1/chat/completions", strings.Replace(body, `"model":"m"`, `"model":"m","stream":true`, 1))
	fix, _ := os.ReadFile("../../testdata/llamacpp/03-warm-stream.sse")
	fe, ge := events(string(fix)), events(string(stream))
	if ge[len(ge)-1] != "[DONE]" || len(ge) < 4 {
		t.Fatalf("stream: %q", ge)
	}
	for _, c := range [][2]string{{fe[0], ge[0]}, {fe[1], ge[1]}, {fe[len(fe)-3], ge[len(ge)-3]}, {fe[len(fe)-2], ge[len(ge)-2]}} {
		if d := cmp.Diff(keys(t, []byte(c[0])), keys(t, []byte(c[1]))); d != "" {
			t.Errorf("stream chunk fields (-fixture +sim):\n%s", d)
		}
	}
	var last struct {
		Usage struct {
			PromptTokens        int `json:"prompt_tokens"`
			PromptTokensDetails struct {
				CachedTokens int `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		}
		Timings struct {
			Cache  int `json:"cache_n"`
			Prompt int `json:"prompt_n"`
		}
	}
	json.Unmarshal([]byte(ge[len(ge)-2]), &last)
	if last.Usage.PromptTokensDetails.CachedTokens != last.Timings.Cache || last.Timings.Cache+last.Timings.Prompt != last.Usage.PromptTokens || last.Timings.Cache == 0 {
		t.Errorf("the second request should be served from cache, and the dialects agree: %+v", last)
	}
}

func events(s string) []string {
	var out []string
	for _, ev := range strings.Split(s, "\n\n") {
		if d, ok := strings.CutPrefix(strings.TrimSpace(ev), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

func TestSlotsAndErrors(t *testing.T) {
	srv := httptest.NewServer(New(2, ""))
	defer srv.Close()
	post(t, srv.URL+"/v1/chat/completions", `{"messages":[{"role":"user","content":"hello there"}]}`)
	resp, _ := http.Get(srv.URL + "/slots")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"n_prompt_tokens":`) || strings.Count(string(b), `"id":`) != 2 {
		t.Errorf("slots: %s", b)
	}
	for path, code := range map[string]int{"/slots/0?action=erase": 200, "/slots/7?action=erase": 400, "/slots/0?action=save": 400} {
		resp, _ := http.Post(srv.URL+path, "", nil)
		if resp.StatusCode != code {
			t.Errorf("%s: %d, want %d", path, resp.StatusCode, code)
		}
		resp.Body.Close()
	}
	resp, _ = http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"prompt":"x"}`))
	if resp.StatusCode != 400 {
		t.Errorf("not a chat request: %d", resp.StatusCode)
	}
	resp.Body.Close()
	resp, _ = http.Get(srv.URL + "/v1/models")
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"id":"sim"`) {
		t.Errorf("models: %s", b)
	}
}
