package fakeprovider

import (
	"net/http/httptest"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// An error in the middle of a stream is framed as each API frames its events: Anthropic's and the
// Responses API's a named error event, Gemini's a data event ended by CRLF CRLF as its stream's
// are, chat completions' a data event.
func TestStreamErrorFraming(t *testing.T) {
	e := &wire.Error{Status: 529, Type: "overloaded_error", Code: "overloaded", Message: "Overloaded"}
	for path, want := range map[string]string{
		"/v1/messages":                           "event: error\ndata: " + string(e.AnthropicBody("")) + "\n\n",
		"/v1/responses":                          "event: error\ndata: {\"code\":\"overloaded\",\"message\":\"Overloaded\",\"param\":null,\"type\":\"error\"}\n\n",
		"/v1beta/models/g:streamGenerateContent": "data: " + string(e.GeminiBody()) + "\r\n\r\n",
		"/v1/chat/completions":                   "data: " + string(e.Body()) + "\n\n",
	} {
		if got := string(streamError(httptest.NewRequest("POST", path, nil), e)); got != want {
			t.Errorf("%s:\n got %q\nwant %q", path, got, want)
		}
	}
}
