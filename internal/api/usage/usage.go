// Package usage names the dialects a server reports its token usage in, and reads what a server
// says it cached, in whichever dialect it speaks: OpenAI (`usage.prompt_tokens_details.cached_tokens`,
// Responses' `input_tokens_details.cached_tokens`), llama.cpp (`timings.cache_n`, `prompt_n`,
// `prompt_ms`), Anthropic (`cache_read_input_tokens`) and DeepSeek (`prompt_cache_hit_tokens`). A
// field the server did not send is "not reported", kept apart from a reported 0. The fake
// provider writes the same dialects (internal/api/wire).
package usage

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Dialect is whose shape an answer takes and which names its usage fields carry. Reports, flags
// and messages spell it as its value.
type Dialect string

// The dialects. OpenAI: usage.prompt_tokens_details.cached_tokens. LlamaCpp: llama-server's
// envelope and field order, plus `timings` (cache_n, prompt_n, …). Anthropic: input_tokens,
// cache_read_input_tokens, cache_creation_input_tokens. DeepSeek: prompt_cache_hit_tokens /
// prompt_cache_miss_tokens. Gemini: usageMetadata's promptTokenCount, cachedContentTokenCount (left
// out when 0), candidatesTokenCount. VLLM: vLLM's and SGLang's OpenAI-compatible shape, which
// reports what their prefix cache gave in OpenAI's field (prompt_tokens_details.cached_tokens,
// with vLLM's --enable-prompt-tokens-details or SGLang's --enable-cache-report), read as OpenAI's.
const (
	OpenAI    Dialect = "openai"
	LlamaCpp  Dialect = "llama.cpp"
	Anthropic Dialect = "anthropic"
	DeepSeek  Dialect = "deepseek"
	VLLM      Dialect = "vllm"
	// Gemini is read, not a shape of chat completions: the fake writes it on Gemini's own
	// endpoints, so it is not among Dialects.
	Gemini Dialect = "gemini"
)

// Dialects lists the shapes chat completions can take, for flags and messages.
var Dialects = []Dialect{OpenAI, LlamaCpp, Anthropic, DeepSeek, VLLM}

// aliases are other spellings taken where people type a dialect: `llamacpp` was the fake's
// `--usage` spelling before there was one dialect type, and scripts and habits still use it.
var aliases = map[string]Dialect{"llamacpp": LlamaCpp, "sglang": VLLM}

// ParseDialect reads a dialect's name, or one of its other spellings.
func ParseDialect(s string) (Dialect, error) {
	for _, d := range Dialects {
		if string(d) == s {
			return d, nil
		}
	}
	if d, ok := aliases[s]; ok {
		return d, nil
	}
	return "", fmt.Errorf("no usage dialect %q (there are %s)", s, Names())
}

// Names lists the dialects for people, in Dialects' order, each with its other spellings:
// "openai, llama.cpp (also spelled llamacpp), …", for flags' help and messages.
func Names() string {
	var b strings.Builder
	for i, d := range Dialects {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(d))
		var other []string
		for a, to := range aliases {
			if to == d {
				other = append(other, a)
			}
		}
		if len(other) > 0 {
			sort.Strings(other)
			b.WriteString(" (also spelled " + strings.Join(other, ", ") + ")")
		}
	}
	return b.String()
}

// Usage is one answer's token accounting. A nil field was not reported.
type Usage struct {
	// PromptTokens is the whole prompt (Anthropic: input + cache read + cache write).
	PromptTokens     *int `json:"prompt_tokens,omitempty"`
	CompletionTokens *int `json:"completion_tokens,omitempty"`
	// CachedTokens is the prompt tokens the server took from its cache, from the first dialect
	// that reports it (OpenAI, llama.cpp, Anthropic, DeepSeek).
	CachedTokens *int `json:"cached_tokens,omitempty"`
	// Dialect names where CachedTokens came from; Reported every dialect's own figure.
	Dialect  Dialect         `json:"dialect,omitempty"`
	Reported map[Dialect]int `json:"reported,omitempty"`
	// llama.cpp timings: the tokens read now and how long that took.
	PromptN  *int     `json:"prompt_n,omitempty"`
	PromptMS *float64 `json:"prompt_ms,omitempty"`
	// CacheWriteTokens is Anthropic's cache_creation_input_tokens.
	CacheWriteTokens *int `json:"cache_write_tokens,omitempty"`
}

type raw struct {
	PromptTokens        *int     `json:"prompt_tokens"`
	CompletionTokens    *int     `json:"completion_tokens"`
	PromptTokensDetails *details `json:"prompt_tokens_details"`
	// Responses API and Anthropic
	InputTokens        *int     `json:"input_tokens"`
	OutputTokens       *int     `json:"output_tokens"`
	InputTokensDetails *details `json:"input_tokens_details"`
	CacheRead          *int     `json:"cache_read_input_tokens"`
	CacheWrite         *int     `json:"cache_creation_input_tokens"`
	// DeepSeek
	HitTokens *int `json:"prompt_cache_hit_tokens"`
	// Gemini's usageMetadata
	PromptTokenCount        *int `json:"promptTokenCount"`
	CandidatesTokenCount    *int `json:"candidatesTokenCount"`
	CachedContentTokenCount *int `json:"cachedContentTokenCount"`
	MissTokens              *int `json:"prompt_cache_miss_tokens"`
}

// details is prompt_tokens_details (chat) or input_tokens_details (Responses).
type details struct {
	CachedTokens *int `json:"cached_tokens"`
}

type timings struct {
	CacheN   *int     `json:"cache_n"`
	PromptN  *int     `json:"prompt_n"`
	PromptMS *float64 `json:"prompt_ms"`
}

// Parse reads a usage object and llama.cpp's timings object (either may be nil).
func Parse(usageJSON, timingsJSON json.RawMessage) Usage {
	var u Usage
	var r raw
	if len(usageJSON) > 0 {
		json.Unmarshal(usageJSON, &r)
	}
	var t timings
	if len(timingsJSON) > 0 {
		json.Unmarshal(timingsJSON, &t)
	}
	rep := map[Dialect]int{}
	var order []Dialect
	add := func(dialect Dialect, v *int) {
		if v != nil {
			if _, ok := rep[dialect]; !ok {
				order = append(order, dialect)
			}
			rep[dialect] = *v
		}
	}
	if r.PromptTokensDetails != nil {
		add(OpenAI, r.PromptTokensDetails.CachedTokens)
	}
	if r.InputTokensDetails != nil {
		add(OpenAI, r.InputTokensDetails.CachedTokens)
	}
	add(LlamaCpp, t.CacheN)
	add(Anthropic, r.CacheRead)
	add(DeepSeek, r.HitTokens)
	if r.PromptTokenCount != nil { // Gemini leaves cachedContentTokenCount out when it is 0
		zero := 0
		if r.CachedContentTokenCount == nil {
			r.CachedContentTokenCount = &zero
		}
		add(Gemini, r.CachedContentTokenCount)
	}
	if len(order) > 0 {
		v := rep[order[0]]
		u.CachedTokens, u.Dialect = &v, order[0]
		u.Reported = rep
	}
	u.PromptTokens, u.CompletionTokens = r.PromptTokens, r.CompletionTokens
	if u.PromptTokens == nil {
		u.PromptTokens = r.PromptTokenCount
	}
	if u.CompletionTokens == nil {
		u.CompletionTokens = r.CandidatesTokenCount
	}
	if u.CompletionTokens == nil {
		u.CompletionTokens = r.OutputTokens
	}
	if u.PromptTokens == nil && r.InputTokens != nil {
		n := *r.InputTokens
		if r.CacheRead != nil || r.CacheWrite != nil { // Anthropic counts the cached part apart
			n += deref(r.CacheRead) + deref(r.CacheWrite)
		}
		u.PromptTokens = &n
	}
	if u.PromptTokens == nil && t.CacheN != nil && t.PromptN != nil {
		n := *t.CacheN + *t.PromptN
		u.PromptTokens = &n
	}
	u.PromptN, u.PromptMS, u.CacheWriteTokens = t.PromptN, t.PromptMS, r.CacheWrite
	return u
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// Dialects lists the dialects a usage reported, sorted.
func (u Usage) Dialects() []Dialect {
	var out []Dialect
	for d := range u.Reported {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
