package main

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/live/agents/agentstest"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Each profiled agent, installed from npm (found through LEMBAS_AGENTS or LEMBAS_<NAME>; .ci/run
// installs them), is recorded with `record --agent`: the fake's policy drives it through its own
// read tool twice, and each file's text comes back in a later request — at least three prompt
// requests. An agent that is not installed is skipped, saying how to install it.
func TestRecordAgentDrivesEveryProfile(t *testing.T) {
	for _, name := range agents.Names() {
		p, err := agents.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Oneshot == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			agentstest.Installed(t, name)
			rec, code, out, errs := recordRun(t, "--agent", name, "--timeout", "240s", "--", "Read README.md and NOTES.md, then tell me what the project is.")
			if code != 0 {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
			}
			es, _ := readRecording(t, rec)
			prompts := 0
			var all strings.Builder
			for _, e := range es {
				if replay.IsPrompt(e.Exchange) {
					prompts++
					all.Write(e.Body)
				}
			}
			if prompts < 3 {
				t.Errorf("%d prompt requests, want 3 or more", prompts)
			}
			for _, marker := range []string{"It is the project lembas-check drives", "Counting is by Unicode code point"} {
				if !strings.Contains(all.String(), marker) {
					t.Errorf("no request carries %q: the agent did not read the file the policy asked for", marker)
				}
			}
			if strings.Contains(errs, "can use none of them") {
				t.Errorf("the policy found no tool: %s", errs)
			}
		})
	}
}
