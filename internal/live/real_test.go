package live

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents/agentstest"
	"github.com/LLeMbas/lembas-check/runner"
)

// drive runs a built-in scenario on a real agent from npm (found through LEMBAS_AGENTS or
// LEMBAS_<NAME>; .ci/run installs them), skipping when it is not installed, and judges it.
func drive(t *testing.T, name, scenario string, overACP bool) (*Run, map[string]runner.Result) {
	t.Helper()
	return driveWith(t, name, scenario, Options{ACP: overACP})
}

// driveWith is drive with how the agent is driven given in o (ACP, RPC, else one-shot).
func driveWith(t *testing.T, name, scenario string, o Options) (*Run, map[string]runner.Result) {
	t.Helper()
	t.Parallel()
	p, bin := agentstest.Installed(t, name)
	sc, err := LoadScenario(scenario)
	if err != nil {
		t.Fatal(err)
	}
	o.Profile, o.Bin, o.Scenario, o.Work, o.Tool, o.Version = p, bin, sc, t.TempDir(), "lembas-check test", "test"
	r, j := driveJudged(t, o)
	out := map[string]runner.Result{}
	for _, x := range j.Results {
		out[strings.TrimPrefix(x.Case.ID, "live/"+scenario+"/")] = x
	}
	if s := out[RuleSession]; s.Verdict != runner.Pass {
		t.Fatalf("the session did not run: %s %s\nstderr: %s", s.Verdict, s.Message, r.Stderr)
	}
	if j.Prompts < 6 {
		t.Errorf("%d requests for two prompts, want 3 or more each", j.Prompts)
	}
	return r, out
}

// wantDateHeldNotSent is the verdicts of an agent whose date lives in its first user content:
// the prefix holds across midnight, and the new date never reaches the model.
func wantDateHeldNotSent(t *testing.T, got map[string]runner.Result) {
	t.Helper()
	for _, rule := range []string{RuleSystemPrompt, RuleNoClock, RuleTools, RuleRewritten} {
		want(t, got, rule, runner.Pass)
	}
	want(t, got, RuleDateNote, runner.Fail, "the new date is not sent")
}

func want(t *testing.T, got map[string]runner.Result, rule string, v runner.Verdict, in ...string) {
	t.Helper()
	x := got[rule]
	if x.Verdict != v {
		t.Errorf("%s: %s (%s), want %s", rule, x.Verdict, x.Message, v)
	}
	for _, s := range in {
		if !strings.Contains(x.Message, s) {
			t.Errorf("%s: %q lacks %q", rule, x.Message, s)
		}
	}
}

// opencode 1.18.33 writes the date into its system prompt as JavaScript's toDateString: across
// midnight the prefix breaks there, and the verdict names the request, the path and the date,
// as a clock.
func TestOpencodeCrossingMidnight(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	_, got := drive(t, "opencode", "midnight", false)
	want(t, got, RuleSystemPrompt, runner.Fail, "system prompt changed at $.messages[0].content", "a clock: Mon Nov 30 2026 → Tue Dec 01 2026")
	want(t, got, RuleNoClock, runner.Fail, `the system prompt holds the date "Nov 30 2026"`)
	want(t, got, RuleTools, runner.Pass)
}

// qwen-code over ACP (the client against a real ACP agent: it reads through fs/read_text_file):
// the date lives in its first user message, so the prefix holds across midnight — but the new
// date never reaches the model.
func TestQwenCodeOverACPCrossingMidnight(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	r, got := drive(t, "qwen-code", "midnight", true)
	wantDateHeldNotSent(t, got)
	if r.Transcript == "" {
		t.Error("no ACP transcript")
	}
}

// pi over RPC (one process for the session, as a person's interactive pi): its system prompt
// holds the date ("Current date: 2026-11-30"), and it keeps the prompt it built at the start, so
// the prefix holds across midnight — one-shot, each prompt is a new process and it broke there —
// but the system prompt holds a clock, and the new date never reaches the model.
func TestPiOverRPCCrossingMidnight(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	r, got := driveWith(t, "pi", "midnight", Options{RPC: true})
	if r.Driven != "rpc" || !r.Clock.Controlled {
		t.Errorf("driven %s, clock controlled %v (%s)", r.Driven, r.Clock.Controlled, r.Clock.Why)
	}
	want(t, got, RuleSystemPrompt, runner.Pass)
	want(t, got, RuleNoClock, runner.Fail, "2026-11-30")
	want(t, got, RuleTools, runner.Pass)
	want(t, got, RuleRewritten, runner.Pass)
	want(t, got, RuleDateNote, runner.Fail, "the new date is not sent")
}

// codex is a static binary: its clock is not moved, and the report says so instead of judging a
// date it never saw change. In its default configuration it speaks over the fake's WebSocket and
// is driven with its own tool, exec (JavaScript running exec_command): each file's text comes
// back as a custom tool's output, on the same connection.
func TestCodexClockNotControlled(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	r, got := drive(t, "codex", "midnight", false)
	want(t, got, RuleDateNote, runner.Skip, "clock not controlled: codex is a static binary")
	want(t, got, RuleSystemPrompt, runner.Pass, "compared with the one before it")
	if r.Clock.Controlled {
		t.Error("the clock says it was controlled")
	}
	es := readBack(t, r.Recording)
	outputs := 0
	for _, e := range es {
		if e.Exchange.Transport != "websocket" {
			continue
		}
		if bytes.Contains(e.Body, []byte(`"type":"custom_tool_call_output"`)) && bytes.Contains(e.Body, []byte("Counting is by Unicode code point")) {
			outputs++
		}
	}
	if outputs < 2 {
		t.Errorf("%d WebSocket turns carry NOTES.md's text back from exec, want one per prompt", outputs)
	}
}

// opencode over ACP: a mode change (its mode config option) rewrites a tool's description.
func TestOpencodeOverACPModeChange(t *testing.T) {
	if testing.Short() || os.Getenv("LEMBAS_LIVE_ALL") == "" {
		t.Skip("a real agent; LEMBAS_LIVE_ALL=1 runs it")
	}
	_, got := drive(t, "opencode", "mode", true)
	want(t, got, RuleModeNote, runner.Fail, "the mode change changed the tools")
}

// opencode over ACP moves to a model the scenario names (fake/fake-model-2, which its profile
// lists and the fake now serves: it answered "This server serves fake-model"), and the
// system-prompt verdict names the request that went there.
func TestOpencodeOverACPModelChange(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	_, got := drive(t, "opencode", "model-change", true)
	if x := got[RuleSystemPrompt]; !strings.Contains(x.Message, "model fake-model → fake-model-2, allowed by the model-change rule") {
		t.Errorf("system-prompt: %s: %s", x.Verdict, x.Message)
	}
}
