package bench

import (
	"fmt"

	"github.com/LLeMbas/lembas-check/internal/table"
)

// Headline is the bench's answer, its first lines (issue 27: it sat in the table's rows 5–13 and
// the last two summary lines): for each variant what breaking its rule costs against the
// baseline, in cached share, tokens and time; then what each variant's label means, ":3"
// included. With no variant, the baseline's own figures.
func Headline(r *Result) []string {
	if len(r.Runs) == 0 {
		return nil
	}
	b := r.Runs[0]
	if len(r.Runs) == 1 {
		return []string{fmt.Sprintf("baseline: %s of %s prompt tokens cached (%s), %s ms reading prompts%s",
			table.Count(b.Totals.Cached), table.Count(b.Totals.Prompt), cachedShare(b), table.Decimal(b.Totals.PromptMS,
				1),
			modelled(r))}
	}
	var out []string
	for _, v := range r.Runs[1:] {
		out = append(out, headlineOf(r, b, v))
	}
	for _, v := range r.Runs[1:] {
		out = append(out, "  where "+v.Name+" is "+Meaning(v.Name, b.Totals.Requests))
	}
	if r.Simulated {
		out = append(out, "  (prompt reading modelled from token counts: --sim)")
	}
	return out
}

// headlineOf is one variant's line: "date-in-system:3: 62.2 % → 50.5 % cached, tokens −267
// cached +60 prompt, prompt reading ×1.34".
func headlineOf(r *Result, b, v Run) string {
	s := fmt.Sprintf("%s: %s → %s cached, tokens %s cached", v.Name, cachedShare(b), cachedShare(v),
		signed(v.Totals.Cached-b.Totals.Cached))
	if v.Totals.Prompt != b.Totals.Prompt {
		s += " " + signed(v.Totals.Prompt-b.Totals.Prompt) + " prompt"
	}
	if rn := ratioNote(b.Totals.PromptMS, v.Totals.PromptMS); rn != "" {
		s += ", prompt reading " + rn
	}
	if rn := ratioNote(b.Totals.TotalMS, v.Totals.TotalMS); rn != "" && !r.Simulated {
		s += ", total time " + rn
	}
	if rn := ratioNote(b.Totals.Cost, v.Totals.Cost); rn != "" && b.Audit.Priced > 0 {
		s += ", cost " + rn
	}
	return s
}

// cachedShare is a run's cached share of its prompt tokens, "no cached share" when none was reported.
func cachedShare(run Run) string {
	if run.Totals.Prompt == 0 {
		return "no cached share"
	}
	return table.Percent(float64(run.Totals.Cached) / float64(run.Totals.Prompt))
}

// signed is a count with its sign, a minus for fewer: "−267", "+60", "±0".
func signed(n int64) string {
	switch {
	case n < 0:
		return "−" + table.Count(-n)
	case n > 0:
		return "+" + table.Count(n)
	}
	return "±0"
}

func modelled(r *Result) string {
	if r.Simulated {
		return " (modelled)"
	}
	return ""
}

// Meaning says what a run's label means: a variant's rewrite and, after its colon, the request
// where it starts (of the session's requests).
func Meaning(name string, requests int) string {
	v, err := ParseVariant(name)
	if err != nil {
		return "the recording as it was sent"
	}
	of := ""
	if requests > 0 {
		of = fmt.Sprintf(" of %d", requests)
	}
	switch v.Name {
	case DateInSystem:
		return fmt.Sprintf("the system prompt's date, a day later from request %d%s", v.At, of)
	case ToolChurn:
		return fmt.Sprintf("a tool added to the list at request %d%s", v.At, of)
	}
	return "earlier turns' tool results shortened in place"
}
