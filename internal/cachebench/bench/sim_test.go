package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// startSim starts the simulator for recs (StartSim) for one test, closed when the test ends,
// and gives the options that bench against it: sent to it, emptied before each run, counted
// with tok (nil: tiktoken, as Options says).
func startSim(t *testing.T, recs []Recording, slots int, tok tokens.Tokenizer) (*Sim, Options) {
	t.Helper()
	sim, err := StartSim(recs, slots, tok)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim, Options{Sender: replay.Sender{URL: sim.BaseURL()}, Reset: sim.Reset, Tokenizer: tok}
}

// The simulator serves every model a recording names and is emptied before each run.
func TestStartSimServesTheRecordingsModels(t *testing.T) {
	open := opener("../../../testdata/recordings/model-change.jsonl")
	sim, o := startSim(t, []Recording{{Open: open}}, 2, nil)
	res, err := Bench(context.Background(), open, o)
	if err != nil {
		t.Fatal(err)
	}
	run := res.Runs[0]
	if sim.Name() != "simulator via the fake provider (2 slot(s))" || run.Cold != "simulator emptied (2 slot(s))" || run.Totals.Errors != 0 || run.Totals.Requests != 6 {
		t.Errorf("%s: cold %q, %d errors of %d requests", sim.Name(), run.Cold, run.Totals.Errors, run.Totals.Requests)
	}
}

// The simulator tokenizes as the audit does, so on one conversation it caches exactly what the
// audit predicts, in the baseline and in a variant.
func TestStartSimCachesWhatTheAuditPredicts(t *testing.T) {
	open := opener(clean)
	_, o := startSim(t, []Recording{{Open: open}}, 1, nil)
	v, _ := ParseVariant("tool-churn")
	o.Variants = []Variant{v}
	res, err := Bench(context.Background(), open, o)
	if err != nil || len(res.Runs) != 2 {
		t.Fatalf("%v, %+v", err, res)
	}
	for _, run := range res.Runs {
		if e, ok := run.Totals.Efficiency(); !ok || e != 1 || run.Totals.Errors != 0 {
			t.Errorf("%s: efficiency %v %v, %d errors", run.Name, e, ok, run.Totals.Errors)
		}
	}
}

// Every step of a bench is announced as it starts, so progress shows from the start (issue 16:
// nothing was shown while the recording was read and tokenized, ~16 s for 2,000 requests).
func TestBenchAnnouncesEachStep(t *testing.T) {
	open := opener(clean)
	_, o := startSim(t, []Recording{{Open: open}}, 1, nil)
	v, _ := ParseVariant("tool-churn")
	var steps []string
	rows := 0
	o.Variants = []Variant{v}
	o.OnPhase = func(run, step string, n int) {
		steps = append(steps, fmt.Sprintf("%s %s %d (after %d rows)", run, step, n, rows))
	}
	o.OnRow = func(Row) { rows++ }
	_, err := Bench(context.Background(), open, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{" reading 0 (after 0 rows)", "baseline tokenizing 6 (after 0 rows)", "baseline replaying 6 (after 0 rows)",
		"tool-churn:3 tokenizing 6 (after 6 rows)", "tool-churn:3 replaying 6 (after 6 rows)"}
	if strings.Join(steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps\n%s\nwant\n%s", strings.Join(steps, "\n"), strings.Join(want, "\n"))
	}
}
