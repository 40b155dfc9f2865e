package fsaccess_test

import (
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// On a mount the forge decides first: its account's level caps the grant there, never raises it,
// and nothing outside the mount.
func TestForgeCapsTheMount(t *testing.T) {
	v, err := fsaccess.New(fsaccess.Config{
		Tree:   []string{"/repo/a.ts", "/b.md", "/up/c.md"},
		Mounts: []string{"/repo", "/up"},
		Grants: map[string]fsaccess.Level{"/": fsaccess.Commit, "/up": fsaccess.RO},
		Forge:  map[string]fsaccess.Level{"/repo": fsaccess.Stage, "/up": fsaccess.Commit},
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fsaccess.Level{"/repo/a.ts": fsaccess.Stage, "/b.md": fsaccess.Commit,
		"/up/c.md": fsaccess.RO} {
		if got := v.Level(p); got != want {
			t.Errorf("Level(%s) = %v, want %v", p, got, want)
		}
	}
	_, err = fsaccess.New(fsaccess.Config{Tree: []string{"/d/a"}, Forge: map[string]fsaccess.Level{"/d": fsaccess.RO}})
	if err == nil {
		t.Error("a forge level on a directory that is not a mount was taken")
	}
}
