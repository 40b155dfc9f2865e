package replay

import (
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// IsPrompt says whether an exchange is a request for a model's answer: a POST to a chat
// completions, Responses, Anthropic messages or Gemini generateContent path (or a request log's
// line, which names no method and no path). Others (model lists, health checks) are neither
// replayed nor audited.
func IsPrompt(x Exchange) bool {
	if x.Method != "" && x.Method != "POST" {
		return false
	}
	p := strings.TrimRight(x.Path, "/")
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return chat.APIOf(p) != "" || p == ""
}

// CountPrompts counts a recording's prompt requests (IsPrompt) up to its end or the damage that
// stops it (the error), for a bench's number of requests or a progress bar's total.
func CountPrompts(src Source) (int, error) {
	n := 0
	for e, err := range Entries(src) {
		if err != nil {
			return n, err
		}
		if IsPrompt(e.Exchange) {
			n++
		}
	}
	return n, nil
}
