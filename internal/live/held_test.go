package live

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/runner"
)

// The note's place is read as the model reads the request, block by block, in each of the four
// APIs: a note in block 0 with the person's words in block 1 is before them (the joined text
// that was searched before put it anywhere, and passed).
func TestPlaceNoteFourAPIs(t *testing.T) {
	const words, note = "Plan the output.", "The mode is now plan."
	for _, c := range []struct {
		name, path, body string
		after            bool
		at               string
	}{
		{"chat completions, note first", "/v1/chat/completions", `{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":[{"type":"text","text":"` + note + `"},{"type":"text","text":"` + words + `"}]}]}`, false, "$.messages[1] block 0"},
		{"chat completions, note after", "/v1/chat/completions", `{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":[{"type":"text","text":"` + words + `"},{"type":"text","text":"` + note + `"}]}]}`, true, "$.messages[1] block 1"},
		{"responses, note first", "/v1/responses", `{"model":"m","instructions":"S","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"` + note + `"},{"type":"input_text","text":"` + words + `"}]}]}`, false, "$.input[0] block 0"},
		{"responses, note in the next item", "/v1/responses", `{"model":"m","instructions":"S","input":[{"type":"message","role":"user","content":"` + words + `"},{"type":"message","role":"developer","content":"` + note + `"}]}`, true, "$.input[1] block 0"},
		{"anthropic, note first", "/v1/messages", `{"model":"m","max_tokens":1,"system":"S","messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>` + note + `</system-reminder>"},{"type":"text","text":"` + words + `"}]}]}`, false, "$.messages[0] block 0"},
		{"anthropic, note after", "/v1/messages", `{"model":"m","max_tokens":1,"system":"S","messages":[{"role":"user","content":[{"type":"text","text":"` + words + `"},{"type":"text","text":"` + note + `"}]}]}`, true, "$.messages[0] block 1"},
		{"gemini, note first", "/v1beta/models/m:generateContent", `{"systemInstruction":{"parts":[{"text":"S"}]},"contents":[{"role":"user","parts":[{"text":"` + note + `"},{"text":"` + words + `"}]}]}`, false, "$.contents[0] block 0"},
		{"gemini, note after", "/v1beta/models/m:generateContent", `{"systemInstruction":{"parts":[{"text":"S"}]},"contents":[{"role":"user","parts":[{"text":"` + words + `"},{"text":"` + note + `"}]}]}`, true, "$.contents[0] block 1"},
		{"one text, note first", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"` + note + `\n\n` + words + `"}]}`, false, "$.messages[0] block 0"},
	} {
		r, err := chat.ParsePath(c.path, []byte(c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p := placeNote(r, 0, words, modeFinder("plan"))
		if !p.words || p.note == "" || p.after != c.after || p.at != c.at {
			t.Errorf("%s: %+v, want after %v at %s", c.name, p, c.after, c.at)
		}
		if !c.after && !strings.Contains(p.String(), "before the person's words") {
			t.Errorf("%s: %q", c.name, p)
		}
	}
}

// midnights is a chat-completions session of three prompts whose agent writes the day into its
// system prompt, so that the prompt changes at each of two midnights.
func midnights(t *testing.T) (*Run, string) {
	t.Helper()
	d1, d2, d3 := "Mon Nov 30 2026", "Tue Dec 01 2026", "Wed Dec 02 2026"
	path := record(t,
		chatBody("Today is "+d1, "a\nToday is "+d1),
		chatBody("Today is "+d2, "a\nToday is "+d1, "b\nToday is "+d2),
		chatBody("Today is "+d3, "a\nToday is "+d1, "b\nToday is "+d2, "c\nToday is "+d3))
	two := day.Add(24 * time.Hour)
	run := &Run{Scenario: scenario(t, "midnight"), Profile: mustProfile(t, "opencode"), Driven: "acp", Recording: path, Clock: ClockInfo{Set: true, Controlled: true},
		Steps: []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{SetClock: &day}, First: 2, Last: 1, At: night},
			{Step: Step{Prompt: "b"}, First: 2, Last: 2, At: day}, {Step: Step{SetClock: &two}, First: 3, Last: 2, At: day},
			{Step: Step{Prompt: "c"}, First: 3, Last: 3, At: two}}}
	return run, path
}

// Across two midnights each break of a rule is named: request 3's as well as request 2's (only
// the first was, and opencode's second break went unmentioned).
func TestJudgeEveryBreak(t *testing.T) {
	run, _ := midnights(t)
	x := judged(t, run)[RuleSystemPrompt]
	if x.Verdict != runner.Fail || !strings.HasPrefix(x.Message, "2 breaks: request 2 (after request 1)") || !strings.Contains(x.Message, "; request 3 (after request 2)") {
		t.Errorf("system-prompt: %s %q", x.Verdict, x.Message)
	}
	if !strings.Contains(x.Diff, "request 2 (after request 1)") || !strings.Contains(x.Diff, "request 3 (after request 2)") {
		t.Errorf("diff %q", x.Diff)
	}
	if x := judged(t, run)[RuleNoClock]; x.Verdict != runner.Fail || !strings.Contains(x.Message, `request 3: the system prompt holds the date "Dec 02 2026"`) || !strings.Contains(x.Message, "(3 of the session's 3 requests hold a date)") {
		t.Errorf("no-clock: %s %q", x.Verdict, x.Message)
	}
	if x := judged(t, run)[RuleDateNote]; x.Verdict != runner.Fail || !strings.Contains(x.Message, "request 2: the new date") || !strings.Contains(x.Message, "request 3: the new date") {
		t.Errorf("date-note: %s %q", x.Verdict, x.Message)
	}
}

// A rewrite inside the session the driver held is a rewrite, however much it changed: Gemini
// CLI's plan mode (another systemInstruction, four tools fewer) and claude-code-acp's date in
// messages[0] rewritten at a second midnight, which the audit took for new conversations and so
// passed.
func TestJudgeRewriteInsideTheSession(t *testing.T) {
	gem := func(system string, tools []string, users ...string) string {
		var decls []any
		for _, n := range tools {
			decls = append(decls, map[string]any{"name": n, "parameters": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string", "description": strings.Repeat("a path to read, ", 20)}}}})
		}
		var contents []any
		for i, u := range users {
			if i > 0 {
				contents = append(contents, map[string]any{"role": "model", "parts": []any{map[string]any{"text": "done"}}})
			}
			contents = append(contents, map[string]any{"role": "user", "parts": []any{map[string]any{"text": u}}})
		}
		b, _ := json.Marshal(map[string]any{"systemInstruction": map[string]any{"parts": []any{map[string]any{"text": system}}},
			"tools": []any{map[string]any{"functionDeclarations": decls}}, "contents": contents})
		return string(b)
	}
	all := []string{"read", "write", "edit", "shell", "glob", "grep"}
	sent := func(path string, bodies ...string) string {
		var xs []sent
		for i, b := range bodies {
			xs = append(xs, sent{x(path, i), b})
		}
		return written(t, xs...)
	}
	mode := &Run{Scenario: scenario(t, "mode"), Profile: mustProfile(t, "gemini"), Driven: "acp", Session: Session{ID: "ACP session s1", First: 1},
		Recording: sent("/v1beta/models/"+Model+":streamGenerateContent",
			gem("You are Gemini CLI, in the default mode: edit as asked.", all, "a"),
			gem("PLAN MODE. Research only; write nothing until the plan is approved. You are Gemini CLI.", all[:2], "a", "b")),
		Steps: []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{Mode: "plan"}, First: 2, Last: 1, At: night},
			{Step: Step{Prompt: "b"}, First: 2, Last: 2, At: night}}}
	v := judged(t, mode)
	for _, rule := range []string{RuleSystemPrompt, RuleTools} {
		if x := v[rule]; x.Verdict != runner.Fail || !strings.Contains(x.Message, "request 2 (after request 1)") {
			t.Errorf("mode: %s: %s %q", rule, x.Verdict, x.Message)
		}
	}
	if x := v[RuleTools]; !strings.Contains(x.Message, "removed edit, shell, glob, grep") {
		t.Errorf("tools: %q", x.Message)
	}
	if x := v[RuleModeNote]; x.Verdict != runner.Fail || !strings.Contains(x.Message, "went into the system prompt") || !strings.Contains(x.Message, "changed the tools") {
		t.Errorf("mode-note: %s %q", x.Verdict, x.Message)
	}

	// (The audit takes request 2 for a new conversation: the system prompts mostly differ and
	// the tool lists are not the same.)
	// messages[0] carries the date, and is rewritten at the second midnight.
	dated := func(d string, users ...string) string {
		return chatBody("You are a helper.", append([]string{"Today's date is " + d + "."}, users...)...)
	}
	two := day.Add(24 * time.Hour)
	mid := &Run{Scenario: scenario(t, "midnight"), Profile: mustProfile(t, "claude-code-acp"), Driven: "acp", Session: Session{ID: "ACP session s2", First: 1},
		Recording: record(t, dated("2026-11-30", "a"), dated("2026-11-30", "a", "b"), dated("2026-12-02", "a", "b", "c")), Clock: ClockInfo{Set: true, Controlled: true},
		Steps: []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{Prompt: "b"}, First: 2, Last: 2, At: day},
			{Step: Step{SetClock: &two}, First: 3, Last: 2, At: day}, {Step: Step{Prompt: "c"}, First: 3, Last: 3, At: two}}}
	x := judged(t, mid)[RuleRewritten]
	if x.Verdict != runner.Fail || !strings.Contains(x.Message, "request 3 (after request 2): earlier message rewritten at $.messages[1]") || !strings.Contains(x.Message, "a clock") {
		t.Errorf("claude-code-acp: nothing-rewritten %s %q", x.Verdict, x.Message)
	}
}

// x is exchange i of a test's recording, to path, answered "done".
func x(path string, i int) replay.Exchange {
	return replay.Exchange{Started: night.Add(time.Duration(i) * time.Second), Method: "POST", Path: path,
		Response: &replay.Response{Status: 200, Body: json.RawMessage(`{"choices":[{"message":{"role":"assistant","content":"done"}}]}`)}}
}

// A prompt suggestion sent between two prompts (claude-agent-acp's `[SUGGESTION MODE: …]`) and a
// title request are side requests, told by what they are and named; the session's requests
// around them are judged as one line, and nothing-rewritten holds however the side requests
// came in time (it failed, "request 3 (continuing request 2)", when the suggestion came first).
func TestJudgeSideRequests(t *testing.T) {
	sys := "You are a helper."
	suggestion := chatBody(sys, "a", "[SUGGESTION MODE: Suggest what the user might naturally type next.]")
	title := func() string {
		b, _ := json.Marshal(map[string]any{"model": Model, "messages": []any{map[string]string{"role": "system", "content": "Generate a short title for the conversation."}, map[string]string{"role": "user", "content": "a"}}})
		return string(b)
	}()
	for _, order := range [][]string{{"session", "title", "suggestion", "session2"}, {"session", "suggestion", "title", "session2"}} {
		bodies := map[string]string{"session": chatBody(sys, "a"), "title": title, "suggestion": suggestion, "session2": chatBody(sys, "a", "b")}
		var bs []string
		for _, k := range order {
			bs = append(bs, bodies[k])
		}
		run := &Run{Scenario: scenario(t, "two-prompts"), Profile: mustProfile(t, "claude-agent-acp"), Driven: "acp", Session: Session{ID: "ACP session s3", First: 1},
			Recording: record(t, bs...),
			Steps:     []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 3, At: night}, {Step: Step{Prompt: "b"}, First: 4, Last: 4, At: night}}}
		v := judged(t, run)
		for _, rule := range []string{RuleSystemPrompt, RuleTools, RuleRewritten} {
			if x := v[rule]; x.Verdict != runner.Pass || !strings.Contains(x.Message, "1 request compared") {
				t.Errorf("%v: %s: %s %q", order, rule, x.Verdict, x.Message)
			}
		}
		s := v[RuleSession].Message
		for i, k := range order {
			kind := map[string]string{"title": "title", "suggestion": "suggestion"}[k]
			if kind == "" {
				continue
			}
			if want := fmt.Sprintf("request %d: a side request (%s), not judged as the session's", i+1, kind); !strings.Contains(s, want) {
				t.Errorf("%v: session %q, want %q", order, s, want)
			}
		}
	}
}

// Requests the fake got outside the session the driver held are not the session's.
func TestJudgeOutsideTheSession(t *testing.T) {
	other := chatBody("Another agent.", "z")
	run := &Run{Scenario: scenario(t, "two-prompts"), Profile: mustProfile(t, "pi"), Driven: "rpc", Session: Session{ID: "the RPC process", First: 2, Last: 3},
		Recording: record(t, other, chatBody("You are a helper.", "a"), chatBody("You are a helper.", "a", "b")),
		Steps:     []StepRun{{Step: Step{Prompt: "a"}, First: 2, Last: 2, At: night}, {Step: Step{Prompt: "b"}, First: 3, Last: 3, At: night}}}
	v := judged(t, run)
	if x := v[RuleSystemPrompt]; x.Verdict != runner.Pass {
		t.Errorf("system-prompt: %s %q", x.Verdict, x.Message)
	}
	if s := v[RuleSession].Message; !strings.Contains(s, "request 1: sent outside the RPC process") {
		t.Errorf("session %q", s)
	}
}

// A compaction step of the scenario lets the history be replaced and the system prompt be made
// again on the session's next request, though the agent's compaction carries none of the
// audit's marks; a move to another model lets the system prompt change. Without the step, both
// are breaks.
func TestJudgeCompactionAndModelSteps(t *testing.T) {
	for _, step := range []Step{{Compact: true}, {Model: "fake-model-2"}, {Wait: time.Second}} {
		second := chatBody("You are a helper, remade.", "summary of a", "b")
		if step.Model != "" {
			second = strings.Replace(chatBody("You are a helper, remade.", "a", "b"), `"model":"`+Model+`"`, `"model":"fake-model-2"`, 1)
		}
		run := &Run{Scenario: scenario(t, "two-prompts"), Profile: mustProfile(t, "opencode"), Driven: "acp", Session: Session{ID: "ACP session s4", First: 1},
			Recording: record(t, chatBody("You are a helper.", "a"), second),
			Steps: []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: step, First: 2, Last: 1, At: night},
				{Step: Step{Prompt: "b"}, First: 2, Last: 2, At: night}}}
		v := judged(t, run)
		want := runner.Pass
		if step.Wait > 0 {
			want = runner.Fail
		}
		if x := v[RuleSystemPrompt]; x.Verdict != want {
			t.Errorf("%s: system-prompt %s %q, want %s", step, x.Verdict, x.Message, want)
		}
		if x := v[RuleRewritten]; step.Model == "" && x.Verdict != want {
			t.Errorf("%s: nothing-rewritten %s %q, want %s", step, x.Verdict, x.Message, want)
		}
	}
}

// A suggestion answered with text is then run ahead as the next user message (claude-agent-acp's
// speculation), before the person's prompt: that request is beside the session too, and the
// prompt's request, which replaces its last message, is no rewrite.
func TestJudgeSpeculation(t *testing.T) {
	sys := "You are a helper."
	ask := chatBody(sys, "a", "[SUGGESTION MODE: Suggest what the user might naturally type next.]")
	var xs []sent
	for i, c := range []struct{ body, reply string }{
		{chatBody(sys, "a"), "done"}, {ask, "Now plan the JSON output"}, {chatBody(sys, "a", "Now plan the JSON output"), "done"}, {chatBody(sys, "a", "b"), "done"},
	} {
		e := x("/v1/chat/completions", i)
		e.Response.Body = json.RawMessage(`{"choices":[{"message":{"role":"assistant","content":"` + c.reply + `"}}]}`)
		xs = append(xs, sent{e, c.body})
	}
	run := &Run{Scenario: scenario(t, "two-prompts"), Profile: mustProfile(t, "claude-agent-acp"), Driven: "acp", Session: Session{ID: "ACP session s5", First: 1},
		Recording: written(t, xs...),
		Steps:     []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 3, At: night}, {Step: Step{Prompt: "b"}, First: 4, Last: 4, At: night}}}
	v := judged(t, run)
	if x := v[RuleRewritten]; x.Verdict != runner.Pass {
		t.Errorf("nothing-rewritten: %s %q", x.Verdict, x.Message)
	}
	if s := v[RuleSession].Message; !strings.Contains(s, "request 3: a side request (speculation") {
		t.Errorf("session %q", s)
	}
}
