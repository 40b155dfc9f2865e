package fakeprovider_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/google/go-cmp/cmp"
)

// okFake is the fake answering "ok" to every request, set up as cfg says (its dialect, models,
// slots). A rule without a condition, not a default policy answering "ok": the policy would call
// a read tool the request offers, and give a JSON format its own text.
func okFake(t *testing.T, cfg fakeprovider.Config) *fakeprovider.Server {
	t.Helper()
	cfg.Script = &script.Script{Name: "ok", Rules: []script.Rule{{Reply: script.Reply{Text: "ok"}}}}
	return fakeprovidertest.NewWith(t, cfg)
}

// llamaFake is the fake as a simulated llama-server: the llama.cpp dialect, the simulator's
// usage, one fixed answer.
func llamaFake(t *testing.T, slots int, models ...string) *fakeprovider.Server {
	t.Helper()
	return okFake(t, fakeprovider.Config{Models: models, Dialect: usage.LlamaCpp, CacheSlots: slots, Now: func() time.Time { return time.Unix(1796008311, 0) }})
}

// keyPaths lists a JSON value's object keys, recursively, as paths.
func keyPaths(t *testing.T, raw []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
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

func postOK(t *testing.T, url, body string) []byte {
	t.Helper()
	resp, b := post(t, url, body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %s", resp.Status, b)
	}
	return b
}

func dataEvents(s string) []string {
	var out []string
	for _, ev := range strings.Split(s, "\n\n") {
		if d, ok := strings.CutPrefix(strings.TrimSpace(ev), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

// As a simulated llama-server the fake answers with llama-server's fields, field for field (the
// fixtures in testdata/llamacpp), streamed or not, and serves a repeated prefix from its cache.
func TestLlamaServerFieldForFieldWithTheFixtures(t *testing.T) {
	srv := llamaFake(t, 1, "m")
	body := `{"model":"m","messages":[{"role":"system","content":"You are careful."},{"role":"user","content":"hi"}]}`
	got := postOK(t, srv.URL+"/v1/chat/completions", body)
	want, _ := os.ReadFile("../testdata/llamacpp/01-cold-nonstream.json")
	if d := cmp.Diff(keyPaths(t, want), keyPaths(t, got)); d != "" {
		t.Errorf("whole answer's fields (-fixture +fake):\n%s", d)
	}
	stream := postOK(t, srv.URL+"/v1/chat/completions", strings.Replace(body, `"model":"m"`, `"model":"m","stream":true,"stream_options":{"include_usage":true}`, 1))
	fix, _ := os.ReadFile("../testdata/llamacpp/03-warm-stream.sse")
	fe, ge := dataEvents(string(fix)), dataEvents(string(stream))
	if ge[len(ge)-1] != "[DONE]" || len(ge) < 4 {
		t.Fatalf("stream: %q", ge)
	}
	for _, c := range [][2]string{{fe[0], ge[0]}, {fe[1], ge[1]}, {fe[len(fe)-3], ge[len(ge)-3]}, {fe[len(fe)-2], ge[len(ge)-2]}} {
		if d := cmp.Diff(keyPaths(t, []byte(c[0])), keyPaths(t, []byte(c[1]))); d != "" {
			t.Errorf("stream chunk fields (-fixture +fake):\n%s", d)
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

// The slots are llama-server's /slots: listed, each erased by id; anything else is refused.
func TestSlotsAndErrors(t *testing.T) {
	srv := llamaFake(t, 2, "sim")
	postOK(t, srv.URL+"/v1/chat/completions", `{"model":"sim","messages":[{"role":"user","content":"hello there"}]}`)
	resp, _ := http.Get(srv.URL + "/slots")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"n_prompt_tokens":`) || strings.Count(string(b), `"id":`) != 2 {
		t.Errorf("slots: %s", b)
	}
	// The fields are a subset of llama-server's, in its order.
	fix, _ := os.ReadFile("../testdata/llamacpp/06-slots.json")
	if d := cmp.Diff(orderedSubset(t, fix, b), topKeys(t, b)); d != "" {
		t.Errorf("slot fields not in llama-server's order (-fixture's order +fake):\n%s", d)
	}
	for path, code := range map[string]int{"/slots/0?action=erase": 200, "/slots/7?action=erase": 400, "/slots/0?action=save": 400} {
		resp, _ := http.Post(srv.URL+path, "", nil)
		if resp.StatusCode != code {
			t.Errorf("%s: %d, want %d", path, resp.StatusCode, code)
		}
		resp.Body.Close()
	}
	resp, _ = http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"sim","prompt":"x"}`))
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

// Erasing a slot empties it: it held the prompt, it says how many tokens it erased, then it holds
// none; in another dialect there are no slots to erase.
func TestEraseEmptiesTheSlot(t *testing.T) {
	srv := llamaFake(t, 1, "sim")
	postOK(t, srv.URL+"/v1/chat/completions", `{"model":"sim","messages":[{"role":"user","content":"hello there"}]}`)
	var before, after []struct {
		ID     int `json:"id"`
		Prompt int `json:"n_prompt_tokens"`
	}
	getJSON(t, srv.URL+"/slots", &before)
	erased := postOK(t, srv.URL+"/slots/0?action=erase", "")
	getJSON(t, srv.URL+"/slots", &after)
	var e struct {
		ID     int `json:"id_slot"`
		Erased int `json:"n_erased"`
	}
	json.Unmarshal(erased, &e)
	if len(before) != 1 || before[0].Prompt == 0 || e.ID != 0 || e.Erased != before[0].Prompt || len(after) != 1 || after[0].Prompt != 0 {
		t.Errorf("before %+v, erase %s, after %+v", before, erased, after)
	}
	openai := fakeprovidertest.NewWith(t, fakeprovider.Config{})
	if code := getJSON(t, openai.URL+"/slots", &struct{}{}); code != http.StatusNotFound {
		t.Errorf("GET /slots in the openai dialect: %d, want 404", code)
	}
}

// topKeys lists the keys of the first object of a JSON array, in the order they are written.
func topKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) == 0 {
		t.Fatalf("not a list of objects (%v): %s", err, raw)
	}
	return keysOf(t, list[0])
}

// orderedSubset is the fixture's keys (of its first slot) that the fake also writes, in the
// fixture's order.
func orderedSubset(t *testing.T, fixture, fake []byte) []string {
	have := map[string]bool{}
	for _, k := range topKeys(t, fake) {
		have[k] = true
	}
	var out []string
	for _, k := range topKeys(t, fixture) {
		if have[k] {
			out = append(out, k)
		}
	}
	return out
}

// A streamed reply paced by an interval tells llama.cpp's timings it took the interval per
// piece: "one two three" is three pieces at 20 ms.
func TestStreamTimingsCountTheInterval(t *testing.T) {
	s := mustParse(t, "rules:\n  - when: {tool_result: false}\n    reply: {text: \"one two three\", interval: 20ms}\n")
	fake := fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s, Dialect: usage.LlamaCpp})
	_, b := post(t, fake.URL+"/v1/chat/completions",
		`{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"count"}]}`)
	i := bytes.LastIndex(b, []byte(`"timings":`))
	if i < 0 {
		t.Fatalf("no timings in %s", b)
	}
	var tm struct {
		PredictedMS float64 `json:"predicted_ms"`
	}
	if err := json.NewDecoder(bytes.NewReader(b[i+len(`"timings":`):])).Decode(&tm); err != nil {
		t.Fatal(err)
	}
	if tm.PredictedMS != 60 {
		t.Errorf("predicted_ms %v, want 60 (3 pieces at 20 ms)", tm.PredictedMS)
	}
}

// Made with KeepSlotOrder, the fake says when each request took its slot and gave it back, by its
// X-Request-Id: the second took the one slot after the first gave it back, and a request refused
// for its length took it and gave it back at once.
func TestSlotOrderByRequestID(t *testing.T) {
	cache, err := cachesim.NewWith(1, cachesim.Options{Context: 40})
	if err != nil {
		t.Fatal(err)
	}
	fake := okFake(t, fakeprovider.Config{Dialect: usage.LlamaCpp, Cache: cache, KeepSlotOrder: true})
	ids := []string{}
	for _, content := range []string{"hi", "hello", strings.Repeat("many words ", 40)} {
		resp, _ := post(t, fake.URL+"/v1/chat/completions",
			`{"model":"m","messages":[{"role":"user","content":"`+content+`"}]}`)
		ids = append(ids, resp.Header.Get("X-Request-Id"))
		if want := map[bool]int{false: 200, true: 400}[len(content) > 40]; resp.StatusCode != want {
			t.Fatalf("%q: status %d, want %d", content[:min(len(content), 10)], resp.StatusCode, want)
		}
	}
	var spans [][2]int64
	for _, id := range ids {
		taken, released, ok := fake.SlotOrder(id)
		if !ok {
			t.Fatalf("no slot order for %q (ids %q)", id, ids)
		}
		spans = append(spans, [2]int64{taken, released})
	}
	for i, sp := range spans {
		if sp[0] >= sp[1] || i > 0 && spans[i-1][1] >= sp[0] {
			t.Errorf("spans %v: request %d", spans, i+1)
		}
	}
	if _, _, ok := fake.SlotOrder("req_fake99"); ok {
		t.Error("a request never sent has a slot order")
	}
}
