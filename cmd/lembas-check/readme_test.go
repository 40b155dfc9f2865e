package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/format"
)

// README's Commands table names every command and, in its synopsis, every flag the command's
// flag set has (issue 27: it lacked --out of diff, audit, bench and live, --format of bench,
// replay and live, and a dozen more), but for aliases ("the same as --format json"). A new
// command or flag fails this test until README says it.
func TestREADMEListsEveryCommandAndFlag(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "| command | what it does |")
	if start < 0 {
		t.Fatal("README has no Commands table")
	}
	rows := readme[start:]
	rows = rows[:strings.Index(rows, "\n\n")]
	// A row's first cell is one or more synopses in backquotes, each starting with its command.
	said := map[string]string{}
	for _, row := range strings.Split(rows, "\n")[2:] {
		first := strings.SplitN(strings.ReplaceAll(row, `\|`, "/"), "|", 3)[1]
		for _, span := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(first, -1) {
			name, _, _ := strings.Cut(span[1], " ")
			said[name] += " " + span[1]
		}
	}
	flagName := regexp.MustCompile(`^  (--[a-z][a-z0-9-]*|-[a-z])\b`)
	for _, c := range program().Commands {
		synopsis, ok := said[c.Name()]
		if !ok {
			t.Errorf("README's Commands table has no row for %s", c.Name())
			continue
		}
		_, _, help := runCLI(t, c.Name(), "-h")
		lines := strings.Split(help, "\n")
		for i, l := range lines {
			m := flagName.FindStringSubmatch(l)
			if m == nil || i+1 < len(lines) && strings.Contains(lines[i+1], "the same as ") {
				continue
			}
			if !regexp.MustCompile(`(^|[\s\[/])` + regexp.QuoteMeta(m[1]) + `([\s\]=/]|$)`).MatchString(synopsis) {
				t.Errorf("README's synopsis of %s lacks %s: %s", c.Name(), m[1], synopsis)
			}
		}
	}
}

// Every command whose report --out writes says so in one wording (issue 27: four).
func TestOutIsWordedOneWay(t *testing.T) {
	want := strings.ReplaceAll(format.OutUsage, "`", "")
	for _, name := range []string{"run", "live", "diff", "audit", "bench", "diff-recordings"} {
		_, _, help := runCLI(t, name, "-h")
		_, after, ok := strings.Cut(help, "\n  --out FILE\n")
		if got, _, _ := strings.Cut(after, "\n"); !ok || strings.TrimSpace(got) != want {
			t.Errorf("%s --out: %q, want %q", name, strings.TrimSpace(got), want)
		}
	}
}

// docs/protocol.md's "real exchange" is real: its hello answer is what `lembas-check adapter`
// answers (issue 27: it left out the index area).
func TestProtocolDocsHelloIsTheAdapters(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "adapter")
	cmd.Env = append(os.Environ(), "LEMBAS_CHECK_TEST_MAIN=1")
	cmd.Stdin = strings.NewReader(`{"cmd":"hello","protocol":1,"harness_spec":"3.1.0"}` + "\n" + `{"cmd":"bye"}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	hello, _, _ := strings.Cut(string(out), "\n")
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "\n← "+hello+"\n") {
		t.Errorf("docs/protocol.md's transcript lacks the adapter's hello answer:\n← %s", hello)
	}
}
