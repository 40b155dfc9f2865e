package live

import (
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents/agentstest"
	"github.com/LLeMbas/lembas-check/runner"
)

// The Gemini CLI's A2A server from npm, the fake as its Gemini endpoint: two prompts in one
// conversation (the second carries the first's task and contextId on), judged as any driver's.
func TestGeminiA2A(t *testing.T) {
	t.Parallel()
	p, bin := agentstest.Installed(t, "gemini-a2a")
	sc, err := LoadScenario("two-prompts")
	if err != nil {
		t.Fatal(err)
	}
	r, j := driveJudged(t, Options{Profile: p, Bin: bin, A2A: true, Scenario: sc, Work: t.TempDir(), Tool: "lembas-check test", Version: "test"})
	if r.Driven != "a2a" || !strings.HasPrefix(r.Session.ID, "A2A task ") {
		t.Errorf("driven %s, session %q: want a2a, an A2A task", r.Driven, r.Session.ID)
	}
	for _, x := range j.Results {
		rule := strings.TrimPrefix(x.Case.ID, "live/two-prompts/")
		if x.Verdict != runner.Pass && x.Verdict != runner.Skip {
			t.Errorf("%s: %s %s\nstderr: %s", rule, x.Verdict, x.Message, r.Stderr)
		}
	}
	b, _ := os.ReadFile(r.Transcript)
	if !strings.Contains(string(b), `"taskId":`) || !strings.Contains(string(b), `"contextId":`) {
		t.Errorf("the second message carries no taskId and contextId on; the transcript:\n%s", b)
	}
}

// The reference agent over A2A (its a2a command, the test binary as `lembas-check agent
// --http`) runs every built-in scenario to its end, with the verdicts it has over ACP but
// ids-shown: only ACP shows a client the tool calls, so over A2A that one is a skip.
func TestReferenceAgentOverA2A(t *testing.T) {
	p := *mustProfile(t, "lembas-check")
	p.Env = map[string]string{"LIVE_TEST_AGENT": "reference-a2a", "OPENAI_MODEL": "{model}"}
	for _, name := range Scenarios() {
		sc, err := LoadScenario(name)
		if err != nil {
			t.Fatal(err)
		}
		verdicts := map[bool]map[string]runner.Verdict{}
		for _, overA2A := range []bool{false, true} {
			q := p
			if !overA2A {
				q.Env = map[string]string{"LIVE_TEST_AGENT": "reference", "OPENAI_MODEL": "{model}"}
			}
			_, j := driveJudged(t, Options{Profile: &q, Bin: os.Args[0], ACP: !overA2A, A2A: overA2A, Scenario: sc, Work: t.TempDir(), After: never, Tool: "lembas-check test", Version: "test"})
			verdicts[overA2A] = map[string]runner.Verdict{}
			for _, x := range j.Results {
				verdicts[overA2A][x.Case.ID] = x.Verdict
			}
		}
		for id, v := range verdicts[false] {
			if id == "live/"+name+"/"+RuleIDsShown {
				v = runner.Skip
			}
			if verdicts[true][id] != v {
				t.Errorf("%s: over A2A %s, over ACP %s", id, verdicts[true][id], v)
			}
		}
		if verdicts[true]["live/"+name+"/"+RuleSession] != runner.Pass {
			t.Errorf("%s over A2A: the session did not run to its end", name)
		}
	}
}
