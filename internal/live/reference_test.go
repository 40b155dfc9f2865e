package live

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
	"github.com/LLeMbas/lembas-check/runner"
)

// With LIVE_TEST_AGENT=reference the test binary is lembas-check's reference agent (`lembas-check
// agent`), so the scenarios can drive it without a built lembas-check; with LIVE_TEST_AGENT=rpc
// it is a fake RPC agent (rpc_test.go).
func TestMain(m *testing.M) {
	if os.Getenv("LIVE_TEST_AGENT") == "rpc" {
		os.Exit(fakeRPCAgent())
	}
	if os.Getenv("LIVE_TEST_AGENT") == "reference-a2a" {
		o := refagent.Options{BaseURL: os.Getenv("OPENAI_BASE_URL"), Key: os.Getenv("OPENAI_API_KEY"), Model: os.Getenv("OPENAI_MODEL"), Version: "test"}
		if err := refagent.ServeA2A(context.Background(), "127.0.0.1:0", o, func(url string) { fmt.Fprintln(os.Stderr, "A2A on", url) }); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv("LIVE_TEST_AGENT") == "reference" {
		o := refagent.Options{BaseURL: os.Getenv("OPENAI_BASE_URL"), Key: os.Getenv("OPENAI_API_KEY"), Model: os.Getenv("OPENAI_MODEL"), Version: "test"}
		if b := os.Getenv("LIVE_TEST_BREAK"); b != "" {
			o.Break = []string{b}
		}
		if err := refagent.Serve(context.Background(), os.Stdin, os.Stdout, o); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// The reference agent (a LLeMbas agent: it offers _lembas/session/compact) is compacted in the
// compaction scenario: the fake answers its summary request (the spec's tasks.compact.ask) with a
// summary, so the compaction finishes and the field report judges the prefix across it. It said
// "not finished": the fake's policy answered the request with a read call, no summary.
func TestReferenceAgentCompacts(t *testing.T) {
	p := *mustProfile(t, "lembas-check")
	p.Env = maps.Clone(p.Env)
	if p.Env == nil {
		p.Env = map[string]string{}
	}
	p.Env["LIVE_TEST_AGENT"] = "reference"
	sc, err := LoadScenario("compaction")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Drive(context.Background(), Options{Profile: &p, Bin: os.Args[0], ACP: true, Scenario: sc, Work: t.TempDir(), After: never, Tool: "lembas-check test", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	j, err := Judge(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range j.Results {
		if x.Verdict != runner.Pass && x.Verdict != runner.Skip {
			t.Errorf("%s: %s: %s", x.Case.ID, x.Verdict, x.Message)
		}
	}
	if row := Row(map[string]Outcome{"compaction": {r, j}}); row.Compaction != "✅ held" {
		t.Errorf("the field report's compaction: %q, want ✅ held\nstderr: %s", row.Compaction, r.Stderr)
	}
}

// A profile's acp.model moves the session to that model right after session/new ({model}: the
// one the fake serves): the transcript holds the move, and the session runs on.
func TestSessionMovedToTheProfilesModel(t *testing.T) {
	p := *mustProfile(t, "lembas-check")
	p.Env = map[string]string{"LIVE_TEST_AGENT": "reference"}
	acpCmd := *p.ACP
	acpCmd.Model = "{model}"
	p.ACP = &acpCmd
	sc, err := LoadScenario("two-prompts")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	tr := filepath.Join(work, "acp.log")
	r, err := Drive(context.Background(), Options{Profile: &p, Bin: os.Args[0], ACP: true, Scenario: sc, Work: work, Transcript: tr, After: never, Tool: "lembas-check test", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Fault != nil {
		t.Fatalf("fault: %v\nstderr: %s", r.Fault, r.Stderr)
	}
	b, _ := os.ReadFile(tr)
	move := fmt.Sprintf(`"method":%q,"params":{"model":%q`, spec.Text("acp.method.configure"), Model)
	if !strings.Contains(string(b), move) {
		t.Errorf("the transcript has no %s:\n%s", move, b)
	}
}

// The reference agent with its note before the person's words (--break note-first) fails the
// date and mode notes, "before the person's words", in the midnight and mode scenarios (it passed
// them: the judge looked for the note anywhere in the new messages); as it is, it passes them.
func TestReferenceAgentNoteFirst(t *testing.T) {
	for _, broken := range []bool{false, true} {
		p := *mustProfile(t, "lembas-check")
		p.Env = map[string]string{"LIVE_TEST_AGENT": "reference"}
		if broken {
			p.Env["LIVE_TEST_BREAK"] = refagent.BreakNoteFirst
		}
		for sc, rule := range map[string]string{"midnight": RuleDateNote, "mode": RuleModeNote} {
			s, err := LoadScenario(sc)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Drive(context.Background(), Options{Profile: &p, Bin: os.Args[0], ACP: true, Scenario: s, Work: t.TempDir(), After: never, Tool: "lembas-check test", Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			// The driver says which requests its session sent: all the fake got, from the first.
			if j := mustJudge(t, r); !strings.HasPrefix(r.Session.ID, "ACP session ") || r.Session.First != 1 || r.Session.Last != j.Prompts {
				t.Errorf("%s: session %+v, %d requests", sc, r.Session, j.Prompts)
			}
			x := verdicts(mustJudge(t, r))[rule]
			switch {
			case broken && (x.Verdict != runner.Fail || !strings.Contains(x.Message, "before the person's words")):
				t.Errorf("note-first, %s: %s %s %q, want a failure before the person's words", sc, rule, x.Verdict, x.Message)
			case !broken && (x.Verdict != runner.Pass || !strings.Contains(x.Message, "after the person's words")):
				t.Errorf("%s: %s %s %q, want a pass after the person's words\nstderr: %s", sc, rule, x.Verdict, x.Message, r.Stderr)
			}
		}
	}
}

// The fake serves every model a scenario names (issue 21: a model step got 404 from the fake,
// which served only the profile's model): the reference agent moves to fake-model-2 and runs on,
// and the system-prompt verdict names the request that went there and the rule that allows it.
func TestModelChangeServed(t *testing.T) {
	p := *mustProfile(t, "lembas-check")
	p.Env = map[string]string{"LIVE_TEST_AGENT": "reference", "OPENAI_MODEL": "{model}"}
	sc, err := LoadScenario("model-change")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Drive(context.Background(), Options{Profile: &p, Bin: os.Args[0], ACP: true, Scenario: sc, Work: t.TempDir(), After: never, Tool: "lembas-check test", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Fault != nil {
		t.Fatalf("fault: %v\nstderr: %s", r.Fault, r.Stderr)
	}
	j, err := Judge(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range j.Results {
		if x.Verdict.Failed() {
			t.Errorf("%s: %s: %s", x.Case.ID, x.Verdict, x.Message)
		}
		if strings.HasSuffix(x.Case.ID, "/system-prompt") && !strings.Contains(x.Evidence, "request 4: model fake-model → fake-model-2, allowed by the model-change rule") {
			t.Errorf("system-prompt: %s: %q", x.Verdict, x.Evidence)
		}
	}
}

// A model step is served and made by the id the agent offers for it.
func TestServedAndOffered(t *testing.T) {
	sc := &Scenario{Steps: []Step{{Prompt: "hi"}, {Model: "fake-model-2"}, {Model: "fake-model"}, {Model: "other"}}}
	if got := strings.Join(Served(sc, "fake-model"), ","); got != "fake-model,fake-model-2,other" {
		t.Errorf("Served: %s", got)
	}
	for _, c := range []struct {
		offered []string
		want    string
		ok      bool
	}{
		{[]string{"fake/fake-model", "fake/fake-model-2"}, "fake/fake-model-2", true},
		{[]string{"fake-model-2"}, "fake-model-2", true},
		{[]string{"fake/fake-model-22"}, "", false},
	} {
		if got, ok := OfferedModel(c.offered, "fake-model-2"); got != c.want || ok != c.ok {
			t.Errorf("OfferedModel(%v) = %q %v", c.offered, got, ok)
		}
	}
}

// The reference agent shows its client each tool call's result as the model gets it, so in
// two-prompts (its prompts read files) ids-shown passes; with the ids hidden (--break ids-hidden)
// it fails, naming the bracket the model was sent.
func TestReferenceAgentIDsShown(t *testing.T) {
	sc, err := LoadScenario("two-prompts")
	if err != nil {
		t.Fatal(err)
	}
	for _, broken := range []bool{false, true} {
		p := *mustProfile(t, "lembas-check")
		p.Env = map[string]string{"LIVE_TEST_AGENT": "reference"}
		if broken {
			p.Env["LIVE_TEST_BREAK"] = refagent.BreakIDsHidden
		}
		r, err := Drive(context.Background(), Options{Profile: &p, Bin: os.Args[0], ACP: true, Scenario: sc, Work: t.TempDir(), After: never, Tool: "lembas-check test", Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		x := verdicts(mustJudge(t, r))[RuleIDsShown]
		t.Logf("broken %v: %s %s", broken, x.Verdict, x.Message)
		switch {
		case broken && (x.Verdict != runner.Fail || !strings.Contains(x.Message, `without that id: it begins`) || !strings.Contains(x.Message, `"[#0001`)):
			t.Errorf("ids-hidden: %s %q, want a failure naming [#0001", x.Verdict, x.Message)
		case !broken && (x.Verdict != runner.Pass || !strings.Contains(x.Message, "carry the ids the model was sent")):
			t.Errorf("ids-shown %s %q, want a pass\nshown: %q\nstderr: %s", x.Verdict, x.Message, r.Shown, r.Stderr)
		}
	}
}
