package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/report"
	"github.com/LLeMbas/lembas-check/runner"
)

// With LEMBAS_CHECK_TEST_MAIN=1 the test binary is lembas-check itself, so a test can start
// `<test binary> adapter` as an adapter without building the command first.
func TestMain(m *testing.M) {
	if os.Getenv("LEMBAS_CHECK_TEST_MAIN") == "1" {
		if fault := os.Getenv("LEMBAS_CHECK_TEST_FAULT"); fault != "" {
			os.Exit(serveFaulty(fault))
		}
		os.Exit(runMain(os.Args[1:]))
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir) // the binaries startup_test.go built
	}
	os.Exit(code)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// selfAdapter is the command line of `lembas-check adapter`, played by the test binary.
func selfAdapter(t *testing.T) string {
	t.Setenv("LEMBAS_CHECK_TEST_MAIN", "1")
	// A -race build would sleep a second as it exits, and read as an adapter slow to exit after bye.
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return shellQuote(os.Args[0]) + " adapter"
}

func loadReport(t *testing.T, path string) *runner.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := report.ReadJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rep
}

// The whole suite through `lembas-check adapter` on 2 processes gives the builtin's verdict,
// answer and message, case by case, and the same exit status.
func TestRunImplAdapterMatchesBuiltin(t *testing.T) {
	impl := selfAdapter(t)
	dir := t.TempDir()
	viaAdapter, builtin := filepath.Join(dir, "adapter.json"), filepath.Join(dir, "builtin.json")
	codeA, _, errA := runCLI(t, "run", "--impl", impl, "--jobs", "2", "--format", "json", "--out", viaAdapter)
	codeB, _, errB := runCLI(t, "run", "--format", "json", "--out", builtin)
	if codeA != codeB || codeA == 2 {
		t.Fatalf("exit %d through the adapter (%s), %d builtin (%s)", codeA, errA, codeB, errB)
	}
	a, b := loadReport(t, viaAdapter), loadReport(t, builtin)
	if a.Target.Kind != "adapter" || a.Target.Command != impl || b.Target.Kind != "builtin" {
		t.Errorf("targets %+v and %+v", a.Target, b.Target)
	}
	want := map[string]runner.Result{}
	for _, r := range b.Results {
		want[r.Case.ID] = r
	}
	if len(a.Results) != len(b.Results) || len(a.Results) < 100 {
		t.Fatalf("%d cases through the adapter, %d builtin", len(a.Results), len(b.Results))
	}
	for _, r := range a.Results {
		w, ok := want[r.Case.ID]
		if !ok || r.Verdict != w.Verdict || r.Message != w.Message || conformance.Diff(w.Answer, r.Answer) != "" && w.Answer != nil {
			t.Errorf("%s: adapter %s %q %s; builtin %s %q %s", r.Case.ID, r.Verdict, r.Message, r.Answer, w.Verdict, w.Message, w.Answer)
		}
	}
	// diff agrees: the saved builtin report against the adapter run live.
	code, out, errs := runCLI(t, "diff", "--a", builtin, "--b", impl)
	if code != 0 || !strings.Contains(out, "ok\t") || strings.Contains(out, "DISAGREE") {
		t.Errorf("diff: exit %d\n%s\n%s", code, out, errs)
	}
}

// run --impl: an adapter that never says hello is exit 2 with a message saying what to do; bad
// flags are exit 2.
func TestRunImplFaults(t *testing.T) {
	code, _, errs := runCLI(t, "run", "--area", "jobs", "--impl", "false")
	if code != 2 || !strings.Contains(errs, `adapter "false": exited (exit status 1) before answering hello`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	code, _, errs = runCLI(t, "run", "--area", "jobs", "--impl", "/nonexistent/adapter --x")
	if code != 2 || !strings.Contains(errs, "cannot be started") {
		t.Errorf("exit %d: %s", code, errs)
	}
	for _, args := range [][]string{
		{"--impl", "'unbalanced"},
		{"--impl", "  "},
		{"--jobs", "0"},
		{"--timeout", "-1s"},
	} {
		if code, _, errs := runCLI(t, append([]string{"run", "--area", "jobs"}, args...)...); code != 2 {
			t.Errorf("run %q: exit %d, want 2 (%s)", args, code, errs)
		}
	}
	if code, _, _ := runCLI(t, "adapter", "extra"); code != 2 {
		t.Errorf("adapter with an argument: exit %d", code)
	}
}

// lineID is the id of the case on line n of a saved JSON report.
func lineID(t *testing.T, path string, n int) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ ID string }
	if err := json.Unmarshal([]byte(strings.Split(string(b), "\n")[n-1]), &c); err != nil || c.ID == "" {
		t.Fatalf("line %d of %s: %v", n, path, err)
	}
	return c.ID
}

func TestDiffCommand(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "builtin.json")
	if code, _, errs := runCLI(t, "run", "--area", "jobs", "--format", "json", "--out", saved); code != 0 {
		t.Fatalf("run: %d %s", code, errs)
	}
	// The same report with one answer changed: b disagrees, and the spec backs a.
	b, _ := os.ReadFile(saved)
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"type":"case"`) {
			lines[i] = strings.Replace(l, `"answer":{"text":"[`, `"answer":{"text":"(`, 1)
			break
		}
	}
	changed := filepath.Join(dir, "changed.json")
	os.WriteFile(changed, []byte(strings.Join(lines, "\n")), 0o644)
	code, out, errs := runCLI(t, "diff", "--a", saved, "--b", changed)
	if code != 1 || !strings.Contains(out, "--- DISAGREE: jobs/") || !strings.Contains(out, " — the spec backs a\n") || !strings.Contains(out, "diff (-a +b)") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	html := filepath.Join(dir, "diff.html")
	code, out, _ = runCLI(t, "diff", "--b", changed, "--area", "jobs", "--format", "html", "--out", html)
	page, _ := os.ReadFile(html)
	if code != 1 || !bytes.HasPrefix(page, []byte("<!doctype html>")) || !strings.Contains(out, "Disagree") {
		t.Errorf("--format html: exit %d, %d bytes\n%s", code, len(page), out)
	}
	// --run filters a saved report as it chooses the cases of a live run, and one that keeps
	// nothing is exit 2 naming it (issue 10 saw "ok 0 cases", exit 0, for this and for --area jbos).
	code, out, errs = runCLI(t, "diff", "--a", saved, "--b", changed, "--run", "jobs/ffff*")
	if code != 2 || !strings.Contains(errs, "--run 'jobs/ffff*' matches none") || strings.Contains(out, "ok\t") {
		t.Errorf("--run: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "diff", "--a", saved, "--b", changed, "--area", "jbos")
	if code != 2 || !strings.Contains(errs, "--area jbos") || strings.Contains(out, "ok\t") {
		t.Errorf("--area jbos: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "diff", "--a", saved, "--b", changed, "--run", lineID(t, saved, 3))
	if code != 0 || !strings.Contains(out, "ok\t1 agree; 1 of 1 cases compared") {
		t.Errorf("--run one case: exit %d\n%s", code, out)
	}
	notReport := filepath.Join(dir, "notes.txt")
	os.WriteFile(notReport, []byte("hello\n"), 0o644)
	for _, args := range [][]string{
		{"diff"},
		{"diff", "--b", saved, "--format", "junit"},
		{"diff", "--b", notReport},
		{"diff", "--b", "false"},
	} {
		if code, _, errs := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errs)
		}
	}
	cut := filepath.Join(dir, "cut.json")
	os.WriteFile(cut, b[:bytes.LastIndex(b, []byte(`{"type":"footer"`))], 0o644)
	// A report cut at a line boundary is damaged, not a run of fewer cases (issue 21: exit 0,
	// "4 agree, 263 only in a", a stderr warning the only sign).
	code, out, errs = runCLI(t, "diff", "--a", saved, "--b", cut)
	if code != 2 || !strings.Contains(errs, "--b "+cut+": a damaged report: no footer line: the report was cut short after 10 cases") || strings.Contains(out, "ok") {
		t.Errorf("a report cut short: exit %d\n%s%s", code, out, errs)
	}
}

func TestSmokeCommand(t *testing.T) {
	code, out, errs := runCLI(t, "smoke", "--impl", selfAdapter(t))
	if code != 0 || !strings.Contains(out, "ok    hello                  lembas-check reference") || !strings.Contains(out, "ok    bye") || strings.Contains(out, "FAIL") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "smoke", "--impl", "sh -c 'echo starting up; echo oops >&2; exit 3'")
	if code != 1 || !strings.Contains(out, "FAIL  hello") || !strings.Contains(out, "Update the adapter: everything it prints on stdout must be protocol lines") {
		t.Errorf("exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "smoke"); code != 2 {
		t.Errorf("smoke without --impl: exit %d", code)
	}
}

// The example adapters pass the jobs and fs_access areas, skip every other, and agree with the
// builtin on both.
func TestExampleAdapters(t *testing.T) {
	for _, c := range []struct{ program, impl string }{
		{"python3", "python3 ../../adapters/python/example/adapter.py"},
		{"node", "node ../../adapters/typescript/example/adapter.mjs"},
	} {
		t.Run(c.program, func(t *testing.T) {
			if _, err := exec.LookPath(c.program); err != nil {
				t.Skipf("%s is not installed, so the example adapter for it cannot run", c.program)
			}
			began := time.Now()
			all, mapped, fsAccess := exampleCounts()
			out0 := filepath.Join(t.TempDir(), "r.json")
			code, out, errs := runCLI(t, "run", "--impl", c.impl, "--format", "json", "--out", out0)
			fsRow := regexp.MustCompile(fmt.Sprintf(`│ fs_access +│ +\d+ │ +%d │ +0 │ +0 │ +\d+ │`, fsAccess))
			if code != 0 || !strings.Contains(out, "│ jobs         │    10 │   10 │    0 │     0 │    0 │") ||
				!fsRow.MatchString(out) {
				t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
			}
			// Coverage a CI can hold (issue 21): an --expect that lists no skips fails the run,
			// naming the skips; the file --write-expect wrote from the run makes it pass.
			dir := t.TempDir()
			none, base := filepath.Join(dir, "none.txt"), filepath.Join(dir, "base.txt")
			if err := os.WriteFile(none, []byte("# no known failures, no known skips\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// Every embedded case but the jobs and fs_access cases the examples answer is skipped.
			counts := fmt.Sprintf("%d of %d checked, %d skipped", mapped, all, all-mapped)
			code, out, errs = runCLI(t, "run", "--impl", c.impl, "--expect", none, "--write-expect", base)
			if code != 1 || !strings.Contains(lastLine(out), "FAIL\t"+counts) ||
				!strings.Contains(errs, fmt.Sprintf("%d skipped cases it does not list fail the run: chunk/", all-mapped)) ||
				!strings.Contains(out, "--- UNLISTED SKIP: chunk_tokens/") {
				t.Fatalf("run --expect listing no skips: exit %d\n%s\n%s", code, lastLine(out), errs)
			}
			code, out, errs = runCLI(t, "run", "--impl", c.impl, "--expect", base)
			if code != 0 || !strings.HasPrefix(lastLine(out), "ok\t"+counts) || strings.Contains(errs, "--expect") {
				t.Fatalf("run --expect with the baseline --write-expect wrote: exit %d\n%s\n%s", code, lastLine(out), errs)
			}
			code, out, errs = runCLI(t, "diff", "--a", "builtin", "--b", c.impl)
			fsDiff := fmt.Sprintf(`│ ?fs_access +│ *\d+ ?│ *%d ?│ *0 ?│ *0 ?│`, fsAccess)
			agree := fmt.Sprintf("ok\t%d agree, %d only in a; %d of %d cases compared\n", mapped, all-mapped, mapped, all)
			if code != 0 || !regexp.MustCompile(`│ ?jobs +│ *10 ?│ *10 ?│ *0 ?│ *0 ?│`).MatchString(out) ||
				!regexp.MustCompile(fsDiff).MatchString(out) || !strings.HasPrefix(out, agree) {
				t.Fatalf("diff: exit %d\n%s\n%s", code, out, errs)
			}
			code, out, _ = runCLI(t, "smoke", "--impl", c.impl)
			if code != 0 || !strings.Contains(out, "answered as the spec expects") {
				t.Fatalf("smoke: exit %d\n%s", code, out)
			}
			t.Logf("run, diff and smoke took %s", time.Since(began))
		})
	}
}

// exampleCounts are the embedded cases, and those the kits' examples answer: every jobs case and
// each fs_access case of an op the example maps (those alone as the third); the rest they skip.
func exampleCounts() (all, mapped, fsAccess int) {
	ops := map[string]bool{"level": true, "list": true, "read": true, "write": true, "mkdir": true, "rm": true,
		"commit": true}
	for _, c := range conformance.Embedded() {
		var op struct{ Op string }
		switch {
		case c.Area == "jobs":
			mapped++
		case c.Area == "fs_access" && json.Unmarshal(c.Input, &op) == nil && ops[op.Op]:
			mapped++
			fsAccess++
		}
		all++
	}
	return all, mapped, fsAccess
}
