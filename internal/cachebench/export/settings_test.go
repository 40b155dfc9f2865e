package export

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// export's settings are checked, its trace goes to --out or stdout, and a recording with no
// request is not a trace made.
func TestSettingsRun(t *testing.T) {
	src := filepath.Join("..", "..", "..", "testdata", "recordings", "clean.jsonl")
	if err := (Settings{Block: 0}).Run(t.Context(), src, io.Discard, io.Discard); err == nil || err.Error() != "--block 0: want a positive number of tokens" {
		t.Errorf("--block 0: %v", err)
	}
	var out, log bytes.Buffer
	if err := (Settings{Block: 16}).Run(t.Context(), src, &out, &log); err != nil || out.Len() == 0 || !strings.HasPrefix(log.String(), "lembas-check: exported ") {
		t.Fatalf("%v: %d bytes; %s", err, out.Len(), log.String())
	}
	file := filepath.Join(t.TempDir(), "trace.jsonl")
	if err := (Settings{Block: 16, Out: file}).Run(t.Context(), src, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); !bytes.Equal(b, out.Bytes()) {
		t.Errorf("--out holds %d bytes, stdout had %d", len(b), out.Len())
	}
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, []byte(`{"type":"header","format":"lembas-check-recording","version":1,"source":"fake"}`+"\n"), 0o644)
	if err := (Settings{Block: 16}).Run(t.Context(), empty, io.Discard, io.Discard); err == nil || !strings.HasSuffix(err.Error(), "no request: did the agent reach the fake?") {
		t.Errorf("no request: %v", err)
	}
}
