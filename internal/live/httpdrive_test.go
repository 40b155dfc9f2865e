package live

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents/agentstest"
	"github.com/LLeMbas/lembas-check/runner"
)

// The opencode profile's requests are checked against the server's OpenAPI document: all listed,
// no error; a path the document no longer lists (the API moved) is named, with its method.
func TestCheckOpenAPI(t *testing.T) {
	p := mustProfile(t, "opencode")
	// /session/status has the shape of /session/{id} without its DELETE: a match there must not
	// undo the one found (map order made it so one run in two).
	doc := `{"openapi":"3.1.0","paths":{"/session":{"post":{}},"/session/{sessionID}":{"delete":{}},"/session/status":{"get":{}},"/session/a":{},"/session/b":{},"/session/c":{},
		"/session/{sessionID}/prompt_async":{"post":{}},"/event":{"get":{}},"/session/{sessionID}/summarize":{"post":{}}}}`
	if err := CheckOpenAPI(p.HTTP, []byte(doc)); err != nil {
		t.Errorf("every path listed: %v", err)
	}
	moved := strings.Replace(doc, `"/session/{sessionID}/prompt_async"`, `"/session/{sessionID}/prompt"`, 1)
	err := CheckOpenAPI(p.HTTP, []byte(moved))
	if err == nil || !strings.Contains(err.Error(), "prompt (POST /session/{session}/prompt_async)") || !strings.Contains(err.Error(), "/doc") {
		t.Errorf("a moved path: %v, want the prompt's path and the document named", err)
	}
	if err := CheckOpenAPI(p.HTTP, []byte(`<html>`)); err == nil {
		t.Error("a page for a document: no error")
	}
}

// opencode serve from npm, driven through its HTTP API with the fake as its model: the session
// runs to its end, each prompt one request to its message path.
func TestOpencodeHTTP(t *testing.T) {
	t.Parallel()
	p, bin := agentstest.Installed(t, "opencode")
	sc, err := LoadScenario("two-prompts")
	if err != nil {
		t.Fatal(err)
	}
	r, j := driveJudged(t, Options{Profile: p, Bin: bin, HTTP: true, Scenario: sc, Work: t.TempDir(), Tool: "lembas-check test", Version: "test"})
	if !strings.HasPrefix(r.Session.ID, "HTTP session ses") {
		t.Errorf("session %q, want opencode's HTTP session", r.Session.ID)
	}
	for _, x := range j.Results {
		if x.Case.ID == "live/two-prompts/"+RuleSession && x.Verdict != runner.Pass {
			t.Fatalf("the session did not run: %s %s\nstderr: %s", x.Verdict, x.Message, r.Stderr)
		}
	}
	if j.Prompts < 2 {
		t.Errorf("%d requests for two prompts", j.Prompts)
	}
}
