package live

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/live/agents/agentstest"
	"github.com/LLeMbas/lembas-check/internal/replay"
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
	rep := auditOf(t, r.Recording)
	first := rep.Requests[0]
	marks := strings.Join(first.Breakpoints, ", ")
	if !strings.Contains(marks, "$.system[1] (5m)") || !strings.Contains(marks, "$.system[2] (5m)") || !strings.HasPrefix(first.DateAt, "$.messages[") || first.Provider != "anthropic" {
		t.Errorf("request 1: breakpoints %q, date at %q, provider %q", marks, first.DateAt, first.Provider)
	}
	if last := rep.Requests[len(rep.Requests)-1]; last.ReusableTokens == 0 {
		t.Errorf("the simulated Anthropic cache read nothing of the last request: %+v", last)
	}
}

// Gemini CLI 0.61 over ACP: the date lives in its first user content, so the system prompt holds
// across midnight, and the new date is never sent. Judged by its one ACP session, the next
// prompt's request drops the thoughtSignature of the earlier function call ($.contents[1]): a
// rewrite, which the audit's guess (that request continuing the first) hid.
func TestGeminiOverACPCrossingMidnight(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	_, got := drive(t, "gemini", "midnight", true)
	for _, rule := range []string{RuleSystemPrompt, RuleNoClock, RuleTools} {
		want(t, got, rule, runner.Pass)
	}
	want(t, got, RuleRewritten, runner.Fail, "earlier message rewritten at $.contents[1]")
	if d := got[RuleRewritten].Diff; !strings.Contains(d, "thoughtSignature") {
		t.Errorf("nothing-rewritten's diff: %q", d)
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

// Two Claude Code sessions in one recording: their 12 tools are the same bytes, but the billing
// block before the first breakpoint differs with each session's first prompt, so Anthropic's cache
// reads none of what they share: across sessions, at $.system[0].text.
func TestClaudeCodeAcrossSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("a real agent")
	}
	p, bin := agentstest.Installed(t, "claude-code")
	dir, home := t.TempDir(), t.TempDir()
	if err := Seed(dir); err != nil {
		t.Fatal(err)
	}
	rec, w := recording(t)
	srv, err := fakeprovider.Start(fakeprovider.Config{Record: w, Models: []string{Model}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Prepare(p, bin, home, dir, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{"Read README.md", "What does NOTES.md say?"} {
		argv, _ := a.Oneshot(prompt, false)
		// No bound of its own: a hung agent is ended shortly before go test's -timeout, so that
		// it does not outlive the test binary (3 minutes of the real clock could fail a slow machine).
		ctx, cancel := context.WithCancel(t.Context())
		if end, ok := t.Deadline(); ok {
			cancel()
			ctx, cancel = context.WithDeadline(t.Context(), end.Add(-10*time.Second))
		}
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Env, cmd.Dir = a.Env, dir
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("%s: %v\n%s", prompt, err, out)
		}
	}
	srv.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rep := auditOf(t, rec)
	var across *audit.Request
	for i := range rep.Requests {
		if rep.Requests[i].Cause == audit.AcrossSessions {
			across = &rep.Requests[i]
		}
	}
	if across == nil || across.Path != "$.system[0].text" || across.LostTokens < 1000 || !strings.Contains(across.Change.New, "cc_version=") || rep.Totals.Conversations != 2 {
		t.Fatalf("across sessions: %+v (totals %+v)", across, rep.Totals)
	}
}

// auditOf audits a recording.
func auditOf(t *testing.T, path string) *audit.Report {
	t.Helper()
	rd, f, err := replay.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := audit.Run(context.Background(), rd, audit.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
