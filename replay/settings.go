package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/LLeMbas/lembas-check/internal/format"
)

// ServerSettings are how bench and replay reach a server, as a person gives them (--server,
// --api-key-env, --timeout, --max-tokens).
type ServerSettings struct {
	URL       string
	APIKeyEnv string // the environment variable whose value is sent as a bearer token
	Timeout   time.Duration
	MaxTokens int
}

// Adjust is what every replayed request gets besides its recorded bytes: the answer's length,
// and a stream's usage asked for.
func (s ServerSettings) Adjust() Adjust {
	return Adjust{MaxTokens: s.MaxTokens, AskUsage: true}
}

// Sender is the sender the settings make; its errors name the flag at fault.
func (s ServerSettings) Sender() (Sender, error) {
	snd := Sender{URL: s.URL, Client: &http.Client{Timeout: s.Timeout}, Header: http.Header{}}
	if s.MaxTokens < 0 {
		return snd, fmt.Errorf("--max-tokens %d: want 0 (as recorded) or more", s.MaxTokens)
	}
	if s.APIKeyEnv != "" {
		key := os.Getenv(s.APIKeyEnv)
		if key == "" {
			return snd, fmt.Errorf("--api-key-env %s: the variable is empty or not set", s.APIKeyEnv)
		}
		snd.Header.Set("Authorization", "Bearer "+key)
	}
	return snd, nil
}

// Formats are the formats a replay's report is written in.
var Formats = format.Formats[[]Sent]{
	{Name: "table", Write: func(w io.Writer, sent []Sent, _ bool) error { WriteTable(w, sent); return nil }},
	{Name: "json", About: "JSON lines, one per request", Write: func(w io.Writer, sent []Sent, _ bool) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, s := range sent {
			if err := enc.Encode(LineOf(s)); err != nil {
				return err
			}
		}
		return nil
	}},
}

// Outcome is how a replay of file in mode ended, and its last line: unfinished when the play
// stopped (played) or sent nothing, failed when a request failed; cold is what emptying the
// cache first said ("" when not asked).
func Outcome(file, mode string, sent []Sent, played error, cold string) (format.Status, string) {
	failed := 0
	for _, s := range sent {
		if s.Error != "" {
			failed++
		}
	}
	status := format.OK
	switch {
	case played != nil || len(sent) == 0:
		status = format.Unfinished
	case failed > 0:
		status = format.Failed
	}
	line := fmt.Sprintf("%s\t%s\t%s mode: %d requests sent, %d failed", status.Word(), file, mode, len(sent), failed)
	if cold != "" {
		line += "; cold cache: " + cold
	}
	if len(sent) == 0 && played == nil {
		line += "; no request: did the agent reach the fake?"
	}
	return status, line
}
