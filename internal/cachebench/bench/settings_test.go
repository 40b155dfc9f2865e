package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// --variant's values are checked with the flag named.
func TestParseVariants(t *testing.T) {
	vs, err := ParseVariants([]string{"prune-results", "date-in-system:3"})
	if err != nil || len(vs) != 2 {
		t.Fatalf("%v, %v", vs, err)
	}
	if _, err := ParseVariants([]string{"paint"}); err == nil || !strings.HasPrefix(err.Error(), "--variant: ") {
		t.Errorf("an unknown variant: %v", err)
	}
}

// A folder's recordings come in name order, each opened once to check it; a folder of none is
// an error naming it.
func TestRecordings(t *testing.T) {
	dir := t.TempDir()
	if _, err := Recordings(dir, func(*replay.Reader) {}); err == nil || err.Error() != dir+": a folder with no recording (*.jsonl) in it" {
		t.Errorf("an empty folder: %v", err)
	}
	src := filepath.Join("..", "..", "..", "testdata", "recordings", "clean.jsonl")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"b.jsonl", "a.jsonl"} {
		os.WriteFile(filepath.Join(dir, n), b, 0o644)
	}
	opened := 0
	recs, err := Recordings(dir, func(*replay.Reader) { opened++ })
	if err != nil || len(recs) != 2 || filepath.Base(recs[0].Name) != "a.jsonl" || opened != 2 {
		t.Fatalf("%v, %v, opened %d", recs, err, opened)
	}
	one, err := Recordings(src, func(*replay.Reader) {})
	if err != nil || len(one) != 1 || one[0].Name != src {
		t.Errorf("one recording: %v, %v", one, err)
	}
	os.WriteFile(filepath.Join(dir, "c.jsonl"), []byte("{not json\n"), 0o644)
	if _, err := Recordings(dir, func(*replay.Reader) {}); err == nil || !strings.Contains(err.Error(), "c.jsonl") {
		t.Errorf("a damaged recording in the folder: %v", err)
	}
}

// The settings are checked before anything is read; --sim benches a recording in-process and
// says what it measured.
func TestSettingsRun(t *testing.T) {
	src := filepath.Join("..", "..", "..", "testdata", "recordings", "clean.jsonl")
	var log strings.Builder
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Concurrency: 1}, "bench needs --server URL, or --sim for the simulator (not both)"},
		{Settings{Target: Target{Sim: true, Server: replay.ServerSettings{URL: "http://x"}}, Concurrency: 1}, "bench needs --server URL"},
		{Settings{Target: Target{Sim: true}, Concurrency: 0}, "--concurrency 0, --rate 0: want 1 or more sessions"},
		{Settings{Target: Target{Sim: true}, Concurrency: 1, Variants: []string{"paint"}}, "--variant: "},
		{Settings{Target: Target{Sim: true}, Concurrency: 1, Prices: "/nonexistent/p.json"}, "--prices: "},
	} {
		if res, cut, _ := c.s.Run(t.Context(), src, &log); res != nil || cut == nil || !strings.HasPrefix(cut.Error(), c.want) {
			t.Errorf("%+v: %v, %v; want %q", c.s, res, cut, c.want)
		}
	}
	res, cut, metrics := Settings{Target: Target{Sim: true, Slots: 1}, Concurrency: 1, Cold: true}.Run(t.Context(), src, &log)
	if res == nil || cut != nil || metrics != nil || res.File != src || res.Server == "" || len(res.Runs) == 0 {
		t.Fatalf("%+v, %v, %v", res, cut, metrics)
	}
}
