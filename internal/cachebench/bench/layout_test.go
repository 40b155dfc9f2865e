package bench

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// With a baseline and two variants the table fits 120 columns (issue 16: 184, the cell "simulator
// emptied (1 slot(s))" setting every column's width): a long cell is a note under the table, a
// variant's ratio sits in its cell, and large numbers have their thousands separated.
func TestTableFits120Columns(t *testing.T) {
	open := opener(clean)
	sim, o := startSim(t, []Recording{{Open: open}}, 1, nil)
	for _, s := range []string{"date-in-system", "tool-churn:2"} {
		v, _ := ParseVariant(s)
		o.Variants = append(o.Variants, v)
	}
	res, err := Bench(context.Background(), open, o)
	if err != nil {
		t.Fatal(err)
	}
	res.File, res.Server = clean, sim.Name()
	res.Runs[0].Totals.PromptMS = 212885.4
	var b bytes.Buffer
	if err := WriteTable(&b, res, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "ok\t") || strings.HasPrefix(l, "FAIL\t") {
			continue // the summary lines are lines, not the table
		}
		if n := utf8.RuneCountInString(l); n > 120 {
			t.Errorf("%d columns: %s", n, l)
		}
	}
	for _, want := range []string{"│ date-in-system:3 │ tool-churn:2 │", "[1] simulator emptied (1 slot(s))\n", "212,885.4", " ×0."} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`│ cold cache +│ +\[1\] │ +\[1\] │ +\[1\] │`).MatchString(out) || !strings.Contains(out, "212,885.4 ms reading prompts") {
		t.Errorf("the cold cache's note, the summary's number:\n%s", out)
	}
	if strings.Count(out, "\n[1] ") != 1 || strings.Contains(out, "[2] simulator") {
		t.Errorf("the same note twice:\n%s", out)
	}
}
