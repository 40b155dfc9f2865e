package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/runner"
)

// faulty is the builtin reference with one fault on every case, as `<test binary> adapter` plays
// it with LEMBAS_CHECK_TEST_FAULT set: "error" answers error, "crash" exits mid-case, "wrong"
// gives a wrong answer to the first four jobs cases, "all-wrong" a long wrong answer to every case.
type faulty struct {
	runner.Builtin
	fault string
}

func (f faulty) Answer(ctx context.Context, c conformance.Case) runner.Outcome {
	switch {
	case f.fault == "error":
		return runner.Outcome{Verdict: runner.Error, Message: "TypeError: x is undefined"}
	case f.fault == "crash":
		os.Exit(3)
	case f.fault == "all-wrong":
		b, _ := json.Marshal(map[string]any{"wrong": strings.Repeat("not what the spec says ", 200), "case": c.Input})
		return runner.Outcome{Answer: b}
	case f.fault == "wrong" && firstFour(c):
		return runner.Outcome{Answer: json.RawMessage(`{"text": "wrong"}`)}
	}
	return f.Builtin.Answer(ctx, c)
}

// firstFour says whether a case is one of the first four of the embedded jobs suite (a run request
// carries the case's input, not its index).
func firstFour(c conformance.Case) bool {
	for _, j := range jobsCases() {
		if c.Area == j.Area && conformance.Diff(c.Input, j.Input) == "" {
			return true
		}
	}
	return false
}

func serveFaulty(fault string) int {
	if err := runner.Serve(context.Background(), os.Stdin, os.Stdout, faulty{fault: fault}); err != nil {
		return 2
	}
	return 0
}

// jobsCases are the first four jobs cases, loaded once.
var jobsCases = sync.OnceValue(func() []conformance.Case {
	jobs, _ := conformance.EmbeddedCases(conformance.Jobs.Name)
	return jobs[:min(4, len(jobs))]
})

// faultyAdapter is the command line of an adapter with that fault.
func faultyAdapter(t *testing.T, fault string) string {
	return "env LEMBAS_CHECK_TEST_FAULT=" + fault + " " + selfAdapter(t)
}

// Two broken implementations never diff green (issue 21: two adapters answering error to every
// case exited 0 "ok … 267 agree", two crashing on every case "37 agree", two giving the same
// wrong answer on four cases "267 agree"): nothing compared is exit 2; the same wrong answer is
// exit 1, the first line of every format counting it as both wrong.
func TestDiffOfBrokenAdapters(t *testing.T) {
	for _, c := range []struct {
		fault, why string
	}{
		{"error", "both errored"},
		{"crash", "both crashed"},
	} {
		impl := faultyAdapter(t, c.fault)
		code, out, errs := runCLI(t, "diff", "--a", impl, "--b", impl, "--area", "jobs")
		head := "ERROR\t10 not compared; 0 of 10 cases compared\tno case was compared: none was answered on both sides, and a side gave no answer to 10\n"
		// Each failing case is streamed as b's run goes, before the table, whose first line and
		// the last are the headline.
		if code != 2 || !strings.Contains(out, head) || !strings.HasSuffix(out, head) || strings.Count(out, "--- NOT COMPARED: ") != 10 || !strings.Contains(out, " — "+c.why+"\n") || strings.Contains(out, "agree,") {
			t.Errorf("%s on both sides: exit %d\n%s\n%s", c.fault, code, out, errs)
		}
	}
	// One side crashing while the other answers: not compared, never agreement.
	code, out, _ := runCLI(t, "diff", "--b", faultyAdapter(t, "crash"), "--area", "jobs")
	if code != 2 || !strings.Contains(out, "--- NOT COMPARED: jobs/") || !strings.Contains(out, " — b crashed\n") {
		t.Errorf("b crashing: exit %d\n%s", code, out)
	}

	wrong := faultyAdapter(t, "wrong")
	dir := t.TempDir()
	for format, first := range map[string]func(string) string{
		"table":    func(s string) string { return strings.SplitN(s, "\n", 2)[0] },
		"markdown": func(s string) string { return strings.SplitN(s, "\n", 2)[0] },
		"json":     func(s string) string { return strings.SplitN(s, "\n", 2)[0] },
		"html": func(s string) string {
			_, title, _ := strings.Cut(s, "<title>")
			return title
		},
	} {
		path := filepath.Join(dir, "diff."+format)
		code, out, errs := runCLI(t, "diff", "--a", wrong, "--b", wrong, "--area", "jobs", "--format", format, "--out", path)
		b, _ := os.ReadFile(path)
		if code != 1 || !strings.Contains(first(string(b)), "4 both wrong, 6 agree; 10 of 10 cases compared") {
			t.Errorf("--format %s: exit %d, first line %q\n%s", format, code, first(string(b)), errs)
		}
		if format != "table" && !strings.HasPrefix(out, "FAIL\t4 both wrong, 6 agree; 10 of 10 cases compared\n") {
			t.Errorf("--format %s: stdout\n%s", format, out)
		}
	}
}
