package livetarget

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
	"github.com/LLeMbas/lembas-check/runner"
)

// a2aAgent is the reference agent as an A2A server (`lembas-check agent --http 127.0.0.1:0`).
func a2aAgent(o refagent.Options) int {
	err := refagent.ServeA2A(context.Background(), "127.0.0.1:0", o, func(url string) { fmt.Fprintln(os.Stderr, "A2A on", url) })
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// The reference agent over A2A plays every case it plays over ACP, with the same verdict (and
// message): a mode, a model and a compaction reach it through the LLeMbas methods, each
// case's directory through its first message's workspace.
func TestA2AGivesTheACPVerdicts(t *testing.T) {
	acp := referenceRun(t)
	p := profile(t, "a2a")
	p.ACP, p.A2A = nil, &agents.Command{Args: []string{}}
	tg := New(Options{Profile: p, Bin: p.Bin, A2A: true, After: never, Version: "test"})
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
	for _, r := range rep.Results {
		byID[r.Case.ID] = r
	}
	passed := 0
	for _, r := range acp.Results {
		got := byID[r.Case.ID]
		// A skip's reason may name any one of several things the case could meet (planning's map
		// order): its verdict is compared, a played case's message too.
		if got.Verdict != r.Verdict || got.Verdict != runner.Skip && got.Message != r.Message {
			t.Errorf("%s: over A2A %s (%s), over ACP %s (%s)", r.Case.ID, got.Verdict, got.Message, r.Verdict, r.Message)
		}
		if got.Verdict == runner.Pass {
			passed++
		}
	}
	if passed == 0 {
		t.Error("no case passed over A2A")
	}
}

// --transport names how the harness is driven; a2a needs the profile's a2a command.
func TestSettingsTransport(t *testing.T) {
	if _, err := (Settings{Agent: "lembas-check", Transport: "a2a"}).Target(0, "test"); err != nil {
		t.Errorf("the reference agent over a2a: %v", err)
	}
	if _, err := (Settings{Agent: "lembas-check", Transport: "smoke"}).Target(0, "test"); err == nil {
		t.Error("--transport smoke: no error")
	}
	if _, err := (Settings{Agent: "lembas-check", Profile: "lembas-check", Transport: "a2a"}).Target(0, "test"); err != nil {
		t.Errorf("a command of the reference agent over a2a: %v", err)
	}
}
