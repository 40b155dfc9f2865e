package gen

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// The committed recordings are what the generator makes: regenerate them with
// `go run ./internal/cachebench/cmd/gen -out testdata/recordings` when the scripts change.
func TestTestdataIsWhatTheGeneratorMakes(t *testing.T) {
	for _, name := range ScriptNames() {
		var b bytes.Buffer
		if err := WriteScript(name, &b); err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile("../../../testdata/recordings/" + name + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), committed) {
			t.Errorf("%s: testdata/recordings/%s.jsonl differs from the generator's output; regenerate it", name, name)
		}
	}
	if err := WriteScript("nope", &bytes.Buffer{}); err == nil {
		t.Error("an unknown script was written")
	}
}

// A large session has the requests asked for, its cumulative prompt tokens near the target, and
// keeps the prefix: no break but its compactions.
func TestLarge(t *testing.T) {
	var b bytes.Buffer
	if err := WriteLarge(&b, LargeOptions{Requests: 300, Tokens: 3_000_000, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	r, err := replay.NewReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := audit.Run(context.Background(), r, audit.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tot := rep.Totals
	if tot.Requests != 300 || tot.PromptTokens < 2_700_000 || tot.PromptTokens > 3_300_000 {
		t.Errorf("%d requests, %d cumulative prompt tokens", tot.Requests, tot.PromptTokens)
	}
	if tot.Failing != 0 || tot.ByCause[audit.Compaction] == nil || tot.Breaks != tot.ByCause[audit.Compaction].Requests {
		t.Errorf("breaks %d, failing %d, by cause %v", tot.Breaks, tot.Failing, tot.ByCause)
	}
}
