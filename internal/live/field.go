package live

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"
	"text/template"

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
	// Midnight, Mode, Compaction say whether the prefix and the scenario's note survived that
	// scenario, behind a mark: ✅ held, ❌ broke, ➖ not checked (scenarioCell).
	Midnight, Mode, Compaction string
	// Lost is the tokens a prefix cache would read again, over the scenarios, for breaks the
	// spec does not allow.
	Lost int
	// Broke is where the first scenario whose cell is ❌ broke: the audit's break (the request,
	// the path and the text), else the rule that failed.
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

// count is the count as the field report's table shows it, behind its mark: ✅ every case
// played held, ❌ one did not, ➖ none was played. The first that did not is listed under it.
func (c CaseCount) count() string {
	if c.Of == 0 {
		return MarkNotChecked // none played
	}
	s := table.Count(c.Held) + "/" + table.Count(c.Of) // not "of": the cell stays on one line in 920 px
	if c.Held < c.Of {
		return mark(MarkBroke, s)
	}
	return mark(MarkHeld, s)
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
		cell := scenarioCell(name, r, j, v)
		switch name {
		case "midnight":
			row.Midnight = cell
		case "mode":
			row.Mode = cell
		case "compaction":
			row.Compaction = cell
		}
		if row.Broke == "" && strings.HasPrefix(cell, MarkBroke) {
			row.Broke = brokeAt(name, j, cell)
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

// fieldProse is the field report's prose, kept as text a reader edits as text.
//
//go:embed field.md.tmpl
var fieldProseText string

var fieldProse = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("field").Parse(fieldProseText))
})

// FieldColumns are the field report's first table's columns: short cells only, the scenarios'
// a mark each, so that it fits GitHub's 920 px column (issue 27: 1,468 px, "Where it broke"
// behind a scroll); what each mark stands for, and where it broke, is listed under it.
var FieldColumns = []string{"Agent", "Midnight", "Mode", "Compaction", "Tokens lost", "Date in",
	"Directory in"}

// fieldAlign is each column's markdown alignment: the marks centred, the tokens right.
var fieldAlign = []string{"---", ":-:", ":-:", ":-:", "--:", "---", "---"}

// WriteFieldReport writes the field report (docs/field-report.md): one row per agent, then each
// agent's cells in full and notes. how is the command that made it, for the reader to make it
// again.
func WriteFieldReport(w io.Writer, rows []FieldRow, how string) error {
	rows = namedByDoor(rows)
	fmt.Fprintf(w, "# Field report: real agents against the prefix rules\n\n")
	if err := fieldProse().ExecuteTemplate(w, "intro", map[string]string{"How": how,
		"Scenarios": strings.Join(FieldScenarios, ", "), "Held": MarkHeld, "Broke": MarkBroke,
		"NotChecked": MarkNotChecked}); err != nil {
		return err
	}
	fmt.Fprintf(w, "| %s |\n|%s|\n", strings.Join(FieldColumns, " | "), strings.Join(fieldAlign, "|"))
	for _, r := range rows {
		cells := []string{r.Agent, markOf(r.Midnight), markOf(r.Mode), markOf(r.Compaction), table.Count(r.Lost),
			r.DateAt, r.DirAt}
		for i, c := range cells {
			cells[i] = mdCell(c)
		}
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\n## Each agent's scenarios\n\n")
	for _, r := range rows {
		fmt.Fprintf(w, "- **%s** %s: %s, driven %s\n", mdCell(r.Agent), mdCell(r.Version), mdCell(r.API),
			mdCell(r.Driven))
		for _, item := range [][2]string{{"Where it broke", r.Broke}, {"Across midnight", r.Midnight},
			{"Mode change", r.Mode}, {"Compaction", r.Compaction}, {"Note", r.Note}} {
			if item[1] != "" {
				fmt.Fprintf(w, "  - %s: %s\n", item[0], mdCell(item[1]))
			}
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
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\n## Notes\n\n%s\n", strings.Join(notes, "\n"))
	}
	return nil
}

// namedByDoor names an agent run through two doors (opencode over ACP and over its HTTP API) by
// how each row was driven, so that its rows in every table tell apart; a copy, rows unchanged.
func namedByDoor(rows []FieldRow) []FieldRow {
	seen := map[string]int{}
	for _, r := range rows {
		seen[r.Agent]++
	}
	out := make([]FieldRow, len(rows))
	for i, r := range rows {
		if seen[r.Agent] > 1 && r.Driven != "" {
			r.Agent += " (" + r.Driven + ")"
		}
		out[i] = r
	}
	return out
}

// markOf is a cell's mark alone (✅, ❌ or ➖), the text after it listed under the table; "—"
// for a scenario not run.
func markOf(cell string) string {
	for _, m := range []string{MarkHeld, MarkBroke, MarkNotChecked} {
		if strings.HasPrefix(cell, m) {
			return m
		}
	}
	return ""
}

// writeCases writes the second table: each agent's run of the conformance cases, a mark and a
// count a cell, and under it the first case each did not pass.
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
	if err := fieldProse().ExecuteTemplate(w, "cases", nil); err != nil {
		return err
	}
	cols := append([]string{"Agent"}, names...)
	fmt.Fprintf(w, "| %s |\n|---|%s\n", strings.Join(cols, " | "), strings.Repeat("--:|", len(names)))
	var firsts []string
	for _, r := range rows {
		if r.Cases == nil {
			continue
		}
		cells := []string{r.Agent}
		var not []string
		for _, c := range append(append([]CaseCount(nil), r.Cases.Areas...), r.Cases.Universal...) {
			cells = append(cells, c.count())
			if c.First != "" {
				not = append(not, fmt.Sprintf("  - %s: %s", c.Name, mdCell(c.First)))
			}
		}
		for i, c := range cells {
			cells[i] = mdCell(c)
		}
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")); err != nil {
			return err
		}
		if len(not) > 0 {
			firsts = append(firsts, fmt.Sprintf("- **%s**, the first case not passed or kept:\n%s", mdCell(r.Agent),
				strings.Join(not, "\n")))
		}
	}
	if len(firsts) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(firsts, "\n"))
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
