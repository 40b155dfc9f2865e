package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents/agentstest"
)

// codex (@openai/codex) in its default configuration but the base URL — one line of config.toml,
// openai_base_url — goes to the fake's WebSocket first, with its tools in an additional_tools
// item (a custom tool, exec, with a Lark grammar); scripted to call it, it runs the call and sends
// its output back as a continuation on the same connection. The recording holds every turn, and
// the audit reads it. Found as its profile finds it (LEMBAS_AGENTS, LEMBAS_CODEX or PATH); skipped
// when absent.
func TestCodexDefaultConfiguration(t *testing.T) {
	_, codex := agentstest.Installed(t, "codex")
	dir := t.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	for _, d := range []string{filepath.Join(home, ".codex"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sc := filepath.Join(dir, "codex.yaml")
	if err := os.WriteFile(sc, []byte(`
rules:
  - when: {tool_result: false, tool_offered: exec}
    times: 1
    reply:
      text: "I will add the file."
      tool_calls:
        - name: exec
          input: "await tools.apply_patch(\"*** Begin Patch\\n*** Add File: hello.txt\\n+Hello <world> & all\\n*** End Patch\\n\");"
  - when: {tool_result: true}
    reply: {text: "Added hello.txt."}
default: {}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LEMBAS_WORK", work)
	// codex's config is written once the fake's URL is known: only the base URL, nothing else.
	const launch = `printf 'openai_base_url = "%s"\n' "$OPENAI_BASE_URL" > "$CODEX_HOME/config.toml" && cd "$LEMBAS_WORK" && exec "$0" "$@"`
	rec, code, out, errs := recordRun(t, "--script", sc, "--model", "gpt-6.2-sol", "--timeout", "120s",
		"--env", "HOME="+home, "--env", "CODEX_HOME="+filepath.Join(home, ".codex"), "--",
		"sh", "-c", launch, codex, "exec", "--skip-git-repo-check", "Add a file hello.txt that greets the world.")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if !strings.Contains(out, "Added hello.txt.") {
		t.Errorf("codex printed %q, want the scripted answer after its call", out)
	}
	es, _ := readRecording(t, rec)
	var turns, continued int
	var called, answered bool
	for _, e := range es {
		if e.Exchange.Transport != "websocket" {
			continue
		}
		turns++
		if e.Prompt != nil {
			continued++
		}
		body := string(e.Body)
		answered = answered || strings.Contains(body, `"custom_tool_call_output"`)
		for _, c := range e.Exchange.Response.Chunks {
			called = called || strings.Contains(c.Data, `"type":"custom_tool_call"`) && strings.Contains(c.Data, `"namespace":"functions"`)
		}
	}
	if turns < 2 || !called || !answered || continued == 0 {
		t.Errorf("%d WebSocket turns, %d continuations; the exec call sent %v, its output back %v", turns, continued, called, answered)
	}
	if code, out, errs := runCLI(t, "audit", rec); code != 0 || !strings.Contains(out, "requests") {
		t.Errorf("audit: exit %d\n%s\n%s", code, out, errs)
	}
}
