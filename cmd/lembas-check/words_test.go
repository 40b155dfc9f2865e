package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// summaryWord matches a summary line: its first word, then a tab.
var summaryWord = regexp.MustCompile(`(?m)^(ok|FAIL|ERROR)\t`)

// wordCode is the exit status each first word goes with.
var wordCode = map[string]int{"ok": 0, "FAIL": 1, "ERROR": 2}

// Every command, through its failure modes: the exit status is the one expected, and every summary
// line's first word goes with it — `ok` (and ✅) only with exit 0, FAIL with 1, ERROR with 2.
func TestFirstWordAgreesWithExitStatus(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	clean, _ := os.ReadFile(recDir + "clean.jsonl")
	whole, _ := os.ReadFile(recDir + "date-in-system.jsonl")
	empty := write("empty.jsonl", strings.SplitAfter(string(clean), "\n")[0])
	damaged := write("damaged.jsonl", string(whole[:len(whole)-40]))
	saved := filepath.Join(dir, "jobs.json")
	if code, _, errs := runCLI(t, "run", "--area", "jobs", "--format", "json", "--out", saved); code != 0 {
		t.Fatalf("run: %d %s", code, errs)
	}
	b, _ := os.ReadFile(saved)
	changed := write("changed.json", strings.Replace(string(b), `"answer":{"text":"[`, `"answer":{"text":"(`, 1))
	bad := strings.Replace(goodJob, `"text": "hi"`, `"text": "bye"`, 1)
	failing := writeSuite(t, map[string]string{"jobs.json": `{"cases": [` + goodJob + `, ` + bad + `]}`})
	specDir := writeSuite(t, map[string]string{"VERSION": "3.1.0\n"})
	missing := filepath.Join(dir, "nonexistent", "out")
	srv := llamaFake(t)
	impl := selfAdapter(t)
	brokenImpl := "sh -c 'echo starting up; exit 3'"
	rec := filepath.Join(dir, "rec.jsonl")

	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"run", []string{"run", "--area", "jobs"}, 0},
		{"run markdown", []string{"run", "--area", "jobs", "--format", "markdown"}, 0},
		{"run a failure", []string{"run", "--no-embedded", "--suite", failing}, 1},
		{"run a failure, markdown", []string{"run", "--no-embedded", "--suite", failing, "--format", "markdown"}, 1},
		{"run nothing selected", []string{"run", "--run", "nomatch/*"}, 2},
		{"run empty --impl", []string{"run", "--impl", ""}, 2},
		{"run --out unwritable", []string{"run", "--area", "jobs", "--format", "junit", "--out", missing}, 2},
		{"run a hello that fails", []string{"run", "--impl", brokenImpl}, 2},
		{"list", []string{"list", "--area", "jobs"}, 0},
		{"list nothing selected", []string{"list", "--area", "jbos"}, 2},
		{"show", []string{"show", lineID(t, saved, 2)}, 0},
		{"show several", []string{"show", "jobs/"}, 2},
		{"show no such case", []string{"show", "jobs/zzzz"}, 2},
		{"spec", []string{"spec"}, 0},
		{"spec verify a copy that differs", []string{"spec", "verify", specDir}, 1},
		{"spec verify no folder", []string{"spec", "verify", missing}, 2},
		{"diff agree", []string{"diff", "--a", saved, "--b", "builtin", "--area", "jobs"}, 0},
		{"diff disagree", []string{"diff", "--a", saved, "--b", changed}, 1},
		{"diff disagree, markdown", []string{"diff", "--a", saved, "--b", changed, "--format", "markdown"}, 1},
		{"diff nothing selected", []string{"diff", "--a", saved, "--b", changed, "--run", "nomatch/*"}, 2},
		{"diff no such side", []string{"diff", "--b", filepath.Join(dir, "nosuch.json")}, 2},
		{"smoke", []string{"smoke", "--impl", impl}, 0},
		{"smoke a broken adapter", []string{"smoke", "--impl", brokenImpl}, 1},
		{"smoke no --impl", []string{"smoke"}, 2},
		{"adapter with an argument", []string{"adapter", "x"}, 2},
		{"audit", []string{"audit", recDir + "clean.jsonl"}, 0},
		{"audit markdown", []string{"audit", recDir + "clean.jsonl", "--format", "markdown"}, 0},
		{"audit a break", []string{"audit", recDir + "date-in-system.jsonl"}, 1},
		{"audit damaged", []string{"audit", damaged}, 2},
		{"audit damaged, markdown", []string{"audit", damaged, "--format", "markdown"}, 2},
		{"audit no request", []string{"audit", empty}, 2},
		{"audit --out unwritable", []string{"audit", recDir + "clean.jsonl", "--format", "json", "--out", missing}, 2},
		{"bench", []string{"bench", recDir + "clean.jsonl", "--sim"}, 0},
		{"bench no request", []string{"bench", empty, "--sim"}, 2},
		{"bench no request, markdown", []string{"bench", empty, "--sim", "--format", "markdown"}, 2},
		{"bench no server", []string{"bench", recDir + "clean.jsonl", "--server", "http://127.0.0.1:1"}, 2},
		{"bench damaged", []string{"bench", damaged, "--sim"}, 2},
		{"bench metrics unwritable", []string{"bench", recDir + "clean.jsonl", "--sim", "--metrics-textfile", missing}, 2},
		{"replay", []string{"replay", recDir + "clean.jsonl", "--server", srv.URL}, 0},
		{"replay no server", []string{"replay", recDir + "clean.jsonl", "--server", "http://127.0.0.1:1"}, 2},
		{"replay no request", []string{"replay", empty, "--server", srv.URL}, 2},
		{"export", []string{"export", recDir + "clean.jsonl", "--out", filepath.Join(dir, "trace.jsonl")}, 0},
		{"export no request", []string{"export", empty}, 2},
		{"export --out unwritable", []string{"export", recDir + "clean.jsonl", "--out", missing}, 2},
		{"record", append([]string{"record", "--out", rec, "--env", "LEMBAS_URL={url}", "--"}, agent(t, "chat")...), 0},
		{"record a command that fails", append([]string{"record", "--out", rec, "--"}, agent(t, "exit3")...), 1},
		{"record a command that never reaches the fake", []string{"record", "--out", rec, "--", "true"}, 2},
		{"record --out unwritable", []string{"record", "--out", missing, "--", "true"}, 2},
		{"fake a bad flag", []string{"fake", "--bogus"}, 2},
		{"live no agent", []string{"live"}, 2},
		{"live an empty agent", []string{"live", "--agent", ""}, 2},
		{"live an agent that cannot be started", []string{"live", "--agent", filepath.Join(dir, "nosuch-agent"), "--profile", "none", "--scenario", "two-prompts"}, 2},
		{"live an agent that cannot be started, markdown", []string{"live", "--agent", filepath.Join(dir, "nosuch-agent"), "--profile", "none", "--scenario", "two-prompts", "--format", "markdown"}, 2},
		{"version", []string{"version"}, 0},
		{"no such command", []string{"nope"}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The test binary plays the agent for record, lembas-check for the adapter.
			switch c.name {
			case "record":
				t.Setenv("LEMBAS_AGENT", "chat")
				t.Setenv("LEMBAS_CHECK_TEST_MAIN", "")
			case "record a command that fails":
				t.Setenv("LEMBAS_AGENT", "exit3")
				t.Setenv("LEMBAS_CHECK_TEST_MAIN", "")
			}
			code, out, errs := runCLI(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, c.code, out, errs)
			}
			for _, m := range summaryWord.FindAllStringSubmatch(out, -1) {
				if wordCode[m[1]] != code {
					t.Errorf("a summary line starts %q with exit %d:\n%s", m[1], code, out)
				}
			}
			for icon, want := range map[string]int{"✅": 0, "❌": 1, "⚠️": 2} {
				if strings.Contains(out, "## "+icon) && want != code {
					t.Errorf("markdown says %s with exit %d", icon, code)
				}
			}
			if code != 0 && strings.Contains(out, "✅") {
				t.Errorf("✅ with exit %d", code)
			}
		})
	}
}
