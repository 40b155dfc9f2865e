package replay

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Summarize counts the exchanges read back and names the first three that ended in an error.
func TestSummarize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rec.jsonl")
	w, err := Create(p, Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		x := Exchange{Method: "POST", Path: "/v1/chat/completions", Response: &Response{Status: 200, Body: json.RawMessage(`{}`)}}
		if i > 0 {
			x.Error = "the script ran out"
		}
		if err := w.Write(x, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Summarize(p)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	if s.Exchanges != 5 || s.Errors != 4 || s.Bytes != st.Size() || len(s.FirstErrors) != 3 {
		t.Fatalf("%+v", s)
	}
	if want := "exchange 2 (POST /v1/chat/completions): the script ran out"; s.FirstErrors[0] != want {
		t.Errorf("first error %q, want %q", s.FirstErrors[0], want)
	}
	// A recording cut mid-line is not whole: reading it back says where.
	b, _ := os.ReadFile(p)
	os.WriteFile(p, b[:len(b)-10], 0o644)
	var le *LineError
	if _, err := Summarize(p); !errors.As(err, &le) || !le.Cut {
		t.Errorf("a cut recording: %v", err)
	}
}

// OpenFile names the file once: "PATH: why" for a file that cannot be read, the LineError (with
// its file and line) for one damaged.
func TestOpenFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.jsonl")
	if _, _, err := OpenFile(missing); err == nil || !strings.HasPrefix(err.Error(), missing+": ") || strings.Count(err.Error(), missing) != 1 {
		t.Errorf("a missing file: %v", err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	if _, _, err := OpenFile(empty); err == nil || !strings.HasPrefix(err.Error(), empty+": empty") {
		t.Errorf("an empty file: %v", err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{not json\n"), 0o644)
	var le *LineError
	if _, _, err := OpenFile(bad); !errors.As(err, &le) || le.File != bad || strings.Count(err.Error(), bad) != 1 {
		t.Errorf("a damaged file: %v", err)
	}
}
