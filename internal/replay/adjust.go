package replay

import (
	"fmt"
	"strconv"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// DefaultMaxTokens is how many tokens a replayed request lets the server generate: few, so runs
// are comparable, a model cannot run to the end of its context (a random-weight model never
// stops), and the prompt's cost is not buried under generation; 16 is the least OpenAI's
// Responses API takes.
const DefaultMaxTokens = 16

// Adjust is what a replay changes in every request besides the prompt: how long the answer may
// be, and asking a stream for its usage. Neither changes a byte of the prompt the cache sees.
type Adjust struct {
	// MaxTokens, when above 0, caps the answer: max_tokens (chat completions; in place of
	// max_completion_tokens where the body has that), max_output_tokens (Responses), max_tokens
	// (Anthropic), generationConfig.maxOutputTokens (Gemini).
	MaxTokens int
	// AskUsage asks a streamed chat completion for its usage in the last chunk
	// (stream_options.include_usage), without which OpenAI-compatible servers such as vLLM
	// report none.
	AskUsage bool
}

// Apply adjusts a body sent to path.
func (a Adjust) Apply(path string, body []byte) ([]byte, error) {
	api := chat.APIOf(path)
	if api == "" {
		api = chat.ChatCompletions
	}
	var ok bool
	if a.MaxTokens > 0 {
		n := []byte(strconv.Itoa(a.MaxTokens))
		switch api {
		case chat.Responses:
			body, ok = chat.Set(body, "max_output_tokens", n)
		case chat.Gemini:
			cfg := []byte("{}")
			if st, en, found := chat.Member(body, "generationConfig"); found {
				cfg = body[st:en]
			}
			if cfg, ok = chat.Set(cfg, "maxOutputTokens", n); ok {
				body, ok = chat.Set(body, "generationConfig", cfg)
			}
		default:
			key := "max_tokens"
			if _, _, found := chat.Member(body, "max_completion_tokens"); found && api == chat.ChatCompletions {
				key = "max_completion_tokens"
			}
			body, ok = chat.Set(body, key, n)
		}
		if !ok {
			return nil, fmt.Errorf("the body is not a JSON object: cannot set its answer's length")
		}
	}
	if a.AskUsage && api == chat.ChatCompletions && asksStream(body) {
		opts := []byte("{}")
		if st, en, found := chat.Member(body, "stream_options"); found && body[st] == '{' {
			opts = body[st:en]
		}
		if opts, ok = chat.Set(opts, "include_usage", []byte("true")); ok {
			body, _ = chat.Set(body, "stream_options", opts)
		}
	}
	return body, nil
}
