package bench

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
)

// The bench's first line is its answer (issue 27: it sat in the table's rows 5–13 and the last
// two summary lines): what each variant costs against the baseline in cached share, tokens and
// time, then what its ":3" means; and the cost rows say why they are empty.
func TestTheBenchLeadsWithItsAnswer(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	open := opener(clean)
	_, o := startSim(t, []Recording{{Open: open}}, 1, nil)
	v, _ := ParseVariant("date-in-system")
	o.Variants = []Variant{v}
	o.Prices = &prices.Table{File: "built in"}
	res, err := Bench(context.Background(), open, o)
	if err != nil {
		t.Fatal(err)
	}
	res.File = clean
	var b bytes.Buffer
	if err := WriteTable(&b, res, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := "date-in-system:3: 78.0 % → 66.1 % cached, tokens −275 cached +60 prompt, prompt reading ×"
	if !strings.HasPrefix(lines[0], want) {
		t.Errorf("first line %q, want it to start %q", lines[0], want)
	}
	if want := "  where date-in-system:3 is the system prompt's date, a day later from request 3 of 6"; lines[1] != want {
		t.Errorf("second line %q, want %q", lines[1], want)
	}
	out := b.String()
	if !strings.Contains(out, "] — no price for qwen3-coder in the price table (built in; --prices FILE adds one)\n") {
		t.Errorf("no reason for the empty costs:\n%s", out)
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 100 && !strings.HasPrefix(l, "ok\t") {
			t.Errorf("%d columns: %s", n, l)
		}
	}
	b.Reset()
	if err := WriteMarkdown(&b, res); err != nil {
		t.Fatal(err)
	}
	if md := b.String(); !strings.Contains(md, "\n\ndate-in-system:3: 78.0 % → 66.1 % cached") {
		t.Errorf("markdown does not lead with the answer:\n%s", md)
	}
}

// A label says what it means, the request after its colon included.
func TestMeaning(t *testing.T) {
	for name, want := range map[string]string{
		"date-in-system:3": "the system prompt's date, a day later from request 3 of 6",
		"tool-churn:2":     "a tool added to the list at request 2 of 6",
		"prune-results":    "earlier turns' tool results shortened in place",
		"baseline":         "the recording as it was sent",
	} {
		if got := Meaning(name, 6); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
