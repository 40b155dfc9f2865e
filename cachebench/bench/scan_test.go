package bench

import (
	"io"
	"reflect"
	"testing"

	"github.com/LLeMbas/lembas-check/replay"
)

// Before its runs, `bench --sim` reads a recording once for both its count of requests and the
// models the simulator serves (it read it twice); what it finds is the same as each found alone.
func TestCountAndModelsShareOnePass(t *testing.T) {
	const path = "../../testdata/recordings/model-change.jsonl"
	opens := 0
	open := func() (replay.Source, io.Closer, error) {
		opens++
		return opener(path)()
	}
	recs := []Recording{{Name: path, Open: open, scanned: &scanned{}}}
	sim, err := StartSim(recs, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	sim.Close()
	sessions, err := sessionsOf(recs, 3)
	if err != nil {
		t.Fatal(err)
	}
	_, models, _ := sessions[2].rec.scan()
	if opens != 1 {
		t.Errorf("the recording was read %d times before the runs, want once", opens)
	}
	r, f, err := replay.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, _ := replay.CountPrompts(r)
	if sessions[0].prompts != want || !reflect.DeepEqual(models, []string{"qwen3-coder", "qwen3-coder-large"}) {
		t.Errorf("counted %d prompts (want %d), models %q", sessions[0].prompts, want, models)
	}
}
