package live

import (
	"fmt"
	"io"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/runner"
)

// FieldRow is one agent's line of the field report: how it was driven, where it keeps the date
// and the working directory, and whether its prefix survived each scenario.
type FieldRow struct {
	Agent, Version, API, Driven string
	// DateAt and DirAt: "system prompt", "first user message", "a user message", "tools", "not sent".
	DateAt, DirAt string
	// Midnight, Mode, Compaction say whether the prefix survived that scenario, in words.
	Midnight, Mode, Compaction string
	// Lost is the tokens a prefix cache would read again, over the scenarios, for breaks the
	// spec does not allow.
	Lost int
	// Broke is the first such break: the scenario, the request, the path and the text.
	Broke string
	// Note says what kept a scenario from running (not installed, crashed).
	Note string
	// Cases is the agent's run of the conformance cases through the live target (run --live),
	// when it was made.
	Cases *Cases
}

// Cases is an agent's run of the conformance cases through the live target (run --live): per
// area the cases it played and passed, and the first it did not pass; per universal rule (the
// system prompt held, the tool list held, nothing rewritten: rules any harness can keep, whatever
// its texts) the played cases that kept it, and the first that broke it.
type Cases struct {
	Areas     []CaseCount
	Universal []CaseCount
	// Note says why no case ran, or what ended the run early.
	Note string
}

// CaseCount is one area's or one rule's count: Of cases played, Held passed or kept it; First
// is the first that did not, with what became of it.
type CaseCount struct {
	Name     string
	Held, Of int
	First    string
}

func (c CaseCount) cell() string {
	if c.Of == 0 {
		return "none played"
	}
	s := fmt.Sprintf("%d of %d", c.Held, c.Of)
	if c.First != "" {
		s += "; first not: " + c.First
	}
	return s
}

// Outcome is one scenario's run and judgement, for the field report.
type Outcome struct {
	Run       *Run
	Judgement *Judgement
}

// FieldScenarios are the scenarios a field report runs, in its columns' order.
var FieldScenarios = []string{"midnight", "mode", "compaction"}

// Row makes an agent's field-report row from its scenarios' outcomes, by scenario name.
func Row(outs map[string]Outcome) FieldRow {
	var row FieldRow
	var notes []string
	for _, name := range FieldScenarios {
		o, ok := outs[name]
		if !ok {
			continue
		}
		r, j := o.Run, o.Judgement
		if row.Agent == "" {
			row.Agent, row.Version, row.API, row.Driven = r.Profile.Name, r.AgentVersion, r.Profile.API, r.Driven
			row.DateAt, row.DirAt = j.DateAt, j.DirAt
		}
		v := verdicts(j)
		if s := v[RuleSession]; s.Verdict != runner.Pass {
			notes = append(notes, fmt.Sprintf("%s: %s: %s", name, s.Verdict, s.Message))
		}
		for _, q := range j.Audit.Requests {
			if q.Fails {
				row.Lost += q.LostTokens
			}
		}
		if row.Broke == "" && j.Break != nil {
			q := j.Break
			what := q.Clock
			if what == "" && q.Change != nil {
				what = q.Change.New
			}
			if what == "" {
				what = q.Detail
			}
			row.Broke = fmt.Sprintf("%s, request %d, %s at `%s`: %s", name, q.Seq, q.Cause, q.Path, what)
		}
		held := prefixHeld(v)
		// held across the scenario's change only when a request after it continued one before
		// it: a change no request crossed was never exercised.
		across := func(made func(Step) bool, what string) string {
			if held != "held" {
				return held
			}
			for _, s := range r.Steps {
				if !made(s.Step) || s.Skipped != "" || s.Err != "" || continuedAfter(j.Audit, s) {
					continue
				}
				// No request continues across it: what a prefix cache still reuses of the first
				// request after it is the evidence there is (opencode begins a new conversation
				// after its compaction, on the same system prompt and tools).
				if q := firstAfter(j.Audit, s); q != nil && q.ReusableTokens > 0 {
					return fmt.Sprintf("a new conversation after %s: a prefix cache reuses %s of its first request's %s tokens", what, table.Count(q.ReusableTokens), table.Count(q.PromptTokens))
				}
				return "not checked: no request after " + what + " continues one from before it"
			}
			return held
		}
		switch name {
		case "midnight":
			row.Midnight = across(func(s Step) bool { return s.SetClock != nil || s.MoveClock != 0 }, "the clock moved")
			if !r.Clock.Controlled {
				row.Midnight = "clock " + r.Clock.Why
			} else if d := v[RuleDateNote]; d.Verdict == runner.Fail && row.Midnight == "held" {
				row.Midnight = "held; the new date is not sent"
			}
		case "mode":
			row.Mode = across(func(s Step) bool { return s.Mode != "" }, "the mode change")
			if m := v[RuleModeNote]; m.Verdict == runner.Skip && strings.HasPrefix(m.Message, "the mode change was not made") {
				row.Mode = "no mode change: " + strings.TrimPrefix(m.Message, "the mode change was not made: ")
			} else if m.Verdict == runner.Fail {
				row.Mode = "broke: " + m.Message
			}
		case "compaction":
			row.Compaction = across(func(s Step) bool { return s.Compact }, "the compaction")
			for _, s := range r.Steps {
				if s.Step.Compact && s.Skipped != "" {
					row.Compaction = "no compaction: " + s.Skipped
				}
			}
		}
	}
	row.Note = strings.Join(notes, "; ")
	return row
}

func verdicts(j *Judgement) map[string]runner.Result {
	out := map[string]runner.Result{}
	for _, x := range j.Results {
		out[x.Case.ID[strings.LastIndex(x.Case.ID, "/")+1:]] = x
	}
	return out
}

// prefixHeld is "held" when the system prompt, the tools and every message sent were compared
// and held, else where it first broke, or why it was not checked.
func prefixHeld(v map[string]runner.Result) string {
	for _, rule := range []string{RuleSystemPrompt, RuleTools, RuleRewritten} {
		if x := v[rule]; x.Verdict == runner.Fail {
			return "broke: " + x.Message
		}
	}
	if s := v[RuleSession]; s.Verdict == runner.Skip {
		return s.Message // not run: why
	} else if s.Verdict != runner.Pass {
		return "not finished"
	}
	for _, rule := range []string{RuleSystemPrompt, RuleTools, RuleRewritten} {
		if x := v[rule]; x.Verdict != runner.Pass {
			return x.Message // not checked: why
		}
	}
	return "held"
}

// FieldColumns are the field report's columns.
var FieldColumns = []string{"Agent", "Version", "API", "Driven", "Date lives in", "Working directory in", "Across midnight", "Mode change", "Compaction", "Tokens read again", "Where it broke"}

// WriteFieldReport writes the field report (docs/field-report.md): one row per agent, then each
// agent's notes. how is the command that made it, for the reader to make it again.
func WriteFieldReport(w io.Writer, rows []FieldRow, how string) error {
	fmt.Fprintf(w, "# Field report: real agents against the prefix rules\n\n")
	fmt.Fprintf(w, "Generated by `%s`; do not edit by hand. Each agent was installed from npm at the version shown, run with a temporary HOME against lembas-check's fake provider on loopback, driven through the built-in scenarios %s (docs/live.md), and judged by context.md §10's rules.\n\n", how, strings.Join(FieldScenarios, ", "))
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(FieldColumns, " | "), strings.Repeat("---|", len(FieldColumns)))
	for _, r := range rows {
		cells := []string{r.Agent, r.Version, r.API, r.Driven, r.DateAt, r.DirAt, r.Midnight, r.Mode, r.Compaction, table.Count(r.Lost), r.Broke}
		for i, c := range cells {
			cells[i] = mdCell(c)
		}
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")); err != nil {
			return err
		}
	}
	if err := writeCases(w, rows); err != nil {
		return err
	}
	var notes []string
	for _, r := range rows {
		if r.Cases != nil && r.Cases.Note != "" {
			notes = append(notes, fmt.Sprintf("- **%s**, the conformance cases: %s", r.Agent, mdCell(r.Cases.Note)))
		}
		if r.Note != "" {
			notes = append(notes, fmt.Sprintf("- **%s**: %s", r.Agent, mdCell(r.Note)))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\n## Notes\n\n%s\n", strings.Join(notes, "\n"))
	}
	return nil
}

// writeCases writes the second table: each agent's run of the conformance cases.
func writeCases(w io.Writer, rows []FieldRow) error {
	var names []string
	for _, r := range rows {
		if r.Cases == nil {
			continue
		}
		if names == nil {
			for _, c := range append(append([]CaseCount(nil), r.Cases.Areas...), r.Cases.Universal...) {
				names = append(names, c.Name)
			}
		}
	}
	if names == nil {
		return nil
	}
	fmt.Fprintf(w, "\n## The conformance cases on each agent\n\n")
	fmt.Fprintf(w, "Made by the live target (`lembas-check run --live AGENT`, docs/live.md): each case of the spec's and lembas-check's suites in these areas that the agent can be made to play — a fresh session directory, the fake scripted so that the model makes the case's calls, the person's steps played — judged by its expectation. The area columns count the cases played and passed: non-LLeMbas agents fail the spec's texts (the result brackets, the session note), which only a harness of the spec writes. The last columns count the played cases that kept each universal rule over their requests, which any harness can keep. A case the agent cannot be made to play is skipped, not counted.\n\n")
	cols := append([]string{"Agent"}, names...)
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
	for _, r := range rows {
		if r.Cases == nil {
			continue
		}
		cells := []string{r.Agent}
		for _, c := range append(append([]CaseCount(nil), r.Cases.Areas...), r.Cases.Universal...) {
			cells = append(cells, c.cell())
		}
		for i, c := range cells {
			cells[i] = mdCell(c)
		}
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")); err != nil {
			return err
		}
	}
	return nil
}

// mdCell is a table cell of markdown (format.MarkdownCell), never empty.
func mdCell(s string) string {
	if s == "" {
		return "—"
	}
	return format.MarkdownCell(s)
}
