package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// A real agent CLI from the npm registry, pi (@mariozechner/pi-coding-agent), recorded through
// the fake: it completes a tool call (reads README.md, sends its content back) and every request
// it sent is in the recording. The test installs nothing: it finds pi through LEMBAS_PI or PATH
// (.ci/run installs it with npm) and skips when it is absent.
func TestPiAgentRecorded(t *testing.T) {
	pi := os.Getenv("LEMBAS_PI")
	if pi == "" {
		var err error
		if pi, err = exec.LookPath("pi"); err != nil {
			t.Skip("pi is not installed: npm install --prefix DIR @mariozechner/pi-coding-agent, then LEMBAS_PI=DIR/node_modules/.bin/pi (or pi on PATH)")
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("pi needs node on PATH")
	}
	home, work := t.TempDir(), t.TempDir()
	marker := "lembas-check marker 7f3a: the README the agent read"
	if err := os.WriteFile(filepath.Join(work, "README.md"), []byte("# Test project\n\n"+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("PI_OFFLINE", "1")
	t.Setenv("PI_CODING_AGENT_DIR", "") // pi's own override of $HOME/.pi/agent: not wanted here
	t.Setenv("LEMBAS_WORK", work)
	// pi reads $HOME/.pi/agent/models.json; its baseUrl is taken literally (only apiKey and
	// headers may name an environment variable), so the file is written once the fake's URL is
	// known, from OPENAI_BASE_URL, by a shell in front of pi.
	const launch = `mkdir -p "$HOME/.pi/agent" && ` +
		`printf '{"providers":{"fake":{"baseUrl":"%s","api":"openai-completions","apiKey":"OPENAI_API_KEY","models":[{"id":"fake-model"}]}}}' "$OPENAI_BASE_URL" > "$HOME/.pi/agent/models.json" && ` +
		`cd "$LEMBAS_WORK" && exec "$0" "$@"`
	rec, code, out, errs := recordRun(t, "--timeout", "120s", "--",
		"sh", "-c", launch, pi, "--offline", "--provider", "fake", "--model", "fake-model", "-p", "Read README.md and tell me what it says.")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if strings.TrimSpace(out) != "done" {
		t.Errorf("pi printed %q, want the fake's answer, done", out)
	}

	// Counted at the server and read back from the file: the same.
	m := regexp.MustCompile(`recorded (\d+) exchanges \((\d+) requests served, (\d+) with errors\)`).FindStringSubmatch(errs)
	if m == nil {
		t.Fatalf("no summary in %s", errs)
	}
	exchanges, served, withErrors := atoi(m[1]), atoi(m[2]), atoi(m[3])
	es, _ := readRecording(t, rec)
	if exchanges != served || len(es) != served || withErrors != 0 {
		t.Errorf("%d requests served, %d exchanges said, %d read back, %d with errors", served, exchanges, len(es), withErrors)
	}

	// The tool call: the fake asked for a read of README.md by the name pi gave its tool, and pi's
	// next request carries the file's content as the tool result.
	var chats []replay.Entry
	for _, e := range es {
		if e.Exchange.Path == "/v1/chat/completions" {
			chats = append(chats, e)
		}
	}
	if len(chats) < 2 {
		t.Fatalf("%d chat requests", len(chats))
	}
	name, args := streamedCall(t, chats[0].Exchange.Response.Chunks)
	if name != "read" || args != `{"path":"README.md"}` {
		t.Errorf("the first reply calls %s(%s), want pi's read tool on README.md", name, args)
	}
	var second struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(chats[1].Body, &second); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, msg := range second.Messages {
		b, _ := json.Marshal(msg.Content)
		if msg.Role == "tool" && msg.ToolCallID == "call_1_0" && strings.Contains(string(b), "marker 7f3a") {
			found = true
		}
	}
	if !found {
		t.Errorf("pi's second request carries no tool result with the README's content: %s", chats[1].Body)
	}

	// pi's own session log, an account independent of the fake: one assistant message per model
	// call, so as many as the chat requests recorded.
	logs, _ := filepath.Glob(filepath.Join(home, ".pi", "agent", "sessions", "*", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("pi session logs: %v", logs)
	}
	f, err := os.Open(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	assistant, toolResults := 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Message struct {
				Role    string `json:"role"`
				IsError bool   `json:"isError"`
			} `json:"message"`
		}
		json.Unmarshal(sc.Bytes(), &line)
		switch {
		case line.Type == "message" && line.Message.Role == "assistant":
			assistant++
		case line.Type == "message" && line.Message.Role == "toolResult" && !line.Message.IsError:
			toolResults++
		}
	}
	if assistant != len(chats) || toolResults != 1 {
		t.Errorf("pi logged %d model replies and %d tool results; the recording holds %d chat requests", assistant, toolResults, len(chats))
	}
}

// streamedCall joins the first tool call of a recorded chat stream: its name and arguments.
func streamedCall(t *testing.T, chunks []replay.Chunk) (name, args string) {
	t.Helper()
	var all strings.Builder
	for _, c := range chunks {
		all.WriteString(c.Data)
	}
	for _, ev := range strings.Split(all.String(), "\n\n") {
		data, ok := strings.CutPrefix(strings.TrimSpace(ev), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct{ Name, Arguments string } `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("a recorded chunk is not JSON: %v: %s", err, data)
		}
		for _, ch := range c.Choices {
			for _, tc := range ch.Delta.ToolCalls {
				name += tc.Function.Name
				args += tc.Function.Arguments
			}
		}
	}
	return name, args
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
