package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/google/go-cmp/cmp"
)

// The llamacpp dialect must match real llama-server answers (testdata/llamacpp, pinned by
// SHA256SUMS) field for field: the same keys at every level, each of the same JSON type.

const fixtures = "../../../testdata/llamacpp/"

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(fixtures + name)
	if err != nil {
		t.Fatalf("fixture %s: %v (run from the repository; the fixtures are pinned in testdata/llamacpp/SHA256SUMS)", name, err)
	}
	return b
}

// shape lists every path of a JSON value with its type: "choices[].message.content: string".
// Arrays contribute their elements' union shape.
func shape(t *testing.T, b []byte) []string {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	set := map[string]bool{}
	var walk func(p string, v any)
	walk = func(p string, v any) {
		switch x := v.(type) {
		case map[string]any:
			set[p+": object"] = true
			for k, e := range x {
				walk(strings.TrimPrefix(p+"."+k, "."), e)
			}
		case []any:
			set[p+": array"] = true
			for _, e := range x {
				walk(p+"[]", e)
			}
		case string:
			set[p+": string"] = true
		case json.Number:
			set[p+": number"] = true
		case bool:
			set[p+": bool"] = true
		case nil:
			set[p+": null"] = true
		default:
			set[p+": "+fmt.Sprintf("%T", x)] = true
		}
	}
	walk("", v)
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sseData splits raw SSE bytes into the data of each event.
func sseData(t *testing.T, raw []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for _, ev := range bytes.Split(bytes.TrimSpace(raw), []byte("\n\n")) {
		ev = bytes.TrimSpace(ev)
		if !bytes.HasPrefix(ev, []byte("data: ")) {
			t.Fatalf("event without data: %q", ev)
		}
		out = append(out, ev[len("data: "):])
	}
	return out
}

var llamaMeta = Meta{ID: "chatcmpl-abc", Created: 1796008312, Model: "models/small-llama-512x8.gguf", Dialect: usage.LlamaCpp}

func TestLlamaCppNonStreamShape(t *testing.T) {
	for _, f := range []string{"01-cold-nonstream.json", "02-warm-nonstream.json"} {
		want := shape(t, readFixture(t, f))
		got := shape(t, ChatBody(llamaMeta, Answer{Text: " stup stup", FinishReason: "length"}, Usage{Prompt: 1055, Cached: 1015, Completion: 8}))
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: (-llama-server +fake)\n%s", f, d)
		}
	}
}

func TestLlamaCppStreamShape(t *testing.T) {
	for _, f := range []string{"03-warm-stream.sse", "04-broken-prefix-stream.sse"} {
		real := sseData(t, readFixture(t, f))
		if string(real[len(real)-1]) != "[DONE]" {
			t.Fatalf("%s does not end with [DONE]", f)
		}
		var fake [][]byte
		for _, fr := range ChatStream(llamaMeta, Answer{Text: " stup které colored", FinishReason: "length"}, Usage{Prompt: 1074, Cached: 1052, Completion: 8}, true) {
			fake = append(fake, sseData(t, fr)...)
		}
		// First chunk (the role), a content chunk, the finish chunk, the usage chunk, [DONE].
		pick := func(c [][]byte) [][]byte { return [][]byte{c[0], c[1], c[len(c)-3], c[len(c)-2]} }
		names := []string{"role chunk", "content chunk", "finish chunk", "usage chunk (choices: [], usage, timings)"}
		r, g := pick(real), pick(fake)
		for i := range r {
			if d := cmp.Diff(shape(t, r[i]), shape(t, g[i])); d != "" {
				t.Errorf("%s, %s: (-llama-server +fake)\n%s", f, names[i], d)
			}
		}
		if string(fake[len(fake)-1]) != "[DONE]" {
			t.Errorf("the fake's stream ends with %q", fake[len(fake)-1])
		}
		// The first and finish chunks are the same bytes but for the id, created and model.
		norm := func(b []byte) string {
			var v map[string]any
			json.Unmarshal(b, &v)
			delete(v, "id")
			delete(v, "created")
			delete(v, "model")
			delete(v, "system_fingerprint")
			out, _ := json.Marshal(v)
			return string(out)
		}
		if norm(r[0]) != norm(g[0]) || norm(r[2]) != norm(g[2]) {
			t.Errorf("role/finish chunks differ:\n%s\n%s\n%s\n%s", r[0], g[0], r[2], g[2])
		}
	}
}

// The fixture's raw bytes: the role chunk's key order is llama-server's, and so is ours.
func TestLlamaCppKeyOrder(t *testing.T) {
	real := sseData(t, readFixture(t, "03-warm-stream.sse"))
	fake := sseData(t, ChatStream(llamaMeta, Answer{Text: "x"}, Usage{}, true)[0])[0]
	want := string(real[0])
	// Same bytes once the per-request values are put in.
	var v struct {
		ID      string `json:"id"`
		Created int64  `json:"created"`
	}
	json.Unmarshal(real[0], &v)
	m := llamaMeta
	m.ID, m.Created = v.ID, v.Created
	got := sseData(t, ChatStream(m, Answer{Text: "x"}, Usage{}, true)[0])[0]
	got = bytes.Replace(got, []byte(llamaFingerprint), []byte("b1-80fb11a"), 1)
	if want != string(got) {
		t.Errorf("role chunk:\nllama-server %s\nfake         %s\n(template %s)", want, got, fake)
	}
}

func TestLlamaCppModelsShape(t *testing.T) {
	want := shape(t, readFixture(t, "08-models.json"))
	got := shape(t, ModelsBody(usage.LlamaCpp, []string{"models/small-llama-512x8.gguf"}, 1796008312))
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-llama-server +fake)\n%s", d)
	}
	// And the OpenAI dialect is OpenAI's list.
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID, Object, OwnedBy string
		} `json:"data"`
	}
	if err := json.Unmarshal(ModelsBody(usage.OpenAI, []string{"a", "b"}, 1), &list); err != nil || list.Object != "list" || len(list.Data) != 2 || list.Data[1].ID != "b" {
		t.Errorf("openai models: %+v %v", list, err)
	}
}
