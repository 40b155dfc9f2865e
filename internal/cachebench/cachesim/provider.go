package cachesim

import (
	"strings"
	"time"
)

// The providers whose prompt caches are simulated beside llama-server's slots (Cache). Each is a
// rule set: where the cache may be read and written, how long an entry lives, how short a prompt
// it skips, and which request parameters key it besides the prompt's bytes. docs/audit.md cites
// the documentation each rule comes from.
const (
	ProviderAnthropic = "anthropic" // breakpoints (Breakpoints)
	ProviderOpenAI    = "openai"    // automatic prefix caching (Implicit)
	ProviderGemini    = "gemini"    // implicit caching (Implicit)
)

// Providers lists them, for flags and messages.
var Providers = []string{ProviderAnthropic, ProviderOpenAI, ProviderGemini}

// Lookback is how many block boundaries before a breakpoint Anthropic's cache checks for an
// earlier entry ("up to approximately 20 blocks before your explicit breakpoint").
const Lookback = 20

// The TTLs a cache entry lives for after its last use.
const (
	TTL5m = 5 * time.Minute // Anthropic's default ("ephemeral"), OpenAI's least
	TTL1h = time.Hour       // Anthropic's ttl "1h"
)

// minimum is one row of a provider's minimum cacheable length: models whose id starts with one of
// the prefixes (checked in order, the longest first where they overlap).
type minimum struct {
	prefixes []string
	tokens   int
}

// Anthropic's minimum cacheable prompt length per model family (platform.claude.com, prompt
// caching, "Cache limitations"); a model not listed gets DefaultAnthropicMinimum.
var anthropicMinimums = []minimum{
	{[]string{"claude-opus-4-6", "claude-opus-4-5", "claude-haiku-4-5"}, 4096},
	{[]string{"claude-3-5-haiku", "claude-3-haiku", "claude-haiku-3"}, 2048},
	{[]string{"claude-sonnet-4", "claude-opus-4", "claude-3-7-sonnet", "claude-sonnet-3-7"}, 1024},
}

// DefaultAnthropicMinimum is the minimum of a model the table does not know (the fake's own
// fake-model among them): the smallest any family has.
const DefaultAnthropicMinimum = 1024

// Gemini's minimum input token count for implicit caching (ai.google.dev, context caching).
var geminiMinimums = []minimum{
	{[]string{"gemini-2.5"}, 2048},
	{[]string{"gemini-3", "gemini-4"}, 4096},
}

// DefaultGeminiMinimum is the minimum of a Gemini model the table does not know.
const DefaultGeminiMinimum = 1024

func lookupMinimum(table []minimum, model string, def int) int {
	for _, row := range table {
		for _, p := range row.prefixes {
			if strings.HasPrefix(model, p) {
				return row.tokens
			}
		}
	}
	return def
}

// AnthropicMinimum is the shortest prefix a breakpoint caches for the model.
func AnthropicMinimum(model string) int {
	return lookupMinimum(anthropicMinimums, model, DefaultAnthropicMinimum)
}

// GeminiMinimum is the shortest prompt Gemini's implicit cache reads for the model.
func GeminiMinimum(model string) int {
	return lookupMinimum(geminiMinimums, model, DefaultGeminiMinimum)
}

// ParseTTL reads a cache_control ttl ("5m", "1h"); any other is the default five minutes, as the
// API takes only those two.
func ParseTTL(s string) time.Duration {
	if s == "1h" {
		return TTL1h
	}
	return TTL5m
}
