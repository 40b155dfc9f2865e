package live

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/runner"
)

// recording is a new recording (source fake) in the test's temporary directory: its path and its
// writer, which the test's end closes unless the test did.
func recording(t *testing.T) (string, *replay.Writer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	w, err := replay.Create(path, replay.Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return path, w
}

// sent is one exchange of a recording a test writes: when and where it was sent and what was
// answered, and the request's body.
type sent struct {
	x    replay.Exchange
	body string
}

// written is a recording of these exchanges, seq 1, 2, …: its path.
func written(t *testing.T, xs ...sent) string {
	t.Helper()
	path, w := recording(t)
	for _, s := range xs {
		if err := w.Write(s.x, []byte(s.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// readBack is every exchange of a recording; one not whole fails the test.
func readBack(t *testing.T, path string) []replay.Entry {
	t.Helper()
	es, _, err := replay.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// record writes a recording of chat-completions requests with these bodies, seq 1, 2, ….
func record(t *testing.T, bodies ...string) string {
	t.Helper()
	var xs []sent
	for i, b := range bodies {
		xs = append(xs, sent{replay.Exchange{Started: time.Date(2026, 11, 30, 23, 58, i, 0, time.UTC), Method: "POST", Path: "/v1/chat/completions",
			Response: &replay.Response{Status: 200, Body: json.RawMessage(`{"choices":[{"message":{"role":"assistant","content":"done"}}]}`)}}, b})
	}
	return written(t, xs...)
}

// chatBody is a request with a system prompt, one tool and the user's messages.
func chatBody(system string, users ...string) string {
	msgs := []map[string]string{{"role": "system", "content": system}}
	for i, u := range users {
		if i > 0 {
			msgs = append(msgs, map[string]string{"role": "assistant", "content": "done"})
		}
		msgs = append(msgs, map[string]string{"role": "user", "content": u})
	}
	b, _ := json.Marshal(map[string]any{"model": Model, "messages": msgs,
		"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "read", "parameters": map[string]any{"type": "object"}}}}})
	return string(b)
}

func judged(t *testing.T, run *Run) map[string]runner.Result {
	t.Helper()
	j, err := Judge(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	return verdicts(j)
}

func scenario(t *testing.T, name string) *Scenario {
	t.Helper()
	sc, err := LoadScenario(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

var (
	night = time.Date(2026, 11, 30, 23, 58, 0, 0, time.UTC)
	day   = time.Date(2026, 12, 1, 0, 0, 30, 0, time.UTC)
)

// A scenario whose agent could not be started is not run: every verdict is a skip saying why
// (none a pass, none a failure), and the judgement says it was not run.
func TestJudgeNotRun(t *testing.T) {
	sc := scenario(t, "midnight")
	run := &Run{Scenario: sc, Profile: mustProfile(t, "opencode"), Driven: "acp", Recording: record(t),
		Clock: ClockInfo{Set: true, Controlled: true},
		Fault: &NotRun{fmt.Errorf(`starting nosuch: exec: "nosuch": executable file not found in $PATH`)}}
	j, err := Judge(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(j.NotRun, `not run: at the start: starting nosuch`) {
		t.Errorf("NotRun %q", j.NotRun)
	}
	for _, x := range j.Results {
		if x.Verdict != runner.Skip || x.Message == "" {
			t.Errorf("%s: %s %q, want a skip saying why", x.Case.ID, x.Verdict, x.Message)
		}
	}
	if j.Failed() {
		t.Error("a scenario not run fails")
	}
	if row := Row(map[string]Outcome{"midnight": {run, j}}); !strings.HasPrefix(row.Midnight, "➖ not run: ") || !strings.Contains(row.Note, "midnight: skip: not run") {
		t.Errorf("field report row: midnight %q, note %q", row.Midnight, row.Note)
	}
}

// An agent that started but never reached the fake is a scenario not run either.
func TestJudgeNoRequest(t *testing.T) {
	run := &Run{Scenario: scenario(t, "two-prompts"), Profile: mustProfile(t, "pi"), Driven: "one-shot", Recording: record(t),
		Steps: []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 0, At: night}, {Step: Step{Prompt: "b"}, First: 1, Last: 0, At: night}}}
	j, err := Judge(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(j.NotRun, "no request reached the fake") {
		t.Errorf("NotRun %q", j.NotRun)
	}
	for _, x := range j.Results {
		if x.Verdict != runner.Skip {
			t.Errorf("%s: %s %q", x.Case.ID, x.Verdict, x.Message)
		}
	}
}

// With one request there is nothing to compare: the rules about what holds from one request to
// the next are skipped, saying so; no-clock, which reads one request, passes.
func TestJudgeOneRequest(t *testing.T) {
	run := &Run{Scenario: scenario(t, "two-prompts"), Profile: mustProfile(t, "pi"), Driven: "one-shot",
		Recording: record(t, chatBody("You are a helper.", "a")),
		Steps:     []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{Prompt: "b"}, First: 2, Last: 1, At: night}}}
	v := judged(t, run)
	for _, rule := range []string{RuleSystemPrompt, RuleTools, RuleRewritten} {
		if x := v[rule]; x.Verdict != runner.Skip || !strings.Contains(x.Message, "one request of the session reached the fake") {
			t.Errorf("%s: %s %q", rule, x.Verdict, x.Message)
		}
	}
	if x := v[RuleNoClock]; x.Verdict != runner.Pass || !strings.Contains(x.Message, "1 request") {
		t.Errorf("no-clock: %s %q", x.Verdict, x.Message)
	}
	if x := v[RuleSession]; x.Verdict != runner.Pass {
		t.Errorf("session: %s %q", x.Verdict, x.Message)
	}
}

// Two requests, the second extending the first: each rule compared them, and says how many.
func TestJudgeTwoRequestsPass(t *testing.T) {
	run := &Run{Scenario: scenario(t, "two-prompts"), Profile: mustProfile(t, "pi"), Driven: "one-shot",
		Recording: record(t, chatBody("You are a helper.", "a"), chatBody("You are a helper.", "a", "b")),
		Steps:     []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{Prompt: "b"}, First: 2, Last: 2, At: night}}}
	v := judged(t, run)
	for _, rule := range []string{RuleSystemPrompt, RuleTools, RuleRewritten} {
		if x := v[rule]; x.Verdict != runner.Pass || !strings.Contains(x.Message, "1 request compared") {
			t.Errorf("%s: %s %q", rule, x.Verdict, x.Message)
		}
	}
}

// The clock crosses midnight and the prompt after it sends no request: whether the new date
// reaches the model was never exercised, so date-note is a skip, not a pass (nor a failure).
func TestJudgeDateNoteWithoutRequestAfterTheClock(t *testing.T) {
	first := chatBody("You are a helper.", "a\nToday is Mon Nov 30 2026.")
	run := &Run{Scenario: scenario(t, "midnight"), Profile: mustProfile(t, "opencode"), Driven: "acp",
		Recording: record(t, first), Clock: ClockInfo{Set: true, Controlled: true},
		Steps: []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{SetClock: &day}, First: 2, Last: 1, At: night},
			{Step: Step{Prompt: "b"}, First: 2, Last: 1, At: day}}}
	v := judged(t, run)
	if x := v[RuleDateNote]; x.Verdict != runner.Skip || !strings.Contains(x.Message, "not checked: step 3") || !strings.Contains(x.Message, "after the clock reached 2026-12-01") {
		t.Errorf("date-note: %s %q", x.Verdict, x.Message)
	}
	// And the field report does not say the prefix held across midnight.
	row := Row(map[string]Outcome{"midnight": {run, mustJudge(t, run)}})
	if !strings.HasPrefix(row.Midnight, "➖ not checked") {
		t.Errorf("midnight %q", row.Midnight)
	}
}

// The clock set, but the day never changes between prompts: date-note passes on the first
// message alone, and says that is all it checked.
func TestJudgeDateNoteSameDay(t *testing.T) {
	run := &Run{Scenario: scenario(t, "midnight"), Profile: mustProfile(t, "opencode"), Driven: "acp", Clock: ClockInfo{Set: true, Controlled: true},
		Recording: record(t, chatBody("You are a helper.", "a\nToday is Mon Nov 30 2026."), chatBody("You are a helper.", "a\nToday is Mon Nov 30 2026.", "b")),
		Steps:     []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{Prompt: "b"}, First: 2, Last: 2, At: night}}}
	if x := judged(t, run)[RuleDateNote]; x.Verdict != runner.Pass || !strings.Contains(x.Message, "only the first message was checked") {
		t.Errorf("date-note: %s %q", x.Verdict, x.Message)
	}
}

// A mode change followed by no prompt, or by a prompt that sent nothing: mode-note is a skip
// saying the change was not exercised, and the field report's mode column does not say held.
func TestJudgeModeNoteWithoutRequestAfterTheChange(t *testing.T) {
	one := chatBody("You are a helper.", "a")
	for _, c := range []struct {
		name  string
		steps []StepRun
		want  string
	}{
		{"no prompt after", []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{Mode: "plan"}, First: 2, Last: 1, At: night}},
			"not checked: the mode changed at step 2, and no prompt followed"},
		{"a prompt that sent nothing", []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{Mode: "plan"}, First: 2, Last: 1, At: night},
			{Step: Step{Prompt: "b"}, First: 2, Last: 1, At: night}}, "not checked: step 3"},
	} {
		run := &Run{Scenario: scenario(t, "mode"), Profile: mustProfile(t, "qwen-code"), Driven: "acp", Recording: record(t, one), Steps: c.steps}
		j := mustJudge(t, run)
		if x := verdicts(j)[RuleModeNote]; x.Verdict != runner.Skip || !strings.Contains(x.Message, c.want) {
			t.Errorf("%s: mode-note %s %q, want a skip saying %q", c.name, x.Verdict, x.Message, c.want)
		}
		if row := Row(map[string]Outcome{"mode": {run, j}}); row.Mode == "held" {
			t.Errorf("%s: the field report's mode column says held", c.name)
		}
	}
}

func mustJudge(t *testing.T, run *Run) *Judgement {
	t.Helper()
	j, err := Judge(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// A Responses turn that continues an earlier one (previous_response_id: codex over its
// WebSocket) is judged as the model saw it, the earlier turns before its input: the new date
// after the person's words is found in it (read alone, its one new message looked like nothing
// added, and date-note failed, "the new date is not sent").
func TestJudgeReadsAContinuationWhole(t *testing.T) {
	tools := `[{"type":"function","name":"read","parameters":{"type":"object"}}]`
	var xs []sent
	for i, c := range []struct{ body, id string }{
		{`{"model":"fake-model","instructions":"Help.","tools":` + tools + `,"input":[{"type":"message","role":"user","content":"a\nToday is Mon Nov 30 2026."}]}`, "resp_1"},
		{`{"model":"fake-model","instructions":"Help.","tools":` + tools + `,"previous_response_id":"resp_1","input":[{"type":"message","role":"user","content":"Read them again.\nThe date is now Tue Dec 01 2026."}]}`, "resp_2"},
	} {
		resp := `{"id":"` + c.id + `","object":"response","status":"completed","output":[{"type":"message","id":"msg_` + c.id + `","role":"assistant","status":"completed","content":[{"type":"output_text","text":"done","annotations":[]}]}]}`
		xs = append(xs, sent{replay.Exchange{Started: night.Add(time.Duration(i) * time.Minute), Method: "POST", Path: "/v1/responses", Response: &replay.Response{Status: 200, Body: json.RawMessage(resp)}}, c.body})
	}
	path := written(t, xs...)
	run := &Run{Scenario: scenario(t, "midnight"), Profile: mustProfile(t, "codex"), Driven: "one-shot", Recording: path, Clock: ClockInfo{Set: true, Controlled: true},
		Steps: []StepRun{{Step: Step{Prompt: "a"}, First: 1, Last: 1, At: night}, {Step: Step{SetClock: &day}, First: 2, Last: 1, At: night},
			{Step: Step{Prompt: "Read them again."}, First: 2, Last: 2, At: day}}}
	if x := judged(t, run)[RuleDateNote]; x.Verdict != runner.Pass || !strings.Contains(x.Message, `request 2 has the new date "Dec 01 2026" after the person's words`) {
		t.Errorf("date-note: %s %q", x.Verdict, x.Message)
	}
}

// A break the rule forbids fails it, its diff the change's two sides as the audit's markdown
// shows them (audit.Change.Lines), under the request it is in.
func TestJudgeHeldShowsTheChange(t *testing.T) {
	breaks := []Break{{Rule: RuleSystemPrompt, Seq: 2, Prev: 1, Cause: audit.SystemChanged, Path: "$.messages[0].content",
		Change: &audit.Change{Old: `"You are ⟦a⟧ helper"`, New: `"You are ⟦the⟧ helper"`}}}
	rule, v, msg, diff := judgeHeld(RuleSystemPrompt, nil, breaks, nil, "held")
	if rule != RuleSystemPrompt || v != runner.Fail || !strings.HasPrefix(msg, "request 2 (after request 1): ") {
		t.Errorf("%s %s %s", rule, v, msg)
	}
	if want := "request 2 (after request 1), $.messages[0].content:\n- \"You are ⟦a⟧ helper\"\n+ \"You are ⟦the⟧ helper\"\n"; diff != want {
		t.Errorf("diff %q, want %q", diff, want)
	}
}
