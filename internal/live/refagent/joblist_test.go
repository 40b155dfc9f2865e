package refagent

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// The jobs that ended are listed, their output read from `since`, and a stop of one answers the
// state it already had; an id the session does not have is -32602 (acp.md, capability jobs).
func TestJobMethods(t *testing.T) {
	exit := 2
	at := time.UnixMilli(1_800_000_000_000)
	s := &session{ended: []endedJob{
		{r: jobRecord{Kind: "command", ID: "j1", Command: "make test\nmore", Exit: &exit, Unread: "FAIL x",
			Seconds: 3}, at: at},
		{r: jobRecord{Kind: "subagent", ID: "j2", Agent: "scout", Description: "look", Report: "found it",
			Reason: "stopped"}, at: at},
	}}
	raw := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	out, err := s.jobMethod("_lembas/jobs", raw(map[string]any{"sessionId": "s"}))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out)
	want := `{"jobs":[{"command":"make test\nmore","description":"make test","ended":1800000000000,"exit":2,` +
		`"id":"j1","kind":"command","started":1799999997000,"state":"done","unread":6},{"agent":"scout",` +
		`"description":"look","ended":1800000000000,"id":"j2","kind":"subagent","started":1800000000000,` +
		`"state":"stopped","steps":0,"tools":0,"unread":0}]}`
	if string(b) != want {
		t.Errorf("_lembas/jobs:\n%s\nwant\n%s", b, want)
	}
	out, err = s.jobMethod("_lembas/job/output", raw(map[string]any{"id": "j1", "since": 2}))
	if b, _ := json.Marshal(out); err != nil || string(b) != `{"length":6,"state":"done","text":"IL x"}` {
		t.Errorf("_lembas/job/output since 2: %s %v", b, err)
	}
	out, err = s.jobMethod("_lembas/job/stop", raw(map[string]any{"id": "j2"}))
	if b, _ := json.Marshal(out); err != nil || string(b) != `{"state":"stopped"}` {
		t.Errorf("_lembas/job/stop: %s %v", b, err)
	}
	var re *sdk.RequestError
	if _, err := s.jobMethod("_lembas/job/stop", raw(map[string]any{"id": "nope"})); !errors.As(err, &re) ||
		re.Code != -32602 {
		t.Errorf("a stop of no job: %v, want -32602", err)
	}
}
