package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// live --cassette: the reference agent driven through a scenario, then again on that run's
// recording: every request answered from it, and the same verdict for every case.
func TestLiveOnItsCassette(t *testing.T) {
	p := *mustProfile(t, "lembas-check")
	p.Env = map[string]string{"LIVE_TEST_AGENT": "reference"}
	sc, err := LoadScenario("two-prompts")
	if err != nil {
		t.Fatal(err)
	}
	first, again := t.TempDir(), t.TempDir()
	verdicts := func(o Options) string {
		t.Helper()
		o.Profile, o.Bin, o.ACP, o.Scenario, o.Work, o.After = &p, os.Args[0], true, sc, t.TempDir(), never
		o.Tool, o.Version = "lembas-check test", "test"
		r, err := Drive(context.Background(), o)
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
		var b strings.Builder
		for _, x := range j.Results {
			b.WriteString(x.Case.ID + " " + string(x.Verdict) + "\n")
		}
		return b.String()
	}
	v1 := verdicts(Options{Record: filepath.Join(first, "two-prompts.jsonl")})
	v2 := verdicts(Options{Record: filepath.Join(again, "two-prompts.jsonl"), Cassette: first})
	if v1 != v2 || v1 == "" {
		t.Errorf("verdicts on the cassette:\n%s\nrecorded:\n%s", v2, v1)
	}
	es, r, err := replay.ReadAll(filepath.Join(again, "two-prompts.jsonl"))
	if err != nil || r.Header.Source != "cassette" || len(es) == 0 {
		t.Fatalf("%d exchanges, header %+v: %v", len(es), r.Header, err)
	}
	for _, e := range es {
		if !strings.HasPrefix(e.Exchange.Note, "cassette exchange ") {
			t.Errorf("exchange %d not from the cassette: %q %q", e.Exchange.Seq, e.Exchange.Note, e.Exchange.Error)
		}
	}
}
