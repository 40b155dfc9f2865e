package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	cachegen "github.com/LLeMbas/lembas-check/internal/cachebench/gen"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Before its runs, `bench --sim` reads a recording once for both its count of requests and the
// models the simulator serves (it read it twice); what it finds is the same as each found alone.
func TestCountAndModelsShareOnePass(t *testing.T) {
	const path = "../../../testdata/recordings/model-change.jsonl"
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

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// A whole `bench --sim` — the simulator's models, the count, and for the baseline and a variant,
// two sessions at once, each predicted and replayed — opens the recording once and reads each
// of its bytes once (it read the file 1 + 2×2×2 = 9 times), and says what it said before; a
// recording too long to keep is read as before.
func TestBenchReadsTheRecordingOnce(t *testing.T) {
	const path = "../../../testdata/recordings/clean.jsonl"
	// Atomic: over the bound, two sessions open the file at once.
	var opens, read atomic.Int64
	open := func() (replay.Source, io.Closer, error) {
		opens.Add(1)
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		r, err := replay.NewReader(countingReader{f, &read})
		return r, f, err
	}
	bench := func(recs []Recording) *Result {
		_, o := startSim(t, recs, 1, nil)
		v, _ := ParseVariant("date-in-system")
		o.Variants, o.Concurrency = []Variant{v}, 2
		res, err := BenchAll(context.Background(), recs, o)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := bench([]Recording{{Name: path, Open: open, scanned: &scanned{}}})
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if opens.Load() != 1 || read.Load() != st.Size() {
		t.Errorf("the recording was opened %d times and %d bytes read, want once and %d", opens.Load(), read.Load(), st.Size())
	}
	// A recording whose bodies do not fit in keepBytes is read by each stage again: the same
	// predictions and answers.
	defer func(n int) { keepBytes = n }(keepBytes)
	keepBytes = 1000
	opens.Store(0)
	again := bench([]Recording{{Name: path, Open: open, scanned: &scanned{}}})
	if opens.Load() != 9 {
		t.Errorf("a recording too long to keep was opened %d times, want 9 (once, then each stage)", opens.Load())
	}
	for i := range res.Runs {
		if a, b := runRows(res.Runs[i]), runRows(again.Runs[i]); a != b {
			t.Errorf("run %s: read once\n%s\nread per stage\n%s", res.Runs[i].Name, a, b)
		}
	}
}

// runRows is what a run predicted of each request and what the server was sent; not what it
// cached, which two sessions on one slot make depend on their timing.
func runRows(r Run) string {
	var b strings.Builder
	audit, _ := json.Marshal(r.Audit)
	fmt.Fprintf(&b, "audit %s\n", audit)
	for _, row := range r.Rows {
		fmt.Fprintf(&b, "%d/%d seq %d status %d prompt %v reusable %d predicted prompt %d cause %s\n",
			row.Session, row.N, row.Seq, row.Status, *row.Usage.PromptTokens, row.Reusable, row.PredictedPrompt, row.Cause)
	}
	return b.String()
}

// The pass holds each body as what it adds to the one before, and gives back every exchange as
// the reader gave it: on every shipped recording, and on a generated session whose history grows
// and is compacted, where what is held is a small part of its bodies.
func TestHeldBodiesAreTheReadersOnes(t *testing.T) {
	paths, _ := filepath.Glob("../../../testdata/recordings/*.jsonl")
	if testing.Short() {
		t.Skip("generates a session (-short skips it)")
	}
	gen := filepath.Join(t.TempDir(), "large.jsonl")
	f, err := os.Create(gen)
	if err != nil {
		t.Fatal(err)
	}
	if err := cachegen.WriteLarge(f, cachegen.LargeOptions{Requests: 60, Tokens: 1_200_000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, path := range append(paths, gen) {
		want, _, err := replay.ReadAll(path)
		if err != nil {
			t.Fatal(err)
		}
		held, kept, _, _, err := scanRecording(opener(path))
		if err != nil || !kept {
			t.Fatalf("%s: kept %v, %v", path, kept, err)
		}
		d := &decoded{entries: held}
		bodies, heldBytes := 0, 0
		for i, w := range want {
			got, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			w.Exchange.Request.Body = nil // the stored body is not held: no stage reads it
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("%s: exchange %d differs from the reader's", path, i)
			}
			bodies += len(w.Body)
			heldBytes += len(held[i].mid)
		}
		if _, err := d.Next(); err != io.EOF {
			t.Errorf("%s: after the last exchange %v, want io.EOF", path, err)
		}
		if path == gen && heldBytes*5 > bodies {
			t.Errorf("%s: %d bytes held of %d bytes of bodies: more than a fifth", path, heldBytes, bodies)
		}
		t.Logf("%s: %d bytes held for %d bytes of bodies", filepath.Base(path), heldBytes, bodies)
	}
}
