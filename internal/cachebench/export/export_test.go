package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

func export(t *testing.T, file string, block int) ([]Record, Stats, error) {
	t.Helper()
	r, f, err := replay.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b bytes.Buffer
	st, err := Write(context.Background(), r, &b, Options{Block: block})
	var out []Record
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var rec Record
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out, st, err
}

// Equal prefixes give equal ids, block by block, exactly as far as the prompts' tokens agree; the
// trace carries no text.
func TestHashIDsFollowTheCommonPrefix(t *testing.T) {
	const file = "../../../testdata/recordings/date-in-system.jsonl"
	const block = 64
	recs, st, err := export(t, file, block)
	if err != nil {
		t.Fatal(err)
	}
	entries, _, _ := replay.ReadAll(file)
	tk, _ := tokens.NewTiktoken()
	var flats [][]uint32
	for _, e := range entries {
		r, _ := chat.Parse(e.Body)
		flats = append(flats, tk.Of(r).Flat())
	}
	if len(recs) != len(entries) || st.Requests != len(entries) {
		t.Fatalf("%d records for %d requests", len(recs), len(entries))
	}
	for i := 1; i < len(recs); i++ {
		a, b := flats[i-1], flats[i]
		lcp := 0
		for lcp < len(a) && lcp < len(b) && a[lcp] == b[lcp] {
			lcp++
		}
		same := 0
		for same < len(recs[i].HashIDs) && same < len(recs[i-1].HashIDs) && recs[i].HashIDs[same] == recs[i-1].HashIDs[same] {
			same++
		}
		// Full blocks within the common prefix are shared; a block with a difference is not.
		want := lcp / block
		if full := len(a) / block; want > full {
			want = full
		}
		if same != want {
			t.Errorf("request %d: %d shared ids, the common prefix of %d tokens covers %d whole blocks", i+1, same, lcp, want)
		}
		if recs[i].InputLength != len(b) || len(recs[i].HashIDs) != (len(b)+block-1)/block {
			t.Errorf("request %d: input %d, %d ids", i+1, recs[i].InputLength, len(recs[i].HashIDs))
		}
		if recs[i].Timestamp <= recs[i-1].Timestamp || recs[i].OutputLength <= 0 {
			t.Errorf("request %d: timestamp %d, output %d", i+1, recs[i].Timestamp, recs[i].OutputLength)
		}
	}
	// The break at request 4 (the date at the head of the system prompt) shares no block.
	if recs[3].HashIDs[0] == recs[2].HashIDs[0] {
		t.Error("the date change kept the first block")
	}
	raw, _ := json.Marshal(recs)
	if bytes.Contains(raw, []byte("LLeMbas")) || bytes.Contains(raw, []byte("main.go")) {
		t.Error("the trace carries text")
	}
}

func TestExportStopsAtDamage(t *testing.T) {
	whole, _ := os.ReadFile("../../../testdata/recordings/clean.jsonl")
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	os.WriteFile(cut, whole[:len(whole)-50], 0o644)
	recs, _, err := export(t, cut, 0)
	var le *replay.LineError
	if !errors.As(err, &le) || len(recs) != 5 {
		t.Errorf("%v, %d records", err, len(recs))
	}
}
