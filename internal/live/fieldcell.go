package live

import (
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/runner"
)

// The marks a field-report cell leads with: every rule of the scenario held, one failed, or what
// it would have checked was not (issue 21: "held; the new date is not sent" read as a pass).
const (
	MarkHeld       = "✅"
	MarkBroke      = "❌"
	MarkNotChecked = "➖"
)

func mark(m, text string) string { return m + " " + text }

// scenarioCell is a scenario's cell: ❌ when a rule the scenario checks failed — the prefix
// first, whatever else kept the scenario from its point (a clock not controlled still shows a
// break, which "Where it broke" names) — ➖ when what it exists to check was not checked, ✅
// when every such rule held.
func scenarioCell(name string, r *Run, j *Judgement, v map[string]runner.Result) string {
	c := prefixCell(v)
	if strings.HasPrefix(c, MarkBroke) {
		return c
	}
	switch name {
	case "midnight":
		if !r.Clock.Controlled {
			return mark(MarkNotChecked, "clock "+r.Clock.Why)
		}
		return noteCell(acrossCell(c, r, j, "the clock moved", false,
			func(s Step) bool { return s.SetClock != nil || s.MoveClock != 0 }), v[RuleDateNote])
	case "mode":
		if m := v[RuleModeNote]; m.Verdict == runner.Skip && strings.HasPrefix(m.Message,
			"the mode change was not made") {
			return mark(MarkNotChecked, "no mode change: "+strings.TrimPrefix(m.Message,
				"the mode change was not made: "))
		}
		return noteCell(acrossCell(c, r, j, "the mode change", false, func(s Step) bool { return s.Mode != "" }),
			v[RuleModeNote])
	case "compaction":
		for _, s := range r.Steps {
			if s.Step.Compact && s.Skipped != "" {
				return mark(MarkNotChecked, "no compaction: "+s.Skipped)
			}
		}
		return acrossCell(c, r, j, "the compaction", true, func(s Step) bool { return s.Compact })
	}
	return c
}

// prefixCell: ❌ where the system prompt, the tools or a message sent broke, ➖ where one was
// not checked (or the scenario was not run), ✅ when all three held.
func prefixCell(v map[string]runner.Result) string {
	for _, rule := range []string{RuleSystemPrompt, RuleTools, RuleRewritten} {
		if x := v[rule]; x.Verdict == runner.Fail {
			return mark(MarkBroke, "broke: "+x.Message)
		}
	}
	if s := v[RuleSession]; s.Verdict == runner.Skip {
		return mark(MarkNotChecked, s.Message) // not run: why
	} else if s.Verdict != runner.Pass {
		return mark(MarkBroke, "not finished: "+s.Message)
	}
	for _, rule := range []string{RuleSystemPrompt, RuleTools, RuleRewritten} {
		if x := v[rule]; x.Verdict != runner.Pass {
			return mark(MarkNotChecked, x.Message) // not checked: why
		}
	}
	return mark(MarkHeld, "held")
}

// acrossCell is the prefix's cell across the scenario's change: held only when a request after
// it continued one before it, since a change no request crossed was never exercised. A new
// conversation after it says what a prefix cache still reuses of its first request: allowed
// after a compaction (context.md §7), not checked after anything else.
func acrossCell(c string, r *Run, j *Judgement, what string, anew bool, made func(Step) bool) string {
	if !strings.HasPrefix(c, MarkHeld) {
		return c
	}
	for _, s := range r.Steps {
		if !made(s.Step) || s.Skipped != "" || s.Err != "" || continuedAfter(j.Audit, s) {
			continue
		}
		if q := firstAfter(j.Audit, s); q != nil && q.ReusableTokens > 0 {
			m := MarkNotChecked
			if anew {
				m = MarkHeld
			}
			return mark(m,
				fmt.Sprintf("a new conversation after %s: a prefix cache reuses %s of its first request's %s tokens",
					what, table.Count(q.ReusableTokens), table.Count(q.PromptTokens)))
		}
		return mark(MarkNotChecked, "not checked: no request after "+what+" continues one from before it")
	}
	return c
}

// noteCell adds the scenario's note rule to the prefix's cell: a note that failed is the cell's
// ❌ (the prefix's word after it), one not checked makes a held prefix ➖.
func noteCell(c string, note runner.Result) string {
	held := strings.HasPrefix(c, MarkHeld)
	switch {
	case note.Verdict.Failed():
		if held {
			return mark(MarkBroke, note.Message+"; the prefix held")
		}
		return mark(MarkBroke, note.Message+"; "+strings.TrimSpace(strings.TrimPrefix(c, MarkNotChecked)))
	case held && note.Verdict != runner.Pass:
		return mark(MarkNotChecked, "the prefix held; "+note.Message)
	}
	return c
}

// brokeAt is "Where it broke" for the scenario whose cell broke: the audit's first failing break
// in it (the request, the path and the text), else what the cell says.
func brokeAt(name string, j *Judgement, cell string) string {
	if q := j.Break; q != nil && strings.Contains(cell, "broke: ") {
		what := q.Clock
		if what == "" && q.Change != nil {
			what = q.Change.New
		}
		if what == "" {
			what = q.Detail
		}
		return mark(MarkBroke, fmt.Sprintf("%s, request %d, %s at `%s`: %s", name, q.Seq, q.Cause, q.Path, what))
	}
	return mark(MarkBroke, name+": "+strings.TrimSpace(strings.TrimPrefix(cell, MarkBroke)))
}
