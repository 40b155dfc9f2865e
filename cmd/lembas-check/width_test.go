package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/term"
)

// No line of diff, audit or bench, and no table or summary line of run, is wider than 100
// columns, the width of output that is not a terminal (issue 27: diff's table 117, bench -v 224,
// the summary lines 130 to 250, each wrapped on a 100-column terminal; then bench's notes and
// an audit break's path). live writes run's table.
func TestTablesAndSummariesFit100Columns(t *testing.T) {
	t.Setenv("COLUMNS", "")
	recs, _ := filepath.Glob(recDir + "*.jsonl")
	if len(recs) == 0 {
		t.Fatal("no recordings")
	}
	runs := [][]string{{"run"}, {"run", "-v"}, {"diff", "--a", "builtin", "--b", "builtin"}, {"diff", "--a", "builtin", "--b", "builtin", "-v"}}
	for _, r := range recs {
		runs = append(runs, []string{"audit", r, "-v"}, []string{"bench", r, "--sim", "--variant", "date-in-system", "-v"})
	}
	for _, args := range runs {
		_, out, _ := runCLIRaw(t, args...)
		for _, l := range strings.Split(out, "\n") {
			if args[0] == "run" && !tableOrSummary(l) {
				continue // -v's PASS lines are go test's: a case's name and title in full
			}
			if n := term.DisplayWidth(expandTabs(l)); n > term.DefaultWidth {
				t.Errorf("%s: a line of %d columns:\n%s", strings.Join(args, " "), n, l)
			}
		}
	}
}

// tableOrSummary says whether a line is a table's (its rules and rows) or a summary's (the
// status word and a tab, or a summary's next line).
func tableOrSummary(l string) bool {
	for _, p := range []string{"┌", "│", "├", "└", "ok\t", "FAIL\t", "ERROR\t", "\t"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// expandTabs is l with each tab taken to the next multiple of 8, as a terminal shows it.
func expandTabs(l string) string {
	var b strings.Builder
	col := 0
	for _, r := range l {
		if r == '\t' {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col += term.DisplayWidth(string(r))
	}
	return b.String()
}
