package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/term"
)

// Formats are the formats a bench is written in, the table first.
var Formats = format.Formats[*Result]{
	{Name: "table", Write: WriteTable},
	{Name: "json", About: "JSON lines", Write: func(w io.Writer, r *Result, _ bool) error { return WriteJSON(w, r) }},
	{Name: "markdown", Write: func(w io.Writer, r *Result, _ bool) error { return WriteMarkdown(w, r) }},
}

// Write writes a result; verbose adds the per-request table.
func Write(w io.Writer, r *Result, name string, verbose bool) error {
	return Formats.Write(w, name, r, verbose)
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

func summaryLines(res *Result) []line {
	out := serverLines()
	if res.Predictor != "" {
		out = append(out, predictionLines()...)
	}
	out = append(out, counterLines(res)...)
	out = append(out, auditAndTimeLines(res)...)
	return append(out, costLines(res)...)
}

// serverLines are what the server answered: requests, errors, and the tokens it said it cached.
func serverLines() []line {
	f := func(v float64, ok bool) (float64, bool) { return v, ok }
	return []line{
		{"requests", func(r Run) string { return fmt.Sprint(r.Totals.Requests) }, nil},
		{"server errors", func(r Run) string {
			if r.Totals.Refused > 0 {
				return fmt.Sprintf("%d (%d refused for their size)", r.Totals.Errors, r.Totals.Refused)
			}
			return fmt.Sprint(r.Totals.Errors)
		}, nil},
		{"reported cached tokens", func(r Run) string {
			if r.Totals.Reported < r.Totals.Requests {
				return fmt.Sprintf("%d of %d", r.Totals.Reported, r.Totals.Requests)
			}
			return "all"
		}, nil},
		{"prompt tokens (server)", func(r Run) string { return table.Count(r.Totals.Prompt) }, func(r Run) (float64,
			bool) {
			return f(float64(r.Totals.Prompt), true)
		}},
		{"cached tokens (server)", func(r Run) string { return table.Count(r.Totals.Cached) }, func(r Run) (float64,
			bool) {
			return f(float64(r.Totals.Cached), true)
		}},
		{"cached share (server)", func(r Run) string {
			if r.Totals.Prompt == 0 {
				return "— none reported"
			}
			return table.Percent(float64(r.Totals.Cached) / float64(r.Totals.Prompt))
		}, nil},
	}
}

// predictionLines say how well the simulator predicted what the server cached.
func predictionLines() []line {
	return []line{
		{"cached tokens (predicted)", func(r Run) string { return table.Count(r.Totals.Predicted) }, nil},
		{"prediction exact", func(r Run) string {
			if r.Totals.Compared == 0 {
				return "— none compared"
			}
			return fmt.Sprintf("%d of %d", r.Totals.Exact, r.Totals.Compared)
		}, nil},
		{"prediction off (of cached tokens)", func(r Run) string {
			if _, off, ok := r.Totals.Agreement(); ok {
				return table.Percent(off)
			}
			return "— none compared"
		}, nil},
	}
}

// counterLines are the server's own /metrics counters, said missing against a real server (the
// simulator has none to miss).
func counterLines(res *Result) []line {
	counters := false
	for _, run := range res.Runs {
		counters = counters || run.Counters != nil
	}
	if !counters && (res.Simulated || len(res.Runs) == 0 || res.Runs[0].CountersMissing == "") {
		return nil
	}
	return []line{{"cached tokens (server's /metrics)", func(r Run) string {
		if r.Counters == nil && r.CountersMissing != "" {
			return "none: " + r.CountersMissing
		}
		if r.Counters == nil {
			return "—"
		}
		return table.Count(int64(r.Counters.Cached)) + " of " + table.Count(int64(r.Counters.Prompt))
	}, nil}}
}

// auditAndTimeLines are what the audit found reusable, and the times. Under the simulator prompt
// times are modelled from token counts, and the wall times are the fake's on loopback: no ratio
// of them means anything.
func auditAndTimeLines(res *Result) []line {
	f := func(v float64, ok bool) (float64, bool) { return v, ok }
	promptLabel := "prompt processing (server ms)"
	wall := func(v func(Run) (float64, bool)) func(Run) (float64, bool) { return v }
	if res.Simulated {
		promptLabel = "prompt processing (modelled ms)"
		wall = func(func(Run) (float64, bool)) func(Run) (float64, bool) { return nil }
	}
	out := []line{
		{"reusable tokens (audit)", func(r Run) string { return table.Count(r.Audit.ReusableTokens) },
			func(r Run) (float64, bool) { return f(float64(r.Audit.ReusableTokens), true) }},
		{"reusable share (audit)", func(r Run) string { return table.Percent(r.Audit.ReusableShare) }, nil},
		{"efficiency (cached ÷ reusable)", func(r Run) string {
			if e, ok := r.Totals.Efficiency(); ok {
				return fmt.Sprintf("%.2f", e)
			}
			if r.Totals.Reported == 0 {
				return "— none reported"
			}
			return "— none reusable"
		}, nil},
		{promptLabel, func(r Run) string { return fmt.Sprintf("%.1f", r.Totals.PromptMS) }, func(r Run) (float64,
			bool) {
			return r.Totals.PromptMS, true
		}},
		{"time to first token (ms, sum)", func(r Run) string { return fmt.Sprintf("%.1f", r.Totals.TTFTMS) },
			wall(func(r Run) (float64, bool) { return r.Totals.TTFTMS, true })},
		{"total time (ms, sum)", func(r Run) string { return fmt.Sprintf("%.1f", r.Totals.TotalMS) },
			wall(func(r Run) (float64, bool) { return r.Totals.TotalMS, true })},
	}
	if !res.Simulated {
		out = append(out, line{"TTFT ms p50 / p90 / p99", func(r Run) string { return pct(r.TTFT) }, nil})
	}
	return out
}

// costLines are the cold-cache checks and what the tokens cost.
func costLines(res *Result) []line {
	// An empty cost says why (issue 27: three rows of "—"); the long reason becomes a note.
	m := func(v float64, r Run) string {
		if s := money(v, r.Audit.Priced, r.Currency); s != "—" || res.Unpriced == "" {
			return s
		}
		return "— " + res.Unpriced
	}
	return []line{
		{"cold cache", func(r Run) string { return r.Cold }, nil},
		{"cold check", func(r Run) string { return r.ColdCheck }, nil},
		{"cost (server's usage)", func(r Run) string { return m(r.Totals.Cost, r) },
			func(r Run) (float64, bool) { return r.Totals.Cost, r.Audit.Priced > 0 }},
		{"cost, prefix kept (audit)", func(r Run) string { return m(r.Audit.Kept, r) }, nil},
		{"lost to the breaks (audit)", func(r Run) string { return m(r.Audit.LostCost, r) }, nil},
	}
}

func pct(p Percentiles) string {
	if p.N == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f / %.1f / %.1f", p.P50, p.P90, p.P99)
}

// note is what the per-request table says of a row beside its figures: why it has none, why
// the prediction is off, or how the audit saw it.
func note(r Row) string {
	switch {
	case r.Why != "":
		return r.Why
	case r.Off != "":
		return "off: " + string(r.Off)
	}
	return string(r.Cause)
}

// WriteTable writes the runs side by side (and each request with verbose), then one line per
// variant saying what the rule saves.
func WriteTable(w io.Writer, r *Result, verbose bool) error {
	width := table.Width(w)
	for _, h := range Headline(r) {
		fmt.Fprintln(w, term.Words(h, width, "  "))
	}
	if verbose && len(r.Runs) > 0 {
		if err := writeRequests(w, r); err != nil {
			return err
		}
	}
	if len(r.Runs) > 0 && len(r.Runs[0].Sessions) > 0 {
		if err := writeSessions(w, r); err != nil {
			return err
		}
	}
	// The runs side by side (layout.go).
	if err := writeSheet(w, makeSheet(r, summaryLines(r))); err != nil {
		return err
	}
	if r.Predictor != "" {
		fmt.Fprintln(w, term.Words("predicted with "+r.Predictor, width, "  "))
	}
	for _, s := range Summaries(r) {
		fmt.Fprintln(w, term.Line(w, s))
	}
	return nil
}

// writeRequests is -v's table: every request of every run side by side, then what each row's
// note said in full.
func writeRequests(w io.Writer, r *Result) error {
	t := table.New(w, 0)
	head := []any{"N", "Seq"}
	if len(r.Runs[0].Sessions) > 0 {
		head = []any{"session", "N", "Seq"}
	}
	promptMS := "prompt ms"
	if r.Simulated {
		promptMS = "prompt ms (modelled)"
	}
	for _, run := range r.Runs {
		head = append(head, run.Name+" TTFT ms", promptMS, "cached/prompt", "predicted", "reusable", "note")
	}
	t.Header(head...)
	var notes []string
	for i := range r.Runs[0].Rows {
		first := r.Runs[0].Rows[i]
		cells := []any{first.N, first.Seq}
		if len(r.Runs[0].Sessions) > 0 {
			cells = []any{first.Session, first.N, first.Seq}
		}
		for _, run := range r.Runs {
			if i >= len(run.Rows) {
				cells = append(cells, "", "", "", "", "", "")
				continue
			}
			row := run.Rows[i]
			cached := "—"
			if row.Usage.CachedTokens != nil {
				cached = fmt.Sprint(*row.Usage.CachedTokens)
			}
			prompt := "—"
			if row.Usage.PromptTokens != nil {
				prompt = fmt.Sprint(*row.Usage.PromptTokens)
			}
			ttft, pms := fmt.Sprintf("%.1f", ms(row.TTFT)), "—"
			if row.Error != "" {
				ttft = "—"
			}
			if row.Usage.PromptMS != nil {
				pms = fmt.Sprintf("%.1f", *row.Usage.PromptMS)
			}
			pred := "—"
			switch {
			case row.Predicted != nil:
				pred = fmt.Sprint(*row.Predicted)
			case row.simRefused:
				pred = "refused"
			}
			cells = append(cells, ttft, pms, cached+"/"+prompt, pred, row.Reusable, table.Cut(note(row), 60))
			if row.Why != "" || row.Detail != "" {
				what := row.Why
				if row.Detail != "" {
					what = strings.TrimPrefix(row.Detail, "not predicted: ")
					if row.Off != "" {
						what = string(row.Off) + ": " + row.Detail
					}
				}
				at := fmt.Sprintf("%s request %d", run.Name, row.N)
				if row.Session > 0 {
					at = fmt.Sprintf("%s session %d request %d", run.Name, row.Session, row.N)
				}
				notes = append(notes, at+": "+what)
			}
		}
		if err := t.Append(cells...); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

// writeSessions is the table of sessions, with several: each one's cached share, its agreement
// with the prediction and its time percentiles, run by run.
func writeSessions(w io.Writer, r *Result) error {
	t := table.New(w, 2)
	t.Header("run", "session", "requests", "errors", "cached share", "predicted exact", "TTFT ms p50 / p90 / p99",
		"prompt ms p50 / p90 / p99")
	for _, run := range r.Runs {
		rows := append([]SessionTotals(nil), run.Sessions...)
		all := SessionTotals{Totals: run.Totals, TTFT: run.TTFT, PromptMS: run.PromptMS}
		for i, s := range append(rows, all) {
			name := fmt.Sprint(s.Session)
			if i == len(rows) {
				name = "all"
			}
			share := "—"
			if s.Totals.Prompt > 0 {
				share = table.Percent(float64(s.Totals.Cached) / float64(s.Totals.Prompt))
			}
			exact := "—"
			if s.Totals.Compared > 0 {
				exact = fmt.Sprintf("%d of %d", s.Totals.Exact, s.Totals.Compared)
			}
			if err := t.Append(run.Name, name, s.Totals.Requests, s.Totals.Errors, share, exact, pct(s.TTFT),
				pct(s.PromptMS)); err != nil {
				return err
			}
		}
	}
	return t.Render()
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
	out = append(out, fmt.Sprintf("%s\t%s\tbaseline: %d requests, %s, %s ms reading prompts, %s ms in all", status(b),
		r.File, b.Totals.Requests, share(b), table.Decimal(b.Totals.PromptMS, 1), table.Decimal(b.Totals.TotalMS, 1)))
	for _, v := range r.Runs[1:] {
		if r.Simulated {
			// Modelled prompt times compare; the fake's wall times on loopback do not.
			out = append(out, fmt.Sprintf("%s\t%s\t%s: %s (baseline %s); prompt reading %s the baseline's (modelled)",
				status(v), r.File, v.Name, share(v), share(b),
				ratio(b.Totals.PromptMS, v.Totals.PromptMS)))
			continue
		}
		out = append(out, fmt.Sprintf("%s\t%s\t%s: %s (baseline %s); prompt reading %s, total time %s the baseline's",
			status(v), r.File, v.Name, share(v), share(b),
			ratio(b.Totals.PromptMS, v.Totals.PromptMS), ratio(b.Totals.TotalMS, v.Totals.TotalMS)))
	}
	if reason := why(r); reason != "" {
		out[len(out)-1] += "; " + reason
	}
	return out
}

// WriteJSON writes JSON lines: {"type":"row",…} per request of each run, then {"type":"run",…}
// per run, then the footer every command ends its JSON with (Footer).
func WriteJSON(w io.Writer, r *Result) error {
	enc := jsonx.NewEncoder(w)
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
			Type        string              `json:"type"`
			File        string              `json:"file"`
			Server      string              `json:"server"`
			Tokenizer   string              `json:"tokenizer"`
			LlamaServer *replay.LlamaServer `json:"llama_server,omitempty"`
			Predictor   string              `json:"predictor,omitempty"`
			Efficiency  *float64            `json:"efficiency,omitempty"`
			Run
		}{"run", r.File, r.Server, r.Tokenizer, r.LlamaServer, r.Predictor, e, run}); err != nil {
			return err
		}
	}
	return enc.Encode(Footer(r))
}

// Footer is the bench's JSON footer (format.Footer): its status, the runs, requests and failed
// requests counted, and why when it is not ok. A bench stopped by Ctrl-C or SIGTERM is
// interrupted (its Stopped is the context's error).
func Footer(r *Result) format.Footer {
	n := map[string]int{"runs": len(r.Runs), "requests": 0, "errors": 0}
	for _, run := range r.Runs {
		n["requests"] += run.Totals.Requests
		n["errors"] += run.Totals.Errors
	}
	why := why(r)
	if Status(r) == format.Failed {
		why = fmt.Sprintf("%d request(s) failed", n["errors"])
	}
	interrupted := strings.Contains(r.Stopped, context.Canceled.Error())
	return format.NewFooter(Status(r), interrupted, n, why)
}

// WriteMarkdown writes the side-by-side summary as a markdown table.
func WriteMarkdown(w io.Writer, r *Result) error {
	fmt.Fprintf(w, "## %s Cache bench: `%s` against %s\n\n", Status(r).Icon(), r.File, r.Server)
	for _, h := range Headline(r) {
		fmt.Fprintf(w, "%s\n\n", h)
	}
	fmt.Fprintf(w, "Tokenizer for the predictions: %s.\n\n", r.Tokenizer)
	// The table's cells (layout.go), notes and all.
	sh := makeSheet(r, summaryLines(r))
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
