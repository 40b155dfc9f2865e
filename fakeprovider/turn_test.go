package fakeprovider_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// Config.Turn answers before the script: its call goes out with its own id, a nil reply leaves
// the request to the script, and an error is the 500 the client gets.
func TestTurn(t *testing.T) {
	var bodies []string
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Turn: func(q *wire.Request, body []byte) (*script.Reply, error) {
		bodies = append(bodies, string(body))
		switch q.LastUserText {
		case "call":
			return &script.Reply{ToolCalls: []wire.ToolCall{{ID: "call_b003", Name: "read", Arguments: `{"path":"a.md"}`}}}, nil
		case "fail":
			return nil, errors.New("no step left")
		}
		return nil, nil
	}})
	req := func(words string) string {
		return `{"model":"fake-model","messages":[{"role":"user","content":"` + words + `"}],"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]}`
	}
	resp, got := post(t, srv.BaseURL()+"/chat/completions", req("call"))
	var c struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
		}
	}
	if err := json.Unmarshal(got, &c); err != nil || resp.StatusCode != 200 || len(c.Choices) != 1 || len(c.Choices[0].Message.ToolCalls) != 1 {
		t.Fatalf("%d %s", resp.StatusCode, got)
	}
	if tc := c.Choices[0].Message.ToolCalls[0]; tc.ID != "call_b003" || tc.Function.Name != "read" || tc.Function.Arguments != `{"path":"a.md"}` {
		t.Errorf("the call went out as %+v", tc)
	}
	// Left to the script: the default policy reads README.md.
	_, got = post(t, srv.BaseURL()+"/chat/completions", req("go on"))
	if !strings.Contains(string(got), "README.md") {
		t.Errorf("a nil reply was not left to the script: %s", got)
	}
	resp, got = post(t, srv.BaseURL()+"/chat/completions", req("fail"))
	if resp.StatusCode != 500 || !strings.Contains(string(got), "no step left") {
		t.Errorf("an error gave %d %s", resp.StatusCode, got)
	}
	if len(bodies) != 3 || bodies[0] != req("call") {
		t.Errorf("Turn saw %q", bodies)
	}
}

// fromTurn is a fake whose Config.Turn answers every request "from turn"; seen is each body
// Turn was given, in order.
func fromTurn(t *testing.T) (srv *fakeprovider.Server, seen *[]string) {
	t.Helper()
	seen = new([]string)
	srv = fakeprovidertest.NewWith(t, fakeprovider.Config{Turn: func(q *wire.Request, body []byte) (*script.Reply, error) {
		*seen = append(*seen, string(body))
		return &script.Reply{Text: "from turn"}, nil
	}})
	return srv, seen
}

// Anthropic's and Gemini's requests go through Config.Turn too.
func TestTurnOtherAPIs(t *testing.T) {
	srv, seen := fromTurn(t)
	anthropic := `{"model":"fake-model","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`
	_, got := post(t, srv.URL+"/v1/messages", anthropic, "anthropic-version", "2023-06-01")
	if !strings.Contains(string(got), "from turn") {
		t.Errorf("Anthropic: %s", got)
	}
	gemini := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	_, got = post(t, srv.URL+"/v1beta/models/fake-model:generateContent", gemini)
	if !strings.Contains(string(got), "from turn") {
		t.Errorf("Gemini: %s", got)
	}
	if len(*seen) != 2 || (*seen)[0] != anthropic || (*seen)[1] != gemini {
		t.Errorf("Turn saw %q", *seen)
	}
}

// A Responses request that continues an earlier response reaches Config.Turn whole, as the
// model sees it: the earlier turn's input and output before its own input, and no
// previous_response_id. The live target judged codex's continuations by their new input
// alone, so each seemed to drop the system prompt and rewrite every earlier message.
func TestTurnSeesAContinuationWhole(t *testing.T) {
	srv, seen := fromTurn(t)
	first := `{"model":"fake-model","input":[{"type":"message","role":"developer","content":"Be brief."},{"type":"message","role":"user","content":"hi"}]}`
	_, got := post(t, srv.BaseURL()+"/responses", first)
	var r struct{ ID string }
	if err := json.Unmarshal(got, &r); err != nil || r.ID == "" {
		t.Fatalf("no response id: %s", got)
	}
	second := `{"model":"fake-model","previous_response_id":"` + r.ID + `","input":[{"type":"message","role":"user","content":"again"}]}`
	if _, got := post(t, srv.BaseURL()+"/responses", second); !strings.Contains(string(got), "from turn") {
		t.Fatalf("%s", got)
	}
	if len(*seen) != 2 || (*seen)[0] != first {
		t.Fatalf("Turn saw %q", *seen)
	}
	var whole struct {
		Previous *string          `json:"previous_response_id"`
		Input    []map[string]any `json:"input"`
	}
	if err := json.Unmarshal([]byte((*seen)[1]), &whole); err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, it := range whole.Input {
		said = append(said, fmt.Sprint(it["role"], ": ", it["content"]))
	}
	if whole.Previous != nil || len(said) != 4 || said[0] != "developer: Be brief." || said[1] != "user: hi" || said[3] != "user: again" {
		t.Errorf("the continuation reached Turn as %s", (*seen)[1])
	}
}
