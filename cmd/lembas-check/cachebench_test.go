package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	srvusage "github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/format"
)

const recDir = "../../testdata/recordings/"

// llamaFake is the fake provider as a simulated llama-server (the llama.cpp dialect, one slot of
// the simulator, one fixed answer) serving the recordings' model.
func llamaFake(t *testing.T) *fakeprovider.Server {
	return fakeprovidertest.NewWith(t, fakeprovider.Config{Script: &script.Script{Name: "ok", Rules: []script.Rule{{Reply: script.Reply{Text: "ok"}}}},
		Models: []string{"qwen3-coder"}, Dialect: srvusage.LlamaCpp})
}

func TestAuditCommand(t *testing.T) {
	code, out, errs := runCLI(t, "audit", recDir+"clean.jsonl")
	if code != 0 || !strings.Contains(out, "ok\t"+recDir+"clean.jsonl\t6 requests, 1 conversation") {
		t.Errorf("clean: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "audit", recDir+"date-in-system.jsonl")
	if code != 1 || !strings.Contains(out, "--- BREAK: request 4 (line 8)") || !strings.Contains(out, "FAIL\t") {
		t.Errorf("date-in-system: exit %d\n%s", code, out)
	}
	// A break the project allows does not fail; an allowed kind of break never does.
	if code, out, _ = runCLI(t, "audit", "--allow", "system-prompt-changed", recDir+"date-in-system.jsonl"); code != 0 || !strings.Contains(out, "--- ALLOWED: request 4") {
		t.Errorf("--allow: exit %d\n%s", code, out)
	}
	if code, _, _ = runCLI(t, "audit", recDir+"compaction.jsonl"); code != 0 {
		t.Errorf("compaction: exit %d", code)
	}
	// The request log of the same session: the same finding.
	if code, out, _ = runCLI(t, "audit", recDir+"prune-results.requests.jsonl", "-v"); code != 1 || !strings.Contains(out, "$.messages[3].content") {
		t.Errorf("request log: exit %d\n%s", code, out)
	}
}

func TestAuditOutputs(t *testing.T) {
	dir := t.TempDir()
	svg, js := filepath.Join(dir, "a.svg"), filepath.Join(dir, "a.jsonl")
	code, out, errs := runCLI(t, "audit", recDir+"tool-churn.jsonl", "--format", "json", "--out", js, "--svg", svg)
	if code != 1 || !strings.HasPrefix(out, "FAIL\t") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	b, _ := os.ReadFile(js)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var q struct {
		Cause, Path, Detail string
	}
	if len(lines) != 8 || json.Unmarshal([]byte(lines[3]), &q) != nil || q.Cause != "tools changed" || q.Path != "$.tools[3]" {
		t.Errorf("json lines: %d, line 4 %+v", len(lines), q)
	}
	if s, err := os.ReadFile(svg); err != nil || !strings.HasPrefix(string(s), "<svg ") {
		t.Errorf("svg: %v", err)
	}
}

func TestAuditErrors(t *testing.T) {
	refuses(t, map[string]refusal{
		"no file":         {[]string{"audit", "nope.jsonl"}, "nope.jsonl"},
		"two files":       {[]string{"audit", "a", "b"}, "one recording"},
		"bad allow":       {[]string{"audit", "--allow", "everything", recDir + "clean.jsonl"}, `--allow "everything"`},
		"bad format":      {[]string{"audit", "--format", "pdf", recDir + "clean.jsonl"}, "want one of table, json, markdown, svg"},
		"not a recording": {[]string{"audit", "main.go"}, "main.go:line 1"},
	})
	// A recording cut mid-line: what came before is reported, the error names the line, exit 2.
	whole, _ := os.ReadFile(recDir + "date-in-system.jsonl")
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	os.WriteFile(cut, whole[:len(whole)-40], 0o644)
	lastLine := strings.Count(string(whole), "\n")
	code, out, errs := runCLI(t, "audit", cut)
	if code != 2 || !strings.Contains(errs, fmt.Sprintf("%s:line %d: the last line is cut short", cut, lastLine)) || !strings.Contains(out, "--- BREAK: request 4") {
		t.Errorf("cut: exit %d\n%s\n%s", code, out, errs)
	}
}

func TestBenchSim(t *testing.T) {
	dir := t.TempDir()
	prom := filepath.Join(dir, "bench.prom")
	code, out, errs := runCLI(t, "bench", recDir+"clean.jsonl", "--sim", "--variant", "date-in-system", "--metrics-textfile", prom)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"│ date-in-system:3 │", "ok\t" + recDir + "clean.jsonl\tdate-in-system:3: 66.1 % cached (baseline 78.0 % cached)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, want := range []string{`efficiency \(cached ÷ reusable\)\s*│\s*1\.00\s*│\s*1\.00`, `prediction exact\s*│\s*6 of 6\s*│\s*6 of 6`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(prom)
	if err != nil || !strings.Contains(string(b), `lembas_bench_cached_tokens_total{run="baseline"} 2059`) || !strings.Contains(string(b), `lembas_bench_cached_tokens_total{run="date-in-system:3"} 1784`) {
		t.Errorf("metrics textfile: %v\n%s", err, b)
	}
}

func TestBenchAndReplayAgainstAServer(t *testing.T) {
	srv := llamaFake(t)
	code, out, errs := runCLI(t, "bench", recDir+"prune-results.jsonl", "--server", srv.URL, "--format", "markdown")
	if code != 0 || !strings.Contains(out, "| cold cache | erased 1 slot(s) |") || !strings.Contains(out, "| efficiency (cached ÷ reusable) | 1.00 |") {
		t.Errorf("bench: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "replay", recDir+"interleaved.jsonl", "--server", srv.URL+"/v1", "--mode", "live")
	if code != 0 || !strings.Contains(out, "ok\t"+recDir+"interleaved.jsonl\tlive mode: 9 requests sent, 0 failed") || !strings.Contains(out, "llama.cpp") && !strings.Contains(out, "openai") {
		t.Errorf("replay: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "replay", recDir+"clean.jsonl", "--server", srv.URL, "--format", "json")
	var line struct {
		Seq   int
		Usage struct {
			CachedTokens *int `json:"cached_tokens"`
		}
	}
	first := strings.SplitN(out, "\n", 2)[0]
	if code != 0 || json.Unmarshal([]byte(first), &line) != nil || line.Seq != 1 || line.Usage.CachedTokens == nil {
		t.Errorf("replay json: exit %d, %q", code, first)
	}
	// JSON lines only (issue 21: it ended with the text line `ok …`), the last the footer.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("replay json: a line that is not JSON: %q", l)
		}
	}
	var foot format.Footer
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &foot); err != nil || foot.Type != "footer" || foot.Status != "ok" || foot.Failed || foot.Counts["requests"] != len(lines)-1 {
		t.Errorf("replay json footer %q (%v)", lines[len(lines)-1], err)
	}
	srv.Close()
	if code, _, errs = runCLI(t, "replay", recDir+"clean.jsonl", "--server", srv.URL); code != 2 || !strings.Contains(errs, "cannot be reached") {
		t.Errorf("server gone: exit %d, %s", code, errs)
	}
	for _, args := range [][]string{{"bench", recDir + "clean.jsonl"}, {"bench", recDir + "clean.jsonl", "--sim", "--variant", "daily"}, {"replay", recDir + "clean.jsonl"}} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestExportCommand(t *testing.T) {
	code, out, errs := runCLI(t, "export", recDir+"interleaved.jsonl")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var rec struct {
		Timestamp   int64 `json:"timestamp"`
		InputLength int   `json:"input_length"`
		HashIDs     []int `json:"hash_ids"`
	}
	if code != 0 || len(lines) != 9 || json.Unmarshal([]byte(lines[2]), &rec) != nil || rec.InputLength == 0 || len(rec.HashIDs) != 1 || !strings.Contains(errs, "exported 9 requests") {
		t.Errorf("exit %d, %d lines, %+v\n%s", code, len(lines), rec, errs)
	}
}

// replay --record writes what was sent and answered as a recording the audit reads again.
func TestReplayRecord(t *testing.T) {
	srv := llamaFake(t)
	rec := filepath.Join(t.TempDir(), "again.jsonl")
	if code, out, errs := runCLI(t, "replay", recDir+"prune-results.jsonl", "--server", srv.URL, "--record", rec); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ := runCLI(t, "audit", rec)
	if code != 1 || !strings.Contains(out, "--- BREAK: request 5") || !strings.Contains(out, "6 requests") {
		t.Errorf("audit of the replay's recording: exit %d\n%s", code, out)
	}
}

// bench --concurrency N replays N copies at once and tables the sessions; a folder of recordings
// is benched a session per recording; replay --cold empties the server's slots first.
func TestBenchConcurrencyAndReplayCold(t *testing.T) {
	code, out, errs := runCLI(t, "bench", recDir+"clean.jsonl", "--sim", "--cache-slots", "2", "--concurrency", "3")
	// (Exact agreement under contention is the bench package's synctest test: here the fake answers
	// in microseconds, faster than the bench sees its answers, and the orders may differ.)
	if code != 0 || !regexp.MustCompile(`│ baseline │ all\s*│\s*18 │`).MatchString(out) || !regexp.MustCompile(`prediction exact\s*│\s*\d+ of \d+`).MatchString(out) {
		t.Errorf("--concurrency: exit %d\n%s\n%s", code, out, errs)
	}
	dir := t.TempDir()
	for _, f := range []string{"clean.jsonl", "tool-churn.jsonl"} {
		b, _ := os.ReadFile(recDir + f)
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	code, out, errs = runCLI(t, "bench", dir, "--sim", "--concurrency", "2", "--format", "json")
	if code != 0 || strings.Count(out, `"type":"row"`) != 12 || !strings.Contains(out, `"session":2`) {
		t.Errorf("a folder: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "bench", recDir+"clean.jsonl", "--sim", "--concurrency", "0"); code != 2 || !strings.Contains(errs, "--concurrency 0") {
		t.Errorf("--concurrency 0: exit %d %s", code, errs)
	}
	srv := llamaFake(t)
	code, out, errs = runCLI(t, "replay", recDir+"clean.jsonl", "--server", srv.URL, "--cold")
	if code != 0 || !strings.Contains(out, "; cold cache: erased 1 slot(s)") || !strings.Contains(errs, "cold cache: erased 1 slot(s)") {
		t.Errorf("replay --cold: exit %d\n%s\n%s", code, out, errs)
	}
}
