package fakeprovider_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// In the vllm dialect the fake answers in vLLM's shape, its prefix cache is a pool of 16-token
// blocks (a request reads whole blocks, never its last token), /metrics has vLLM's prefix-cache
// counters, and POST /reset_prefix_cache empties the cache.
func TestVLLMDialect(t *testing.T) {
	srv := okFake(t, fakeprovider.Config{Models: []string{"m"}, Dialect: usage.VLLM})
	chat := func(body string) usage.Usage {
		t.Helper()
		resp, b := post(t, srv.BaseURL()+"/chat/completions", body)
		var v struct {
			Usage json.RawMessage `json:"usage"`
		}
		if json.Unmarshal(b, &v) != nil || resp.StatusCode != 200 {
			t.Fatalf("%d %s", resp.StatusCode, b)
		}
		if !bytes.Contains(v.Usage, []byte(`"prompt_tokens_details":{"cached_tokens":`)) || bytes.Contains(v.Usage, []byte("audio")) {
			t.Errorf("not vLLM's usage: %s", v.Usage)
		}
		return usage.Parse(v.Usage, nil)
	}
	long := strings.Repeat("the same system prompt, word for word; ", 40)
	first := chat(`{"model":"m","messages":[{"role":"system","content":"` + long + `"},{"role":"user","content":"one"}]}`)
	again := chat(`{"model":"m","messages":[{"role":"system","content":"` + long + `"},{"role":"user","content":"two"}]}`)
	if *first.CachedTokens != 0 || *again.CachedTokens == 0 || *again.CachedTokens%16 != 0 || *again.CachedTokens >= *again.PromptTokens || again.Dialect != usage.OpenAI {
		t.Errorf("first %+v, again %+v: want 0, then whole blocks of the shared head", first, again)
	}
	c := (&replay.Sender{URL: srv.URL}).CacheCounters(t.Context())
	if c == nil || c.Source != "vllm" || c.Cached != float64(*again.CachedTokens) || c.Prompt != float64(*first.PromptTokens+*again.PromptTokens) {
		t.Errorf("counters %+v", c)
	}
	said, slots := (&replay.Sender{URL: srv.URL}).EmptyCache(t.Context())
	if said != "emptied (POST /reset_prefix_cache)" || slots {
		t.Errorf("empty cache: %q %v", said, slots)
	}
	if after := chat(`{"model":"m","messages":[{"role":"system","content":"` + long + `"},{"role":"user","content":"two"}]}`); *after.CachedTokens != 0 {
		t.Errorf("after the reset, %d cached", *after.CachedTokens)
	}
}
