package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/runner"
)

// lembas-check alone prints its usage and exits 2, as `go` does; help prints it and exits 0.
func TestNoCommandPrintsUsage(t *testing.T) {
	code, out, errs := runCLI(t)
	if code != 2 || out != "" || !strings.HasPrefix(errs, "usage: lembas-check <command> [flags]\n") || !strings.Contains(errs, "  audit REC [flags]\n") {
		t.Errorf("exit %d\nstdout %q\nstderr %s", code, out, errs)
	}
	if code, out, _ := runCLI(t, "help"); code != 0 || !strings.HasPrefix(out, "usage: lembas-check") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

// `--version` and `version` say the version the build carries, and the spec version.
func TestVersion(t *testing.T) {
	want := "lembas-check " + runner.ToolVersion + " (harness spec 3.1.0)\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		if code, out, errs := runCLI(t, args...); code != 0 || out != want {
			t.Errorf("%q: exit %d, %q, want %q (%s)", args, code, out, want, errs)
		}
	}
	if code, _, _ := runCLI(t, "version", "extra"); code != 2 {
		t.Errorf("version extra: exit %d", code)
	}
}

var flagLine = regexp.MustCompile(`^  (--[a-z][a-z0-9-]*|-[a-z])( \S.*)?$`)

// Every command's -h starts with its synopsis, positional arguments named, then its help, then
// its flags each as --name VALUE (a single-letter switch as -v), exit 0.
func TestHelpOfEveryCommand(t *testing.T) {
	for _, c := range program().Commands {
		t.Run(c.Name(), func(t *testing.T) {
			code, out, errs := runCLI(t, c.Name(), "-h")
			if code != 0 || out != "" {
				t.Fatalf("exit %d, stdout %q", code, out)
			}
			lines := strings.Split(errs, "\n")
			if lines[0] != "usage: lembas-check "+c.Synopsis || lines[2] != c.Help {
				t.Errorf("-h starts %q", lines[:3])
			}
			flags := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "  -") {
					flags++
					if !flagLine.MatchString(l) || strings.HasSuffix(l, " VALUE") {
						t.Errorf("a flag line %q: want --name and a named value", l)
					}
				}
			}
			if flags == 0 && c.Name() != "adapter" && c.Name() != "version" && c.Name() != "schema" {
				t.Errorf("no flags listed:\n%s", errs)
			}
		})
	}
	if _, _, errs := runCLI(t, "audit", "-h"); !strings.Contains(errs, "  --format FORMAT\n") || !strings.Contains(errs, "  -v\n") {
		t.Errorf("audit -h:\n%s", errs)
	}
	// --usage's help names every dialect the fake takes (it named four of five, from a list of
	// its own).
	_, _, errs := runCLI(t, "fake", "-h")
	for _, d := range usage.Dialects {
		if !strings.Contains(errs, string(d)) {
			t.Errorf("fake -h names no dialect %s:\n%s", d, errs)
		}
	}
}

// A bad flag value says what it wants, naming the flag with --, and exits 2; one name per idea.
func TestFlagMessages(t *testing.T) {
	refuses(t, map[string]refusal{
		"run --timeout":    {[]string{"run", "--timeout", "5"}, "lembas-check run: --timeout 5: want a duration, such as 5s"},
		"bench --timeout":  {[]string{"bench", "x.jsonl", "--sim", "--timeout", "ten"}, "--timeout ten: want a duration, such as 5s"},
		"run --jobs":       {[]string{"run", "--jobs", "two"}, "--jobs two: want a whole number"},
		"run unknown flag": {[]string{"run", "--bogus"}, "no flag --bogus"},
		"diff --b":         {[]string{"diff", "--b", "nosuch.json"}, "--b nosuch.json: no such file, and not a command on PATH"},
		"run --expect":     {[]string{"run", "--expect", "nosuch.txt"}, "--expect nosuch.txt: no such file"},
		"fake --script":    {[]string{"fake", "--script", "nosuch.yaml"}, "--script nosuch.yaml: no such file"},
		"run --suite":      {[]string{"run", "--suite", "nosuch"}, "--suite nosuch"},
		"list --format":    {[]string{"list", "--format", "yaml"}, `--format "yaml": want one of table, json`},
	})
	// --format json everywhere, --json kept; --cache-slots in bench as in fake and record.
	for _, args := range [][]string{{"list", "--area", "jobs", "--format", "json"}, {"list", "--area", "jobs", "--json"}} {
		if code, out, errs := runCLI(t, args...); code != 0 || !strings.HasPrefix(out, `{"id":"jobs/`) {
			t.Errorf("%q: exit %d %s%s", args, code, out[:min(len(out), 80)], errs)
		}
	}
	if code, out, _ := runCLI(t, "spec", "--format", "json"); code != 0 || !strings.Contains(out, `"version": "3.1.0"`) {
		t.Errorf("spec --format json: exit %d", code)
	}
	rec := filepath.Join("..", "..", "testdata", "recordings", "clean.jsonl")
	if code, out, errs := runCLI(t, "bench", rec, "--sim", "--cache-slots", "2"); code != 0 || !strings.Contains(out, "2 slot(s)") {
		t.Errorf("bench --cache-slots: exit %d\n%s%s", code, out, errs)
	}
}
