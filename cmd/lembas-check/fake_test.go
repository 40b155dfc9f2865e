package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/syncbuf"
)

// `lembas-check fake` prints its URL first, serves until stopped, and with --record leaves a
// recording and a one-line summary.
func TestFakeCommand(t *testing.T) {
	dir := t.TempDir()
	scriptPath := filepath.Join(dir, "s.yaml")
	os.WriteFile(scriptPath, []byte("models: [m1]\nreplies:\n  - text: hello\n"), 0o644)
	rec := filepath.Join(dir, "rec.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr := &syncbuf.Buffer{} // read while the command writes it
	done := make(chan int, 1)
	go func() {
		done <- dispatch(ctx, []string{"fake", "--script", scriptPath, "--record", rec, "--usage", "llamacpp"}, pw, stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL line: %v; stderr %s", err, stderr.String())
	}
	url := strings.TrimSpace(line)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q is not a loopback URL", line)
	}
	go io.Copy(io.Discard, pr)
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m1","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"content":"hello"`) || !strings.Contains(string(b), `"timings":{"cache_n":0`) {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
	cancel()
	// A fake that does not stop hangs the test until go test's own timeout says so: a bound of
	// seconds here would be one on the machine's speed.
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "lembas-check: recorded 1 exchanges (1 requests served, 0 with errors) in "+rec) {
		t.Errorf("summary: %s", stderr.String())
	}
	es, h := readRecording(t, rec)
	if len(es) != 1 || h.Source != "fake" || h.Script != scriptPath || h.Tool == "" {
		t.Errorf("recording: %+v %+v", es, h)
	}
}

func TestFakeBadFlags(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("replies:\n  - text: a\n    colour: red\n"), 0o644)
	refuses(t, map[string]refusal{
		"usage":           {[]string{"fake", "--usage", "tgi"}, `--usage: no usage dialect "tgi"`},
		"script":          {[]string{"fake", "--script", bad}, `bad.yaml:3:5: replies[0]: unknown key "colour"`},
		"missing script":  {[]string{"fake", "--script", filepath.Join(dir, "none.yaml")}, "none.yaml: no such file"},
		"script+upstream": {[]string{"fake", "--script", bad, "--upstream", "http://x"}, "--script and --upstream: give one"},
		"slots":           {[]string{"fake", "--cache-slots", "0"}, "--cache-slots 0: want 1 or more"},
		"positional":      {[]string{"fake", "extra"}, `fake takes no arguments (got ["extra"])`},
		"listen":          {[]string{"fake", "--listen", "nonsense"}, "want host:port"},
		"upstream":        {[]string{"fake", "--upstream", "ftp://x"}, "want an http(s) base URL"},
		"record dir":      {[]string{"fake", "--record", filepath.Join(dir, "no", "such", "rec.jsonl")}, "--record:"},
		"unknown flag":    {[]string{"fake", "--nope"}, "no flag --nope"},
	})
}
