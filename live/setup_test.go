package live

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// An agent's HOME and session directory, as live (Drive) and record --agent (NewOneShot) make
// them: an empty HOME, and a session directory holding the small project unless one is given,
// which is left as it is, and stays after Cleanup.
func TestSessionDirectories(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip(err)
	}
	profile := filepath.Join(t.TempDir(), "sh.json")
	if err := os.WriteFile(profile, []byte(`{"name":"sh","bin":"sh","api":"chat completions","clock":"libfaketime","oneshot":{"args":["-c","true","{prompt}"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	given := t.TempDir()
	for _, dir := range []string{"", given} {
		a, err := NewOneShot(profile, dir, "hi")
		if err != nil {
			t.Fatal(err)
		}
		if es, err := os.ReadDir(a.Home); err != nil || len(es) != 0 {
			t.Errorf("HOME %s: %v %v, want it empty", a.Home, es, err)
		}
		_, seeded := os.Stat(filepath.Join(a.Dir, "README.md"))
		switch {
		case dir == "" && seeded != nil:
			t.Errorf("the session directory %s holds no project: %v", a.Dir, seeded)
		case dir != "" && (a.Dir != dir || seeded == nil):
			t.Errorf("the given directory: Dir %s, seeded %v", a.Dir, seeded == nil)
		}
		a.Cleanup()
		if _, err := os.Stat(a.Home); err == nil {
			t.Errorf("HOME %s stays after Cleanup", a.Home)
		}
		if _, err := os.Stat(a.Dir); (err == nil) != (dir != "") {
			t.Errorf("the session directory %s (given: %v) after Cleanup: %v", a.Dir, dir != "", err)
		}
	}
}
