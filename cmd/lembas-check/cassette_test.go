package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents/agentstest"
	"github.com/LLeMbas/lembas-check/internal/replay/cassette"
)

// A real agent (pi and opencode, from npm; skipped when not installed) recorded once, then run
// again on its cassette: the same requests, each answered from the cassette (no model server but
// the fake playing it), the same audit verdicts; a changed prompt is a miss naming its path.
func TestAgentCassette(t *testing.T) {
	for _, name := range []string{"pi", "opencode"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			agentstest.Installed(t, name)
			agentCassette(t, name)
		})
	}
}

func agentCassette(t *testing.T, agent string) {
	const prompt = "Read README.md and NOTES.md, then tell me what the project is."
	first, code, out, errs := recordRun(t, "--agent", agent, "--timeout", "240s", "--", prompt)
	if code != 0 {
		t.Fatalf("record: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	again, code, out2, errs := recordRun(t, "--agent", agent, "--cassette", first, "--timeout", "240s", "--", prompt)
	if code != 0 || out2 != out {
		t.Fatalf("on the cassette: exit %d\nstdout %q, recorded %q\nstderr %s", code, out2, out, errs)
	}
	es1, _ := readRecording(t, first)
	es2, h := readRecording(t, again)
	if h.Source != "cassette" || h.Cassette != first || len(es1) < 3 || len(es2) != len(es1) {
		t.Fatalf("%d exchanges recorded, %d on the cassette (header %+v)", len(es1), len(es2), h)
	}
	if want := fmt.Sprintf("%d of %[1]d exchanges played, 0 requests missed", len(es1)); !strings.Contains(errs, want) {
		t.Errorf("stderr %s, want %s", errs, want)
	}
	rules := cassette.Builtin()
	for i := range es1 {
		x1, x2 := es1[i].Exchange, es2[i].Exchange
		k1, k2 := rules.Normalize(x1.Method, x1.Path, es1[i].Body), rules.Normalize(x2.Method, x2.Path, es2[i].Body)
		if k1.Path != k2.Path || string(k1.Body) != string(k2.Body) {
			t.Errorf("request %d differs:\n%s\n%s", i+1, k1.Body, k2.Body)
		}
		if !strings.HasPrefix(x2.Note, "cassette exchange ") {
			t.Errorf("request %d was not answered from the cassette: %q", i+1, x2.Note)
		}
	}
	if v1, v2 := verdicts(t, first), verdicts(t, again); v1 != v2 {
		t.Errorf("the audit's verdicts differ:\n%s\n%s", v1, v2)
	}

	miss, code, _, errs := recordRun(t, "--agent", agent, "--cassette", first, "--timeout", "240s", "--",
		strings.Replace(prompt, "NOTES.md", "TODO.md", 1))
	want := regexp.MustCompile(`nearest is exchange \d+ \(line \d+\), first differing at \$\.messages\[\d+\]\.content`)
	if code != 1 || !want.MatchString(errs) {
		t.Fatalf("a changed prompt: exit %d, want 1 and %s in\n%s", code, want, errs)
	}
	if es, _ := readRecording(t, miss); len(es) == 0 || !want.MatchString(es[0].Exchange.Error) {
		t.Errorf("the miss is not recorded: %+v", es)
	}
}

// verdicts are the audit's verdicts on a recording, request by request, and its status.
func verdicts(t *testing.T, rec string) string {
	t.Helper()
	_, out, errs := runCLI(t, "audit", "--format", "json", rec)
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v struct {
			Type, Cause, Status  string
			Seq, Messages        int
			Break, Fails, Failed bool
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("audit %s: %v\n%s", rec, err, errs)
		}
		if v.Type != "totals" {
			b.WriteString(strings.TrimSpace(strings.Join([]string{v.Type, v.Cause, v.Status}, " ")))
			b.WriteString(strings.Repeat("!", btoi(v.Break)+btoi(v.Fails)+btoi(v.Failed)) + "\n")
		}
	}
	return b.String()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
