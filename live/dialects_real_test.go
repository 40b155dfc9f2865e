package live

import (
	"context"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/cachebench/audit"
	"github.com/LLeMbas/lembas-check/replay"
	"github.com/LLeMbas/lembas-check/runner"
)

// Claude Code and Gemini CLI from npm (LEMBAS_AGENTS; .ci/run installs them) against the fake's
// Anthropic and Gemini endpoints, crossing midnight under libfaketime.

// Claude Code 2.1.332, one-shot: the clock moves (its native binary is dynamically linked), the
// prefix holds, and the resumed session says the new date after the person's words. The audit
// names its breakpoints (system[1], system[2], one on the newest message) and the date's place, a
// role-system message inside messages.
func TestClaudeCodeCrossingMidnight(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	r, got := drive(t, "claude-code", "midnight", false)
	if !r.Clock.Controlled {
		t.Errorf("the clock was not moved: %s", r.Clock.Why)
	}
	for _, rule := range []string{RuleSystemPrompt, RuleNoClock, RuleTools, RuleRewritten, RuleDateNote} {
		want(t, got, rule, runner.Pass)
	}
	rd, f, err := replay.Open(r.Recording)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := audit.Run(context.Background(), rd, audit.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := rep.Requests[0]
	marks := strings.Join(first.Breakpoints, ", ")
	if !strings.Contains(marks, "$.system[1] (5m)") || !strings.Contains(marks, "$.system[2] (5m)") || !strings.HasPrefix(first.DateAt, "$.messages[") || first.Provider != "anthropic" {
		t.Errorf("request 1: breakpoints %q, date at %q, provider %q", marks, first.DateAt, first.Provider)
	}
	if last := rep.Requests[len(rep.Requests)-1]; last.ReusableTokens == 0 {
		t.Errorf("the simulated Anthropic cache read nothing of the last request: %+v", last)
	}
}

// Gemini CLI 0.61 over ACP: the date lives in its first user content, so the prefix holds across
// midnight, and the new date is never sent.
func TestGeminiOverACPCrossingMidnight(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	_, got := drive(t, "gemini", "midnight", true)
	for _, rule := range []string{RuleSystemPrompt, RuleNoClock, RuleTools, RuleRewritten} {
		want(t, got, rule, runner.Pass)
	}
	want(t, got, RuleDateNote, runner.Fail, "the new date is not sent")
}

// Zed's claude-code-acp 0.16.2 writes the month into its WebSearch tool's description: across
// midnight from November into December the tools change, and with Anthropic's order (tools first)
// nothing of the prompt is cached.
func TestClaudeCodeACPToolsChangeAtMidnight(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	_, got := drive(t, "claude-code-acp", "midnight", true)
	want(t, got, RuleTools, runner.Fail, "tools changed at $.tools[", "WebSearch")
	want(t, got, RuleSystemPrompt, runner.Pass)
}
