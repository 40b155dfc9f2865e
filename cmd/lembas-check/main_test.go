package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// runCLI runs the command; its stdout with each summary line whole: one too wide for 100 columns
// goes on in lines that start with a tab (term.Line), joined here, so a test reads what it says
// (runCLIRaw keeps the layout).
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	code, out, errs := runCLIRaw(t, args...)
	return code, strings.ReplaceAll(out, "\n\t", "\t"), errs
}

// runCLIRaw runs the command, its output as written.
func runCLIRaw(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeSuite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const goodJob = `{"kind": "to_subagent", "text": "hi", "expect": {"text": "[The main agent sent this while you were working — take it into account from here:]\nhi"}}`

func TestRunJobsPasses(t *testing.T) {
	code, out, errs := runCLI(t, "run", "--area", "jobs")
	if code != 0 || !strings.Contains(out, "ok\t") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

// A malformed case file is an error verdict for its cases (exit 1), naming the file, the line,
// the case and the field, and the cases of the other files still run and pass.
func TestMalformedSuites(t *testing.T) {
	for name, c := range map[string]struct {
		file, body string
		want       []string
	}{
		"bad JSON":      {"jobs.json", "{\"cases\": [\n  {\"kind\": }\n]}", []string{"jobs.json:2:", "line 2"}},
		"unknown area":  {"jobz.json", `{"cases": []}`, []string{"jobz.json", `no area "jobz"`, "jobs"}},
		"unknown kind":  {"jobs.json", `{"cases": [` + goodJob + `, {"kind": "daemon", "id": "j", "expect": {"text": ""}}]}`, []string{"jobs.json:1: case 1: field kind", "daemon"}},
		"missing field": {"jobs.json", `{"cases": [{"kind": "command", "id": "j", "command": "x", "exit": 0, "unread": "", "expect": {"text": ""}}]}`, []string{"case 0: field seconds", "missing"}},
		"no expect":     {"jobs.json", `{"cases": [{"kind": "to_subagent", "text": "x"}]}`, []string{"case 0: field expect", "missing"}},
		"bad expect":    {"jobs.json", `{"cases": [{"kind": "to_subagent", "text": "x", "expect": {"txt": ""}}]}`, []string{"case 0: field expect.txt", "unknown field"}},
		"wrong type":    {"jobs.json", `{"cases": [{"kind": "to_subagent", "text": 5, "expect": {"text": ""}}]}`, []string{"case 0: field text", "want a string"}},
		"unknown field": {"jobs.json", `{"cases": [{"kind": "to_subagent", "text": "x", "colour": 1, "expect": {"text": ""}}]}`, []string{"case 0: field colour", "unknown field"}},
	} {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{c.file: c.body}
			if c.file != "jobs.json" {
				files["jobs.json"] = `{"cases": [` + goodJob + `]}`
			}
			dir := writeSuite(t, files)
			code, out, errs := runCLI(t, "run", "--no-embedded", "--suite", dir, "--format", "json")
			// A malformed case is not checked: a run of nothing else checked nothing (exit 2).
			want := 2
			if c.file != "jobs.json" || strings.Contains(c.body, goodJob) {
				want = 1
			}
			if code != want || !strings.Contains(out, `"verdict":"malformed"`) {
				t.Fatalf("exit %d, want %d and a malformed verdict\n%s%s", code, want, out, errs)
			}
			if c.file != "jobs.json" && !strings.Contains(out, `"verdict":"pass"`) {
				t.Errorf("the good file's case did not pass beside the broken one:\n%s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, strings.ReplaceAll(w, `"`, `\"`)) {
					t.Errorf("the report does not say %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestOwnSuiteAndExpect(t *testing.T) {
	// The same expectation for another input: a case that fails.
	bad := strings.Replace(goodJob, `"text": "hi"`, `"text": "bye"`, 1)
	dir := writeSuite(t, map[string]string{"jobs.json": `{"about": "x", "cases": [` + goodJob + `, ` + bad + `]}`})
	code, out, _ := runCLI(t, "run", "--no-embedded", "--suite", dir)
	if code != 1 || !strings.Contains(out, "--- FAIL: jobs/") || !strings.Contains(out, "-want +got") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "list", "--no-embedded", "--suite", dir, "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.Contains(lines[1], "bye") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	failing := lines[1][strings.Index(lines[1], "jobs/"):][:13]
	exp := filepath.Join(dir, "expect.txt")
	os.WriteFile(exp, []byte(failing+" says bye\n"), 0o644)
	code, out, errs := runCLI(t, "run", "--no-embedded", "--suite", dir, "--expect", exp, "-v")
	if code != 0 || !strings.Contains(out, "--- XFAIL: "+failing) {
		t.Fatalf("with --expect: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "show", "--no-embedded", "--suite", dir, failing[:9])
	if code != 0 || !strings.Contains(out, "bye") || !strings.Contains(out, "expect:") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	dup := writeSuite(t, map[string]string{"jobs.json": `{"cases": [` + goodJob + `]}`})
	other := writeSuite(t, map[string]string{"jobs.json": `{"cases": [` + strings.Replace(goodJob, `\nhi"}}`, `\nho"}}`, 1) + `]}`})
	if code, _, errs := runCLI(t, "run", "--no-embedded", "--suite", dup, "--suite", dup); code != 0 {
		t.Errorf("the same case in two suites: exit %d %s", code, errs)
	}
	if code, _, errs := runCLI(t, "run", "--no-embedded", "--suite", dup, "--suite", other); code != 2 || !strings.Contains(errs, "expects another answer") {
		t.Errorf("two suites disagreeing on a case: exit %d %s", code, errs)
	}
}

func TestFormatsAndOut(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"json", "junit", "markdown"} {
		out := filepath.Join(dir, "report."+f)
		code, stdout, errs := runCLI(t, "run", "--area", "jobs", "--format", f, "--out", out)
		if code != 0 {
			t.Fatalf("--format %s: exit %d %s", f, code, errs)
		}
		b, err := os.ReadFile(out)
		if err != nil || len(b) == 0 {
			t.Fatalf("--out %s: %v", out, err)
		}
		if !strings.Contains(stdout, "Area") {
			t.Errorf("--out %s: no summary table on stdout", f)
		}
	}
	if code, _, _ := runCLI(t, "run", "--format", "yaml", "--area", "jobs"); code != 2 {
		t.Errorf("an unknown format: exit %d, want 2", code)
	}
	if code, _, _ := runCLI(t, "run", "--bogus"); code != 2 {
		t.Errorf("an unknown flag: exit %d, want 2", code)
	}
	if code, _, _ := runCLI(t, "nope"); code != 2 {
		t.Errorf("an unknown command: exit %d, want 2", code)
	}
	if code, _, errs := runCLI(t, "run", "--area", "nope"); code != 2 || !strings.Contains(errs, "nope") {
		t.Errorf("an unknown area: exit %d %s", code, errs)
	}
}

func TestSpecCommand(t *testing.T) {
	code, out, _ := runCLI(t, "spec")
	if code != 0 || !strings.Contains(out, "harness spec 3.1.0") || !strings.Contains(out, "conformance/context.json") {
		t.Fatalf("spec: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "conformance"), 0o755)
	os.WriteFile(filepath.Join(dir, "VERSION"), []byte("3.1.0\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "conformance", "plan.json"), []byte("{}"), 0o644)
	code, out, _ = runCLI(t, "spec", "verify", dir)
	if code != 1 || !strings.Contains(out, "missing  conformance/jobs.json") || !strings.Contains(out, "extra    conformance/plan.json") {
		t.Fatalf("spec verify: exit %d\n%s", code, out)
	}
}

// notMade runs the command and wants a run not made (exit 2, no ok summary) whose stderr says
// each of want.
func notMade(t *testing.T, want []string, args ...string) {
	t.Helper()
	code, out, errs := runCLI(t, args...)
	if code != 2 || strings.Contains(out, "ok\t") {
		t.Fatalf("%q: exit %d, want 2 and no ok\n%s%s", args, code, out, errs)
	}
	for _, w := range want {
		if !strings.Contains(errs, w) {
			t.Errorf("%q: stderr %q does not say %q", args, errs, w)
		}
	}
}

// refusal is a command line lembas-check refuses to run, and what its stderr says.
type refusal struct {
	args []string
	want string
}

// refuses wants each command line, a subtest each, to be a run not made saying its want.
func refuses(t *testing.T, cases map[string]refusal) {
	t.Helper()
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { notMade(t, []string{c.want}, c.args...) })
	}
}

// run collects garbage less often than the default (runGCPercent), unless GOGC says otherwise.
func TestRunSetsGCPercent(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	if code, out, errs := runCLI(t, "run", "--area", "jobs"); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if got := debug.SetGCPercent(100); got != runGCPercent {
		t.Errorf("run left GOGC at %d, want %d", got, runGCPercent)
	}
	t.Setenv("GOGC", "100")
	runCLI(t, "run", "--area", "jobs")
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100 set, run made it %d", got)
	}
}
