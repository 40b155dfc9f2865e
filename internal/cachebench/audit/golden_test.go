package audit

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The audit of every shipped recording, in every format, is byte for byte what lembas-check
// wrote before the audit was made fast (testdata/golden, written by `lembas-check audit REC
// --format F -v` at 87ddd61, run from the repository's root; date-in-system.table again when
// internal/table stopped wrapping as tablewriter did): reading, tokenizing, the date scan
// and forgetting old requests change the cost, never the answer.
func TestAuditOfTheShippedRecordingsIsUnchanged(t *testing.T) {
	files, _ := filepath.Glob(recordings + "*.jsonl")
	if len(files) == 0 {
		t.Fatal("no recordings")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		for _, c := range []struct{ golden, format, provider string }{
			{"table", "table", ""}, {"json", "json", ""}, {"markdown", "markdown", ""}, {"svg", "svg", ""},
			{"openai.json", "json", "openai"},
		} {
			t.Run(name+"."+c.golden, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join("testdata", "golden", name+"."+c.golden))
				if err != nil {
					t.Fatalf("%v (a recording without golden files: write them with the command above)", err)
				}
				rep, _, err := Settings{Provider: c.provider}.Run(context.Background(), file, io.Discard)
				if err != nil {
					t.Fatal(err)
				}
				rep.File = "testdata/recordings/" + filepath.Base(file) // as the command, run from the root, names it
				var got bytes.Buffer
				if err := Write(&got, rep, c.format, c.format == "table"); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Errorf("the %s audit of %s differs from testdata/golden/%s.%s:\n%s", c.format, file, name, c.golden, firstDiff(got.Bytes(), want))
				}
			})
		}
	}
}

// firstDiff shows where two outputs part.
func firstDiff(got, want []byte) string {
	i := commonPrefix(got, want)
	lo := max(0, i-80)
	return "got  …" + string(got[lo:min(len(got), i+80)]) + "…\nwant …" + string(want[lo:min(len(want), i+80)]) + "…"
}
