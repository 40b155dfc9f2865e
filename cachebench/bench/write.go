package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// Formats are the formats a bench is written in, the table first.
var Formats = format.Formats[*Result]{
	{Name: "table", Write: WriteTable},
	{Name: "json", About: "JSON lines", Write: func(w io.Writer, r *Result, _ bool) error { return WriteJSON(w, r) }},
	{Name: "markdown", Write: func(w io.Writer, r *Result, _ bool) error { return WriteMarkdown(w, r) }},
}

// Write writes a result; verbose adds the per-request table.
func Write(w io.Writer, r *Result, name string, verbose bool) error {
	f, err := Formats.Lookup(name)
	if err != nil {
		return err
	}
	return f.Write(w, r, verbose)
}

// Status is how the bench ended: unfinished when it was cut short (Stopped) or sent no request
// (an empty recording: the agent never reached the fake), failed when a request failed, else ok.
func Status(r *Result) format.Status {
	if r.Stopped != "" || len(r.Runs) == 0 || r.Runs[0].Totals.Requests == 0 {
		return format.Unfinished
	}
	for _, run := range r.Runs {
		if run.Totals.Errors > 0 {
			return format.Failed
		}
	}
	return format.OK
}

// why says what an unfinished bench needs said.
func why(r *Result) string {
	switch {
	case r.Stopped != "":
		return "not finished: " + r.Stopped
	case len(r.Runs) == 0 || r.Runs[0].Totals.Requests == 0:
		return "no request: did the agent reach the fake?"
	}
	return ""
}

func ratio(a, b float64) string {
	if a == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", b/a)
}

// line is one row of the summary: a label, each run's cell, and the ratio of each variant to the
// baseline where it means something.
type line struct {
	label string
	cell  func(Run) string
	value func(Run) (float64, bool)
}

func summaryLines() []line {
	f := func(v float64, ok bool) (float64, bool) { return v, ok }
	return []line{
		{"requests", func(r Run) string { return fmt.Sprint(r.Totals.Requests) }, nil},
		{"errors", func(r Run) string { return fmt.Sprint(r.Totals.Errors) }, nil},
		{"reported cached tokens", func(r Run) string {
			if r.Totals.Reported < r.Totals.Requests {
				return fmt.Sprintf("%d of %d", r.Totals.Reported, r.Totals.Requests)
			}
			return "all"
		}, nil},
		{"prompt tokens (server)", func(r Run) string { return table.Count(r.Totals.Prompt) }, func(r Run) (float64, bool) { return f(float64(r.Totals.Prompt), true) }},
		{"cached tokens (server)", func(r Run) string { return table.Count(r.Totals.Cached) }, func(r Run) (float64, bool) { return f(float64(r.Totals.Cached), true) }},
		{"cached share (server)", func(r Run) string {
			if r.Totals.Prompt == 0 {
				return "—"
			}
			return table.Percent(float64(r.Totals.Cached) / float64(r.Totals.Prompt))
		}, nil},
		{"reusable tokens (audit)", func(r Run) string { return table.Count(r.Audit.ReusableTokens) }, func(r Run) (float64, bool) { return f(float64(r.Audit.ReusableTokens), true) }},
		{"reusable share (audit)", func(r Run) string { return table.Percent(r.Audit.ReusableShare) }, nil},
		{"efficiency (cached ÷ reusable)", func(r Run) string {
			if e, ok := r.Totals.Efficiency(); ok {
				return fmt.Sprintf("%.2f", e)
			}
			return "—"
		}, nil},
		{"prompt processing (server ms)", func(r Run) string { return fmt.Sprintf("%.1f", r.Totals.PromptMS) }, func(r Run) (float64, bool) { return r.Totals.PromptMS, true }},
		{"time to first token (ms, sum)", func(r Run) string { return fmt.Sprintf("%.1f", r.Totals.TTFTMS) }, func(r Run) (float64, bool) { return r.Totals.TTFTMS, true }},
		{"total time (ms, sum)", func(r Run) string { return fmt.Sprintf("%.1f", r.Totals.TotalMS) }, func(r Run) (float64, bool) { return r.Totals.TotalMS, true }},
		{"cold cache", func(r Run) string { return r.Cold }, nil},
		{"cost (server's usage)", func(r Run) string { return money(r.Totals.Cost, r.Audit.Priced, r.Currency) }, func(r Run) (float64, bool) { return r.Totals.Cost, r.Audit.Priced > 0 }},
		{"cost, prefix kept (audit)", func(r Run) string { return money(r.Audit.Kept, r.Audit.Priced, r.Currency) }, nil},
		{"lost to the breaks (audit)", func(r Run) string { return money(r.Audit.LostCost, r.Audit.Priced, r.Currency) }, nil},
	}
}

// WriteTable writes the runs side by side (and each request with verbose), then one line per
// variant saying what the rule saves.
func WriteTable(w io.Writer, r *Result, verbose bool) error {
	if verbose && len(r.Runs) > 0 {
		t := table.New(w, 0)
		head := []any{"N", "Seq"}
		for _, run := range r.Runs {
			head = append(head, run.Name+" TTFT ms", "cached/prompt", "reusable", "cause")
		}
		t.Header(head...)
		for i := range r.Runs[0].Rows {
			cells := []any{r.Runs[0].Rows[i].N, r.Runs[0].Rows[i].Seq}
			for _, run := range r.Runs {
				if i >= len(run.Rows) {
					cells = append(cells, "", "", "", "")
					continue
				}
				row := run.Rows[i]
				cached := "not reported"
				if row.Usage.CachedTokens != nil {
					cached = fmt.Sprint(*row.Usage.CachedTokens)
				}
				prompt := "—"
				if row.Usage.PromptTokens != nil {
					prompt = fmt.Sprint(*row.Usage.PromptTokens)
				}
				ttft := fmt.Sprintf("%.1f", ms(row.TTFT))
				if row.Error != "" {
					ttft = "error"
				}
				cells = append(cells, ttft, cached+"/"+prompt, row.Predicted, string(row.Cause))
			}
			if err := t.Append(cells...); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	// The runs side by side (layout.go).
	if err := writeSheet(w, makeSheet(r, summaryLines())); err != nil {
		return err
	}
	for _, s := range Summaries(r) {
		fmt.Fprintln(w, s)
	}
	return nil
}

// Summaries are the result's last lines: the baseline, then what each variant costs.
func Summaries(r *Result) []string {
	// Every line starts with the bench's one status, so no line says ok when the exit status does
	// not; a run's own failed requests are counted in its line.
	word := Status(r).Word()
	if len(r.Runs) == 0 {
		return []string{word + "\t" + r.File + "\t" + why(r)}
	}
	var out []string
	b := r.Runs[0]
	status := func(run Run) string {
		s := word
		if run.Totals.Errors > 0 {
			s += fmt.Sprintf("\t%d of %d requests failed;", run.Totals.Errors, run.Totals.Requests)
		}
		return s
	}
	share := func(run Run) string {
		if run.Totals.Prompt == 0 {
			return "cached tokens not reported"
		}
		return table.Percent(float64(run.Totals.Cached)/float64(run.Totals.Prompt)) + " cached"
	}
	out = append(out, fmt.Sprintf("%s\t%s\tbaseline: %d requests, %s, %s ms reading prompts, %s ms in all", status(b), r.File, b.Totals.Requests, share(b), table.Decimal(b.Totals.PromptMS, 1), table.Decimal(b.Totals.TotalMS, 1)))
	for _, v := range r.Runs[1:] {
		out = append(out, fmt.Sprintf("%s\t%s\t%s: %s (baseline %s); prompt reading %s, total time %s the baseline's", status(v), r.File, v.Name, share(v), share(b),
			ratio(b.Totals.PromptMS, v.Totals.PromptMS), ratio(b.Totals.TotalMS, v.Totals.TotalMS)))
	}
	if reason := why(r); reason != "" {
		out[len(out)-1] += "; " + reason
	}
	return out
}

// WriteJSON writes JSON lines: {"type":"row",…} per request of each run, then {"type":"run",…}
// per run.
func WriteJSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, run := range r.Runs {
		for _, row := range run.Rows {
			// Row marshals itself (times in ms, efficiency); "type" goes in front of its fields.
			b, err := json.Marshal(row)
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(w, "{\"type\":\"row\",%s\n", b[1:]); err != nil {
				return err
			}
		}
	}
	for _, run := range r.Runs {
		eff, ok := run.Totals.Efficiency()
		var e *float64
		if ok {
			e = &eff
		}
		if err := enc.Encode(struct {
			Type       string   `json:"type"`
			File       string   `json:"file"`
			Server     string   `json:"server"`
			Tokenizer  string   `json:"tokenizer"`
			Efficiency *float64 `json:"efficiency,omitempty"`
			Run
		}{"run", r.File, r.Server, r.Tokenizer, e, run}); err != nil {
			return err
		}
	}
	return nil
}

// WriteMarkdown writes the side-by-side summary as a markdown table.
func WriteMarkdown(w io.Writer, r *Result) error {
	fmt.Fprintf(w, "## %s Cache bench: `%s` against %s\n\nTokenizer for the predictions: %s.\n\n", Status(r).Icon(), r.File, r.Server, r.Tokenizer)
	// The table's cells (layout.go), notes and all.
	sh := makeSheet(r, summaryLines())
	cell := func(c string) string { return strings.ReplaceAll(c, "|", `\|`) }
	fmt.Fprint(w, "|")
	for _, h := range sh.head {
		fmt.Fprintf(w, " %s |", cell(h))
	}
	fmt.Fprint(w, "\n|---|")
	for range len(sh.head) - 1 {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, row := range sh.rows {
		fmt.Fprint(w, "|")
		for _, c := range row {
			fmt.Fprintf(w, " %s |", cell(c))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	if len(sh.head) > 2 {
		fmt.Fprintln(w, "A variant's figure is followed by its ratio to the baseline's (×).")
		fmt.Fprintln(w)
	}
	for i, n := range sh.notes {
		fmt.Fprintf(w, "[%d] %s\n\n", i+1, cell(n))
	}
	for _, s := range Summaries(r) {
		fmt.Fprintf(w, "- %s\n", strings.ReplaceAll(s, "\t", " "))
	}
	return nil
}
