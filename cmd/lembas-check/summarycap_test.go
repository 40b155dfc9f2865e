package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// An adapter wrong on every case, with --features, made a 1.34 MB markdown summary, which GitHub
// drops (over 1 MiB). Run's and diff's markdown stay under the budget, keep the counts and the
// first failures whole, and say how many more there are and where.
func TestSummaryUnderBudget(t *testing.T) {
	t.Setenv("LEMBAS_CHECK_FULL_REPORT", "lembas-check.xml")
	wrong := faultyAdapter(t, "all-wrong")
	dir := t.TempDir()
	more := regexp.MustCompile(`\*\*(\d+) more failures not shown: .* all of them are in ` + "`lembas-check.xml`" + `\.\*\*\n$`)
	for _, args := range [][]string{
		{"run", "--impl", wrong, "--features"},
		{"diff", "--b", wrong}, // diff reads the suites only
	} {
		path := filepath.Join(dir, args[0]+".md")
		code, _, errs := runCLI(t, append(args, "--format", "markdown", "--out", path)...)
		b, _ := os.ReadFile(path)
		md := string(b)
		if code != 1 || len(b) == 0 || len(b) > 480<<10 {
			t.Fatalf("%s: exit %d, %d bytes of markdown (want exit 1, at most 480 KiB)\n%s", args[0], code, len(b), errs)
		}
		m := more.FindStringSubmatch(md)
		if m == nil {
			t.Fatalf("%s: the summary does not end saying how many failures are not shown:\n…%s", args[0], md[max(0, len(md)-400):])
		}
		hidden, _ := strconv.Atoi(m[1])
		shown := strings.Count(md, "\n<details><summary>")
		if hidden == 0 || shown == 0 || strings.Count(md, "</details>") != shown {
			t.Errorf("%s: %d failures shown (%d closed), %d not shown", args[0], shown, strings.Count(md, "</details>"), hidden)
		}
		if !strings.Contains(md, "| **all** |") {
			t.Errorf("%s: the counts are gone from the cut summary:\n%s", args[0], md[:min(len(md), 2000)])
		}
	}
}
