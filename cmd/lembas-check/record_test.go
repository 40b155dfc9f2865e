package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// TestHelperAgent is not a test: run by `record` as its command (LEMBAS_AGENT set), it plays an
// agent against OPENAI_BASE_URL with the official SDK, which reads OPENAI_BASE_URL and
// OPENAI_API_KEY as any agent would.
func TestHelperAgent(t *testing.T) {
	mode := os.Getenv("LEMBAS_AGENT")
	if mode == "" {
		t.Skip("a helper process for the record tests")
	}
	ready := func() {
		if p := os.Getenv("LEMBAS_AGENT_READY"); p != "" {
			os.WriteFile(p, []byte("ready"), 0o644)
		}
	}
	switch mode {
	case "exit3":
		os.Exit(3)
	case "sleep":
		ready()
		time.Sleep(60 * time.Second)
		os.Exit(0)
	case "stubborn":
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
		ready()
		time.Sleep(60 * time.Second)
		os.Exit(0)
	case "chat":
		os.Exit(helperChat())
	case "unknown-tool":
		os.Exit(helperUnknownTool())
	case "unknown-parameter":
		// A request the API would refuse: a parameter it does not know.
		client := openai.NewClient()
		_, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: "fake-model", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(os.Args[len(os.Args)-1])},
		}, option.WithJSONSet("frobnicate", 1))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	case "forker", "forker-stay":
		// A child in its group, and one that detaches (setsid) and ignores TERM.
		helperChild("sleep", false, nil)
		helperChild("stubborn", true, nil)
		ready()
		if mode == "forker-stay" {
			signal.Ignore(syscall.SIGTERM)
			time.Sleep(60 * time.Second)
		}
		os.Exit(0)
	case "cleared":
		// A child that detaches and clears its environment, so no mark says whose it is.
		helperChild("stubborn", true, []string{"LEMBAS_AGENT=stubborn"})
		os.Exit(0)
	}
	fmt.Fprintf(os.Stderr, "unknown LEMBAS_AGENT %q\n", mode)
	os.Exit(9)
}

func helperChat() int {
	ctx := context.Background()
	if u := os.Getenv("LEMBAS_URL"); u != "" {
		resp, err := http.Get(u + "/.well-known/lembas.json")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 5
		}
		var d struct{ Protocol int }
		json.NewDecoder(resp.Body).Decode(&d)
		resp.Body.Close()
		if d.Protocol != 3 {
			return 6
		}
	}
	client := openai.NewClient()
	p := openai.ChatCompletionNewParams{
		Model:    "fake-model",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("read the readme")},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "read_file",
			Parameters: shared.FunctionParameters{"type": "object", "properties": map[string]any{"file_path": map[string]any{"type": "string"}}}})},
	}
	stream := client.Chat.Completions.NewStreaming(ctx, p)
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil || len(acc.Choices) == 0 || len(acc.Choices[0].Message.ToolCalls) != 1 {
		fmt.Fprintln(os.Stderr, "first turn:", err)
		return 7
	}
	call := acc.Choices[0].Message.ToolCalls[0]
	p.Messages = append(p.Messages, acc.Choices[0].Message.ToParam(), openai.ToolMessage("# contents of "+call.Function.Arguments, call.ID))
	last, err := client.Chat.Completions.New(ctx, p)
	if err != nil {
		fmt.Fprintln(os.Stderr, "second turn:", err)
		return 8
	}
	fmt.Println("agent:", last.Choices[0].Message.Content)
	return 0
}

// helperUnknownTool offers only a tool no policy knows, and takes the answer it gets.
func helperUnknownTool() int {
	client := openai.NewClient()
	_, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "fake-model",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(strings.Join(os.Args[len(os.Args)-1:], " "))},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "frobnicate",
			Parameters: shared.FunctionParameters{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "integer"}}}})},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 7
	}
	return 0
}

// helperChild starts the helper agent in mode, detached with setsid(1) if asked, and waits until
// it is ready. Its argv carries the parent's marker argument, for leftBehind to find it by.
func helperChild(mode string, detach bool, env []string) {
	dir, err := os.MkdirTemp("", "lembas-helper")
	if err != nil {
		os.Exit(10)
	}
	defer os.RemoveAll(dir)
	ready := filepath.Join(dir, "ready")
	argv := []string{os.Args[0], "-test.run=^TestHelperAgent$", os.Args[len(os.Args)-1]}
	if detach {
		argv = append([]string{"setsid"}, argv...)
	}
	c := exec.Command(argv[0], argv[1:]...)
	c.Env = append(env, "LEMBAS_AGENT="+mode, "LEMBAS_AGENT_READY="+ready)
	if env == nil {
		c.Env = append(os.Environ(), c.Env...)
	}
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(11)
	}
	// A poll, not a bound: go test's -timeout catches a helper that never gets ready.
	for {
		if _, err := os.Stat(ready); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// agent is the argv that runs the helper agent in a mode.
func agent(t *testing.T, mode string) []string {
	t.Setenv("LEMBAS_AGENT", mode)
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return []string{os.Args[0], "-test.run=^TestHelperAgent$"}
}

// helperProfile writes name.json, in the test's temporary directory, the profile of a one-shot
// agent whose program bin is the helper agent in mode (os.Args[0]; anything else for one not
// there): its path.
func helperProfile(t *testing.T, name, bin, mode string) string {
	t.Helper()
	agent(t, mode) // GORACE for the helper
	p := filepath.Join(t.TempDir(), name+".json")
	body := fmt.Sprintf(`{"name": %q, "bin": %q, "api": "chat completions", "clock": "libfaketime",
		"env": {"LEMBAS_AGENT": %q, "LEMBAS_CHECK_TEST_MAIN": ""},
		"oneshot": {"args": ["-test.run=^TestHelperAgent$", "{prompt}"], "continue": ["-test.run=^TestHelperAgent$", "{prompt}"]},
		"tools": {"paths": "relative"}}`, name, bin, mode)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// recordRun runs `record --out REC` with args (its other flags, then -- and the command), REC a
// new recording in the test's temporary directory: REC, the exit status and what it printed.
func recordRun(t *testing.T, args ...string) (rec string, code int, out, errs string) {
	t.Helper()
	rec = filepath.Join(t.TempDir(), "rec.jsonl")
	code, out, errs = runCLI(t, append([]string{"record", "--out", rec}, args...)...)
	return rec, code, out, errs
}

// readRecording reads a recording back, its exchanges and header; one not whole fails the test.
func readRecording(t *testing.T, rec string) ([]replay.Entry, replay.Header) {
	t.Helper()
	es, r, err := replay.ReadAll(rec)
	if err != nil {
		t.Fatalf("the recording is not whole: %v", err)
	}
	return es, r.Header
}

// keptOut checks that a secret the command or the caller had (what names it) is nowhere in the
// recording's bytes.
func keptOut(t *testing.T, rec, secret, what string) {
	t.Helper()
	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(secret)) {
		t.Errorf("%s reached the recording", what)
	}
}

func TestRecordAgent(t *testing.T) {
	argv := agent(t, "chat")
	rec, code, out, errs := recordRun(t, append([]string{"--env", "LEMBAS_URL={url}", "--timeout", "60s", "--"}, argv...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "agent: done") {
		t.Errorf("the agent's output did not pass through: %q", out)
	}
	if !strings.Contains(errs, "lembas-check: recorded 3 exchanges (3 requests served, 0 with errors) in "+rec) {
		t.Errorf("summary: %s", errs)
	}
	es, h := readRecording(t, rec)
	if h.Source != "fake" || strings.Join(h.Command, " ") != strings.Join(argv, " ") {
		t.Errorf("header %+v", h)
	}
	// A stream's line may be written after the next request's; the reader gives them by seq.
	var paths []string
	for _, e := range es {
		paths = append(paths, e.Exchange.Path)
	}
	if strings.Join(paths, " ") != "/.well-known/lembas.json /v1/chat/completions /v1/chat/completions" {
		t.Errorf("paths %v", paths)
	}
	if !bytes.Contains(es[2].Body, []byte(`"content":"# contents of {\"file_path\":\"README.md\"}"`)) {
		t.Errorf("the tool result is not in the second request: %s", es[2].Body)
	}
	keptOut(t, rec, "lembas-check-fake", "the API key the command was given")
}

// With --upstream, a recording proxy stands in front of a real server; the caller's API key
// goes to it and never into the file.
func TestRecordUpstream(t *testing.T) {
	up := fakeprovidertest.New(t, nil)
	t.Setenv("OPENAI_API_KEY", "sk-upstream-secret")
	rec, code, _, errs := recordRun(t, append([]string{"--upstream", up.BaseURL(), "--"}, agent(t, "chat")...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	es, h := readRecording(t, rec)
	if len(es) != 2 || up.Requests() != 2 || h.Source != "proxy" || h.Upstream != up.BaseURL() {
		t.Fatalf("%d exchanges (upstream saw %d), header %+v", len(es), up.Requests(), h)
	}
	keptOut(t, rec, "sk-upstream-secret", "the upstream key")
}

// A command that fails, or runs past --timeout, is a failure found (exit 1) saying which, and
// what was recorded is left whole.
func TestRecordCommandFails(t *testing.T) {
	for _, c := range []struct {
		mode  string
		flags []string
		said  []string
	}{
		{"exit3", nil, []string{"exited with status 3", "recorded 0 exchanges"}},
		{"sleep", []string{"--timeout", "300ms"}, []string{"ran past --timeout 300ms and was stopped"}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			rec, code, _, errs := recordRun(t, append(append(c.flags, "--"), agent(t, c.mode)...)...)
			if code != 1 {
				t.Errorf("exit %d, want 1: %s", code, errs)
			}
			for _, said := range c.said {
				if !strings.Contains(errs, said) {
					t.Errorf("stderr does not say %q: %s", said, errs)
				}
			}
			readRecording(t, rec) // left whole
		})
	}
}

// marked adds a marker argument, unique to the test, that the helper's children carry too.
func marked(t *testing.T, argv []string) []string {
	return append(argv, fmt.Sprintf("lembas-marker-%d-%s", os.Getpid(), t.Name()))
}

// noneLeft checks that no process carrying argv's marker runs: a test that counts what record
// left behind, on the machine (Linux, where /proc tells).
func noneLeft(t *testing.T, argv []string) {
	t.Helper()
	marker := argv[len(argv)-1]
	for _, pid := range running(t, marker) {
		b, _ := os.ReadFile("/proc/" + pid + "/cmdline")
		t.Errorf("pid %s still runs: %s", pid, strings.ReplaceAll(string(b), "\x00", " "))
		if n, err := strconv.Atoi(pid); err == nil {
			if p, err := os.FindProcess(n); err == nil {
				p.Kill()
			}
		}
	}
}

// running is every live process (not a zombie) with marker in its command line.
func running(t *testing.T, marker string) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("counting processes reads /proc")
	}
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Contains(cmd, []byte(marker)) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := bytes.LastIndexByte(st, ')'); i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
				continue
			}
		}
		out = append(out, e.Name())
	}
	return out
}

func needSetsid(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) (util-linux) is not on PATH")
	}
}

// What a command leaves is ended, and named, and nothing of it runs after record: a command that
// ignores SIGTERM is killed after the grace period; one that exits leaving a child in its group
// and a detached one that ignores TERM; one stopped by --timeout while its children run (it and
// the detached child ignore TERM); a descendant that detaches and clears its environment (Linux:
// it comes back to lembas-check, a child subreaper).
func TestRecordEndsWhatTheCommandLeft(t *testing.T) {
	for _, c := range []struct {
		mode          string
		setsid, ready bool
		grace         time.Duration
		timeout       string
		code          int // -1: any
		said          string
		markers       int // how often stderr names the marker (0: not counted)
	}{
		{"stubborn", false, true, 200 * time.Millisecond, "500ms", 1, "ran past --timeout", 0},
		{"forker", true, false, 100 * time.Millisecond, "", -1, "lembas-check: ended 2 processes the command left behind: ", 2},
		{"forker-stay", true, true, 100 * time.Millisecond, "1s", 1, "ran past --timeout 1s", 0},
		{"cleared", true, false, 100 * time.Millisecond, "", -1, "lembas-check: ended 1 process the command left behind: ", 0},
	} {
		t.Run(c.mode, func(t *testing.T) {
			if c.setsid {
				needSetsid(t)
			}
			defer func(g time.Duration) { killGrace = g }(killGrace)
			killGrace = c.grace
			var args []string
			if c.ready {
				t.Setenv("LEMBAS_AGENT_READY", filepath.Join(t.TempDir(), "ready"))
			}
			if c.timeout != "" {
				args = append(args, "--timeout", c.timeout)
			}
			argv := marked(t, agent(t, c.mode))
			_, code, _, errs := recordRun(t, append(append(args, "--"), argv...)...)
			if c.code >= 0 && code != c.code || !strings.Contains(errs, c.said) || c.markers > 0 && strings.Count(errs, argv[len(argv)-1]) != c.markers {
				t.Errorf("exit %d, want %d saying %q:\n%s", code, c.code, c.said, errs)
			}
			noneLeft(t, argv)
		})
	}
}

// The case: record --timeout 2s -- sh -c 'sleep 25 & sleep 26' left both sleeps running.
func TestRecordTimeoutEndsShellJobs(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	marker := fmt.Sprintf("%d", 250000+os.Getpid()%10000)
	_, code, _, errs := recordRun(t, "--timeout", "200ms", "--", "sh", "-c", "sleep "+marker+"1 & sleep "+marker+"2")
	if code != 1 || !strings.Contains(errs, "ran past --timeout") {
		t.Errorf("exit %d: %s", code, errs)
	}
	for _, m := range []string{marker + "1", marker + "2"} {
		if pids := running(t, "sleep\x00"+m); len(pids) != 0 {
			t.Errorf("sleep %s still runs (pids %v)", m, pids)
		}
	}
}

// SIGINT sent to lembas-check goes on to the command.
func TestRecordForwardsSignal(t *testing.T) {
	ready := filepath.Join(t.TempDir(), "ready")
	t.Setenv("LEMBAS_AGENT_READY", ready)
	go func() {
		for { // a poll, not a bound: go test's -timeout catches an agent that never gets ready
			if _, err := os.Stat(ready); err == nil {
				if p, err := os.FindProcess(os.Getpid()); err == nil {
					p.Signal(os.Interrupt)
				}
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	_, code, _, errs := recordRun(t, append([]string{"--"}, agent(t, "sleep")...)...)
	if code != 1 || !strings.Contains(errs, "was stopped by interrupt (forwarded)") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestRecordBadUse(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.jsonl")
	refuses(t, map[string]refusal{
		"no command":   {[]string{"record", "--out", rec}, "record: no command; give one after --"},
		"no --":        {[]string{"record", "--out", rec, "pi"}, "record: put the command after --"},
		"no out":       {[]string{"record", "--", "true"}, "record: --out FILE is required"},
		"bad env":      {[]string{"record", "--out", rec, "--env", "NOEQUALS", "--", "true"}, `--env "NOEQUALS": want NAME=VALUE`},
		"not found":    {[]string{"record", "--out", rec, "--", filepath.Join(dir, "no-such-agent")}, "starting " + filepath.Join(dir, "no-such-agent")},
		"both sources": {[]string{"record", "--out", rec, "--script", "a.yaml", "--upstream", "http://x", "--", "true"}, "give one"},
	})
}

// record --agent never ends ok on an agent it did not drive (issue 12): a program that cannot be
// found is exit 2, and one whose tools the fake's policy can use none of is exit 1, saying so
// (before, the warning scrolled past and record said ok).
func TestRecordAgentNotDriven(t *testing.T) {
	_, code, _, errs := recordRun(t, "--agent", helperProfile(t, "frob", os.Args[0], "unknown-tool"), "--timeout", "60s", "--", "Read README.md")
	if code != 1 || !strings.Contains(errs, "can use none of them") || !strings.Contains(errs, "could not drive frob through its tools") {
		t.Errorf("an agent the policy cannot drive: exit %d\n%s", code, errs)
	}
	_, code, _, errs = recordRun(t, "--agent", helperProfile(t, "gone", filepath.Join(t.TempDir(), "nonexistent"), "unknown-tool"), "--", "Read README.md")
	if code != 2 || !strings.Contains(errs, "gone is not installed") {
		t.Errorf("an agent not installed: exit %d\n%s", code, errs)
	}
}
