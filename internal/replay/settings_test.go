package replay

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/format"
)

// The server settings' errors name their flag; a key comes from the variable named.
func TestServerSettings(t *testing.T) {
	if _, err := (ServerSettings{MaxTokens: -1}).Sender(); err == nil || err.Error() != "--max-tokens -1: want 0 (as recorded) or more" {
		t.Errorf("--max-tokens -1: %v", err)
	}
	if _, err := (ServerSettings{APIKeyEnv: "LEMBAS_TEST_NO_SUCH_KEY"}).Sender(); err == nil || err.Error() != "--api-key-env LEMBAS_TEST_NO_SUCH_KEY: the variable is empty or not set" {
		t.Errorf("an unset key: %v", err)
	}
	t.Setenv("LEMBAS_TEST_KEY", "k1")
	snd, err := ServerSettings{URL: "http://x", APIKeyEnv: "LEMBAS_TEST_KEY"}.Sender()
	if err != nil || snd.Header.Get("Authorization") != "Bearer k1" || snd.URL != "http://x" {
		t.Errorf("%+v, %v", snd, err)
	}
	if a := (ServerSettings{MaxTokens: 7}).Adjust(); a.MaxTokens != 7 || !a.AskUsage {
		t.Errorf("%+v", a)
	}
}

// A replay is unfinished when it stopped or sent nothing, failed when a request failed.
func TestOutcome(t *testing.T) {
	ok, bad := Sent{}, Sent{Error: "refused"}
	for _, c := range []struct {
		sent   []Sent
		played error
		cold   string
		status format.Status
		line   string
	}{
		{[]Sent{ok, ok}, nil, "", format.OK, "\tr.jsonl\tfrozen mode: 2 requests sent, 0 failed"},
		{[]Sent{ok, bad}, nil, "erased 1 slot", format.Failed, "\tr.jsonl\tfrozen mode: 2 requests sent, 1 failed; cold cache: erased 1 slot"},
		{[]Sent{bad}, errors.New("cut"), "", format.Unfinished, "\tr.jsonl\tfrozen mode: 1 requests sent, 1 failed"},
		{nil, nil, "", format.Unfinished, "\tr.jsonl\tfrozen mode: 0 requests sent, 0 failed; no request: did the agent reach the fake?"},
	} {
		st, line := Outcome("r.jsonl", "frozen", c.sent, c.played, c.cold)
		if st != c.status || line != st.Word()+c.line {
			t.Errorf("%d sent, %v: %v %q", len(c.sent), c.played, st, line)
		}
	}
}

// A replay needs a server and a recording it can read.
func TestSettingsRun(t *testing.T) {
	if _, _, _, err := (Settings{}).Run(t.Context(), "r.jsonl", io.Discard); err == nil || err.Error() != "replay needs --server URL" {
		t.Errorf("no server: %v", err)
	}
	s := Settings{Server: ServerSettings{URL: "http://127.0.0.1:1"}, Mode: Frozen}
	if _, _, _, err := s.Run(t.Context(), "/nonexistent/r.jsonl", io.Discard); err == nil || !strings.HasPrefix(err.Error(), "/nonexistent/r.jsonl: ") {
		t.Errorf("a missing recording: %v", err)
	}
}
