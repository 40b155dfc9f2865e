package gherkin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --features alone is the embedded features; a folder that is missing, a file, or a folder of no
// feature is named with the flag.
func TestLoadDir(t *testing.T) {
	emb, err := LoadDir("")
	if err != nil || len(emb) == 0 {
		t.Fatalf("the embedded features: %d, %v", len(emb), err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "none"), "--features " + filepath.Join(dir, "none") + ": "},
		{file, "--features " + file + ": not a directory"},
		{dir, "--features: " + dir + ": no <area>.feature file with a scenario"},
	} {
		if _, err := LoadDir(c.dir); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.dir, err, c.want)
		}
	}
}
