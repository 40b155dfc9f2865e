package livetarget

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/runner"
)

// httpProfile drives the reference agent's A2A server as a plain HTTP API through an http
// section: the conversation named by the case's directory (A2A lets the client name its
// contextId), opened by _lembas/configure with that directory as its workspace; prompts as
// message/send, a compaction as _lembas/session/compact. No modes: a mode step is skipped.
const httpProfile = `{"args": [],
	"open": {"method": "POST", "path": "/", "body": {"jsonrpc": "2.0", "id": "open", "method": "_lembas/configure",
		"params": {"sessionId": "{dir}", "metadata": {"coderAgent": {"kind": "agent-settings", "workspacePath": "{dir}"}}}},
		"read": {"session": "$.jsonrpc"}},
	"prompt": {"method": "POST", "path": "/", "body": {"jsonrpc": "2.0", "id": "prompt", "method": "message/send",
		"params": {"message": {"kind": "message", "messageId": "m", "role": "user", "contextId": "{dir}",
			"parts": [{"kind": "text", "text": "{prompt}"}]}}},
		"read": {"said": "$.result.artifacts[*].parts[*].text"}},
	"compact": {"method": "POST", "path": "/", "body": {"jsonrpc": "2.0", "id": "compact", "method": "_lembas/session/compact",
		"params": {"sessionId": "{dir}"}}}}`

// run --live --transport http: every case the reference agent plays over its HTTP profile has
// the verdict and message it has over ACP; what the profile cannot carry (a mode, the settings
// _lembas/configure gives) is skipped, never failed.
func TestHTTPTransportGivesTheACPVerdicts(t *testing.T) {
	acp := referenceRun(t)
	p := profile(t, "a2a")
	p.ACP, p.HTTP = nil, &agents.HTTP{}
	if err := json.Unmarshal([]byte(httpProfile), p.HTTP); err != nil {
		t.Fatal(err)
	}
	tg := New(Options{Profile: p, Bin: p.Bin, HTTP: true, After: never, Version: "test"})
	ctx := context.Background()
	info, err := tg.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep := runner.Run(ctx, tg, info, runner.CaseItems(liveCases(t)), runner.Options{Workers: 1})
	rep.Closed(tg.Close())
	if rep.CloseErr != "" {
		t.Errorf("closing: %s", rep.CloseErr)
	}
	byID := map[string]runner.Result{}
	acpPassed := 0
	for _, r := range acp.Results {
		byID[r.Case.ID] = r
		if r.Verdict == runner.Pass {
			acpPassed++
		}
	}
	passed := 0
	for _, r := range rep.Results {
		want := byID[r.Case.ID]
		switch {
		case r.Verdict == runner.Skip:
			if r.Message == "" {
				t.Errorf("%s is skipped with no reason", r.Case.ID)
			}
		case r.Verdict != want.Verdict || r.Message != want.Message:
			t.Errorf("%s: over HTTP %s (%s), over ACP %s (%s)", r.Case.ID, r.Verdict, r.Message, want.Verdict,
				want.Message)
		default:
			passed++
		}
	}
	if passed == 0 {
		t.Error("no case passed over HTTP")
	}
	t.Logf("over HTTP %d pass, over ACP %d, of %d cases", passed, acpPassed, len(rep.Results))
}
