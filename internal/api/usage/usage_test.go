package usage

import (
	"encoding/json"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/pins"
)

const fixtures = "../../../testdata/llamacpp/"

// Every file of the llama-server fixtures is the one SHA256SUMS pins, and every file there is
// pinned.
func TestFixturesMatchSHA256SUMS(t *testing.T) {
	pinned, problems, err := pins.Check(fixtures, "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if pinned < 8 {
		t.Errorf("only %d files pinned", pinned)
	}
}

func TestDialects(t *testing.T) {
	p := func(s string) json.RawMessage { return json.RawMessage(s) }
	for name, c := range map[string]struct {
		usage, timings string
		prompt, cached *int
		dialect        Dialect
	}{
		"openai":              {`{"prompt_tokens":100,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":64}}`, "", ip(100), ip(64), OpenAI},
		"openai, none":        {`{"prompt_tokens":100,"completion_tokens":5}`, "", ip(100), nil, ""},
		"openai, zero":        {`{"prompt_tokens":100,"prompt_tokens_details":{"cached_tokens":0}}`, "", ip(100), ip(0), OpenAI},
		"gemini":              {`{"promptTokenCount":100,"cachedContentTokenCount":60,"candidatesTokenCount":3}`, "", ip(100), ip(60), Gemini},
		"gemini, none cached": {`{"promptTokenCount":100,"candidatesTokenCount":3}`, "", ip(100), ip(0), Gemini},
		"responses":           {`{"input_tokens":50,"output_tokens":3,"input_tokens_details":{"cached_tokens":32}}`, "", ip(50), ip(32), OpenAI},
		"anthropic":           {`{"input_tokens":20,"cache_read_input_tokens":900,"cache_creation_input_tokens":80,"output_tokens":4}`, "", ip(1000), ip(900), Anthropic},
		"deepseek":            {`{"prompt_tokens":70,"prompt_cache_hit_tokens":64,"prompt_cache_miss_tokens":6}`, "", ip(70), ip(64), DeepSeek},
		"llama.cpp only":      {"", `{"cache_n":30,"prompt_n":10,"prompt_ms":5.5}`, ip(40), ip(30), LlamaCpp},
		"nothing reported":    {"", "", nil, nil, ""},
	} {
		u := Parse(p(c.usage), p(c.timings))
		if !eq(u.PromptTokens, c.prompt) || !eq(u.CachedTokens, c.cached) || u.Dialect != c.dialect {
			t.Errorf("%s: prompt %v cached %v dialect %q", name, show(u.PromptTokens), show(u.CachedTokens), u.Dialect)
		}
	}
}

func ip(n int) *int { return &n }

func eq(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func show(p *int) any {
	if p == nil {
		return "not reported"
	}
	return *p
}

// FuzzParse: any usage and timings, no panic; a cached figure always names its dialect.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"prompt_tokens":1,"prompt_tokens_details":{"cached_tokens":1}}`), []byte(`{"cache_n":1}`))
	f.Add([]byte(`{"input_tokens":1,"cache_read_input_tokens":2}`), []byte(`null`))
	f.Fuzz(func(t *testing.T, u, tm []byte) {
		got := Parse(u, tm)
		if (got.CachedTokens != nil) != (got.Dialect != "") {
			t.Fatalf("cached %v with dialect %q", got.CachedTokens, got.Dialect)
		}
	})
}

func TestParseDialect(t *testing.T) {
	for _, d := range Dialects {
		if got, err := ParseDialect(string(d)); err != nil || got != d {
			t.Errorf("%s: %v %v", d, got, err)
		}
	}
	if _, err := ParseDialect("tgi"); err == nil || err.Error() != `no usage dialect "tgi" (there are openai, llama.cpp (also spelled llamacpp), anthropic, deepseek, vllm (also spelled sglang))` {
		t.Errorf("unknown dialect: %v", err)
	}
	if got, err := ParseDialect("sglang"); err != nil || got != VLLM {
		t.Errorf("sglang: %v %v", got, err)
	}
	// The old spelling of llama.cpp is still taken where people type it (--usage llamacpp).
	if got, err := ParseDialect("llamacpp"); err != nil || got != LlamaCpp {
		t.Errorf("llamacpp: %v %v", got, err)
	}
}
