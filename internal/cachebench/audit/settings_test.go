package audit

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// The settings' errors name their flag; a recording is audited whole.
func TestSettingsRun(t *testing.T) {
	src := filepath.Join("..", "..", "..", "testdata", "recordings", "clean.jsonl")
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Allow: []string{"paint"}}, `--allow "paint": `},
		{Settings{TTL: []string{"anthropic=5m"}}, `--ttl "anthropic=5m": `},
		{Settings{Prices: "/nonexistent/p.json"}, "--prices: "},
	} {
		if rep, _, err := c.s.Run(t.Context(), src, io.Discard); rep != nil || err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
	if _, _, err := (Settings{}).Run(t.Context(), "/nonexistent/rec.jsonl", io.Discard); err == nil || !strings.HasPrefix(err.Error(), "/nonexistent/rec.jsonl: ") {
		t.Errorf("a missing recording: %v", err)
	}
	rep, damaged, err := Settings{Allow: []string{"tools-changed"}}.Run(t.Context(), src, io.Discard)
	if err != nil || damaged != nil || rep.File != src || len(rep.Requests) == 0 {
		t.Fatalf("%v, %v, %v", rep, damaged, err)
	}
}
