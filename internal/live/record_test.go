//go:build unix

package live

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/format"
)

// Record's status: a command that fails is a failure found; one that sends no request, or
// cannot start, is a recording not made; one that asks the fake is ok.
func TestRecord(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl on PATH: it plays the command that asks the fake")
	}
	dir := t.TempDir()
	fake := fakeprovider.Settings{Usage: "openai", CacheSlots: 1}
	ask := `curl -s -o /dev/null "$OPENAI_BASE_URL/models"`
	for _, c := range []struct {
		argv []string
		want format.Status
		said string
	}{
		{[]string{"sh", "-c", ask}, format.OK, "lembas-check: recorded 1 exchanges"},
		{[]string{"sh", "-c", ask + "; exit 3"}, format.Failed, "sh exited with status 3"},
		{[]string{"true"}, format.Unfinished, "holds no request: did the agent reach the fake?"},
		{[]string{"/nonexistent/lembas-none"}, format.Unfinished, "starting /nonexistent/lembas-none: "},
	} {
		var stderr bytes.Buffer
		s := RecordSettings{Fake: fake, Out: filepath.Join(dir, "rec.jsonl"), Tool: "lembas-check test"}
		if got := Record(t.Context(), s, c.argv, &bytes.Buffer{}, &stderr); got != c.want || !strings.Contains(stderr.String(), c.said) {
			t.Errorf("%q: %v, want %v saying %q:\n%s", c.argv, got, c.want, c.said, stderr.String())
		}
	}
}

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

// The command a recording's header names is the one run: its model filled in before the fake
// starts (it named pi's `--model ""` before).
func TestOneShotArgvHasItsModel(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "m.json")
	body := `{"name":"m","bin":"sh","api":"chat completions","clock":"libfaketime","model":"m-1",` +
		`"oneshot":{"args":["-c","true","--model","{model}","{prompt}"]}}`
	if err := os.WriteFile(profile, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := NewOneShot(profile, "", "hi")
	if err != nil {
		t.Skip(err)
	}
	defer a.Cleanup()
	if got := strings.Join(a.Argv[1:], " "); got != "-c true --model m-1 hi" {
		t.Errorf("argv %q, want the model filled in", got)
	}
}

// A command that fails on a cassette's 400 is said by the cassette's miss first, then its exit:
// the exit alone named no cause.
func TestRecordSaysTheCassetteMissBeforeTheExit(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl on PATH: it plays the command that asks the fake")
	}
	dir := t.TempDir()
	ask := func(word string) []string {
		return []string{"sh", "-c", `curl -sf -o /dev/null -H 'Content-Type: application/json' ` +
			`-d '{"model":"m","messages":[{"role":"user","content":"` + word + `"}]}' "$OPENAI_BASE_URL/chat/completions"`}
	}
	first := filepath.Join(dir, "first.jsonl")
	s := RecordSettings{Fake: fakeprovider.Settings{Usage: "openai", CacheSlots: 1}, Out: first, Tool: "t"}
	if got := Record(t.Context(), s, ask("hello"), &bytes.Buffer{}, &bytes.Buffer{}); got != format.OK {
		t.Fatalf("the first recording: %v", got)
	}
	var stderr bytes.Buffer
	s.Fake.Cassette, s.Out = first, filepath.Join(dir, "second.jsonl")
	if got := Record(t.Context(), s, ask("goodbye"), &bytes.Buffer{}, &stderr); got != format.Failed {
		t.Fatalf("a request the cassette lacks: %v, want failed:\n%s", got, stderr.String())
	}
	out := stderr.String()
	miss, exit := strings.Index(out, "matched nothing in the cassette"), strings.Index(out, "exited with status")
	if miss < 0 || exit < 0 || miss > exit {
		t.Errorf("want the cassette's miss said, then the exit:\n%s", out)
	}
}
