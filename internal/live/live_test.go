package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/runner"
)

func TestBuiltinScenariosRead(t *testing.T) {
	for _, want := range []string{"compaction", "midnight", "mode", "two-prompts"} {
		sc, err := LoadScenario(want)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Name != want || len(sc.Steps) < 2 {
			t.Errorf("%s: %+v", want, sc)
		}
	}
	mid, _ := LoadScenario("midnight")
	if mid.Clock == nil || mid.Steps[1].SetClock == nil || mid.Steps[1].SetClock.Day() != 1 {
		t.Errorf("midnight: %+v", mid)
	}
}

func TestParseScenarioNamesTheLine(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"name: x\nsteps:\n  - promt: hi\n", `s.yaml:3:5: unknown step "promt"`},
		{"name: x\nsteps:\n  - prompt: hi\n    mode: plan\n", "s.yaml:3:5: a step is one of"},
		{"name: x\nclock: tomorrow\nsteps:\n  - prompt: hi\n", `s.yaml:2:8: clock: "tomorrow" is not a time`},
		{"name: x\nsteps:\n  - prompt: hi\n  - clock: +2m\n", "s.yaml:4: the clock is moved but the scenario sets no clock"},
		{"name: x\nsteps:\n  - mode: plan\n", "no prompt"},
		{"name: x\nstep: []\n", `unknown key "step"`},
	} {
		if _, err := ParseScenario([]byte(c.yaml), "s.yaml"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
}

// The timestamp file holds the offset from the real time, signed, as libfaketime reads it; a
// move adds to the agent's time, not to the real one.
func TestClockWritesTheOffset(t *testing.T) {
	dir := t.TempDir()
	real := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	c := &Clock{file: filepath.Join(dir, "faketime"), now: func() time.Time { return real }}
	if err := c.Set(time.Date(2026, 11, 30, 23, 58, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(c.file); string(b) != "-32520\n" {
		t.Errorf("file %q", b)
	}
	real = real.Add(time.Minute)
	if err := c.Move(2 * time.Minute); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(c.file); string(b) != "-32400\n" || !c.Now().Equal(time.Date(2026, 12, 1, 0, 1, 0, 0, time.UTC)) {
		t.Errorf("after the move: file %q, now %v", b, c.Now())
	}
	if Static("/bin/sh") {
		t.Error("/bin/sh is dynamically linked here")
	}
}

// A faulty agent ends the scenario with the verdict that names what it did.
func TestFaultyAgents(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	sc, _ := LoadScenario("two-prompts")
	for _, c := range []struct {
		name, script string
		acp          bool
		verdict      runner.Verdict
		msg          string
	}{
		{"garbage on stdout", "echo Loading...", true, runner.ProtocolError, `faulty: malformed message at the start: line 1 of its output is not JSON: "Loading..."`},
		// As on a loaded machine: the agent takes longer to start than the step's bound of the
		// real clock (200 ms), which gave a timeout in place of the verdict.
		{"garbage after a slow start", "sleep 0.5; echo Loading...", true, runner.ProtocolError, `line 1 of its output is not JSON: "Loading..."`},
		{"one-shot, a slow exit 1", "sleep 0.5; exit 1", false, runner.Crashed, "sh exit status 1"},
		{"exits at once", "exit 3", true, runner.Crashed, "died"},
		{"one-shot, exit 1", "echo oops >&2; exit 1", false, runner.Crashed, "sh exit status 1"},
		{"silent", "exec sleep 60", true, runner.Timeout, "faulty: timeout at the start: initialize had no answer within 200ms"},
	} {
		p, err := agents.Parse([]byte(`{"name":"faulty","bin":"sh","api":"chat completions","clock":"libfaketime",
			"oneshot":{"args":["-c",`+quoteJSON(c.script)+`,"{prompt}"],"continue":["-c",`+quoteJSON(c.script)+`,"{prompt}"]},
			"acp":{"args":["-c",`+quoteJSON(c.script)+`]}}`), "faulty.json")
		if err != nil {
			t.Fatal(err)
		}
		// The timeouts on a clock of the test's (with 200 ms of the real clock, a loaded machine
		// timed out the agents that echo and exit before they had).
		o := Options{Profile: p, Bin: "/bin/sh", ACP: c.acp, Scenario: sc, Work: t.TempDir()}
		if s := faultVerdict(t, o, c.verdict == runner.Timeout); s.Case.ID != "live/two-prompts/session" || s.Verdict != c.verdict || !strings.Contains(s.Message, c.msg) {
			t.Errorf("%s: %s %s: %s", c.name, s.Case.ID, s.Verdict, s.Message)
		}
	}
}

func quoteJSON(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

func mustProfile(t *testing.T, name string) *agents.Profile {
	t.Helper()
	p, err := agents.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// live's settings are checked before any agent starts; each error says what to give.
func TestSettingsRun(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{}, "live: --agent is required: "},
		{Settings{Agent: "pi", ACP: true, Oneshot: true}, "live: --acp and --oneshot: give one"},
		{Settings{Agent: "/nonexistent/agent.json"}, "live: "},
	} {
		if rep, err := c.s.Run(t.Context(), nil); rep != nil || err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

// pi, which has no ACP command, is driven over its RPC mode unless --oneshot says otherwise; an
// agent with an ACP command stays on ACP.
func TestSettingsHow(t *testing.T) {
	for _, c := range []struct {
		agent        string
		s            Settings
		wantACP, rpc bool
	}{
		{"pi", Settings{}, false, true},
		{"pi", Settings{Oneshot: true}, false, false},
		{"qwen-code", Settings{}, true, false},
		{"qwen-code", Settings{Oneshot: true}, false, false},
	} {
		a, r, err := c.s.How(mustProfile(t, c.agent))
		if err != nil || a != c.wantACP || r != c.rpc {
			t.Errorf("%s %+v: acp %v rpc %v %v, want acp %v rpc %v", c.agent, c.s, a, r, err, c.wantACP, c.rpc)
		}
	}
	if _, _, err := (Settings{ACP: true}).How(mustProfile(t, "pi")); err == nil || !strings.Contains(err.Error(), "no ACP command") {
		t.Errorf("pi --acp: %v", err)
	}
}

// faultVerdict drives a faulty agent through o's scenario with a step bound of 200 ms on a clock
// of the test's — every bound passes at once when timeout is set, none ever does otherwise,
// however slow the machine — and returns the first verdict the judge gives.
func faultVerdict(t *testing.T, o Options, timeout bool) runner.Result {
	t.Helper()
	o.StepTimeout = 200 * time.Millisecond
	o.After = never
	if timeout {
		o.After = now
	}
	_, j := driveJudged(t, o)
	return j.Results[0]
}

// driveJudged drives o's scenario and judges the run, failing the test on an error of either.
func driveJudged(t *testing.T, o Options) (*Run, *Judgement) {
	t.Helper()
	r, err := Drive(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	j, err := Judge(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return r, j
}
