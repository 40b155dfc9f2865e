package audit

import (
	"fmt"
	"io"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/term"
)

// Formats are the formats an audit is written in, the table first.
var Formats = format.Formats[*Report]{
	{Name: "table", Write: WriteTable},
	{Name: "json", About: "JSON lines", Write: func(w io.Writer, r *Report, _ bool) error { return WriteJSON(w, r) }},
	{Name: "markdown", Write: func(w io.Writer, r *Report, _ bool) error { return WriteMarkdown(w, r) }},
	{Name: "svg", About: "the chart", Write: func(w io.Writer, r *Report, _ bool) error { return WriteSVG(w, r) }},
}

// Write writes a report in one of Formats. verbose lists every request in the table.
func Write(w io.Writer, r *Report, name string, verbose bool) error {
	return Formats.Write(w, name, r, verbose)
}

// Status is how the audit ended: unfinished when the recording is damaged (what follows the damage
// was not audited) or holds no request to audit (the agent never reached the fake), failed on a
// break the spec does not allow, else ok.
func Status(r *Report) format.Status {
	switch {
	case r.Damage != "" || r.Totals.Requests == 0:
		return format.Unfinished
	case r.Failed():
		return format.Failed
	}
	return format.OK
}

// NoRequest says what a report with no request to audit lacks.
func NoRequest(r *Report) string {
	if r.Totals.Requests > 0 {
		return ""
	}
	if len(r.Unreadable) > 0 {
		return "no request the audit can read"
	}
	return "no request: did the agent reach the fake?"
}

func pct(f float64) string { return table.Percent(f) }

// money writes an amount in the report's currency.
func money(r *Report, v float64) string {
	if r.Currency == "USD" {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("%.4f %s", v, r.Currency)
}

// breakBlock writes one break the way `go test` writes a failure.
func breakBlock(w io.Writer, q Request) {
	verdict := "BREAK"
	if !q.Fails {
		verdict = "ALLOWED"
	}
	if q.Continues == 0 {
		fmt.Fprintf(w, "--- %s: request %d (line %d), conversation %d, a new one: %s\n", verdict, q.Seq, q.Line,
			q.Conversation, q.Cause)
	} else {
		fmt.Fprintf(w, "%s request %d (line %d), conversation %d, continues request %d: %s\n", term.Word(w,
			"--- "+verdict+":"), q.Seq, q.Line, q.Conversation, q.Continues, q.Cause)
	}
	at := "    at " + q.Path
	if q.Detail != "" {
		at += ": " + q.Detail
	}
	if width := table.Width(w); term.DisplayWidth(at) > width {
		at = term.Words(at, width, "      ") // issue 27: 116 columns on a 100-column terminal
	}
	fmt.Fprintln(w, at)
	if q.Change != nil {
		if q.Change.Old != "" {
			fmt.Fprintf(w, "    %s\n", term.Diff(w, "- "+q.Change.Old))
		}
		if q.Change.New != "" {
			fmt.Fprintf(w, "    %s\n", term.Diff(w, "+ "+q.Change.New))
		}
	}
	fmt.Fprintf(w, "    %s tokens lost: %s of %s reusable\n", table.Count(q.LostTokens), table.Count(q.ReusableTokens),
		table.Count(q.PromptTokens))
}

// Summary is the report's last line: its Status's word, then the totals in words.
func Summary(r *Report) string {
	t := r.Totals
	status := Status(r).Word()
	conv := "conversations"
	if t.Conversations == 1 {
		conv = "conversation"
	}
	s := fmt.Sprintf("%s\t%s\t%d requests, %d %s: %s prompt tokens, %s reusable", status, r.File, t.Requests,
		t.Conversations, conv, table.Count(t.PromptTokens), pct(t.ReusableShare))
	if t.LostTokens > 0 {
		s += fmt.Sprintf(" (%s without the breaks)", pct(t.PossibleShare))
	}
	if t.Priced > 0 {
		s += fmt.Sprintf("; cost %s, %s with the prefix kept (%s lost)", money(r, t.Cost), money(r, t.Kept), money(r,
			t.LostCost))
	}
	switch t.Failing {
	case 0:
	case 1:
		s += "; 1 break fails the audit"
	default:
		s += fmt.Sprintf("; %d breaks fail the audit", t.Failing)
	}
	if r.Damage != "" {
		s += "; the recording is damaged: " + r.Damage
	}
	if why := NoRequest(r); why != "" {
		s += "; " + why
	}
	return s
}

// WriteTable writes what a person reads: each break, a table per request with -v, the cost of each
// cause, and one line.
func WriteTable(w io.Writer, r *Report, verbose bool) error {
	for _, q := range r.Requests {
		if q.Break {
			breakBlock(w, q)
		}
	}
	for _, p := range r.Unreadable {
		fmt.Fprintf(w, "--- SKIP: request %d (line %d): %s\n", p.Seq, p.Line, p.Error)
	}
	if verbose {
		t := table.New(w, 0)
		t.Header("Seq", "Line", "Conv", "Continues", "Cause", "Prompt", "Reusable", "Lost", "Path")
		for _, q := range r.Requests {
			cont := ""
			if q.Continues > 0 {
				cont = fmt.Sprint(q.Continues)
			}
			if err := t.Append(q.Seq, q.Line, q.Conversation, cont, string(q.Cause), table.Count(q.PromptTokens),
				table.Count(q.ReusableTokens), table.Count(q.LostTokens), q.Path); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if verbose {
		for _, l := range placeLines(r) {
			fmt.Fprintln(w, l)
		}
	}
	t := table.New(w, 1)
	priced := r.Totals.Priced > 0
	head := []any{"Cause", "Requests", "Lost tokens", "Share of prompt"}
	if priced {
		head = append(head, "Lost "+r.Currency)
	}
	t.Header(head...)
	for _, c := range Causes {
		ct := r.Totals.ByCause[c]
		if ct == nil {
			continue
		}
		share := ""
		if r.Totals.PromptTokens > 0 && ct.LostTokens > 0 {
			share = pct(float64(ct.LostTokens) / float64(r.Totals.PromptTokens))
		}
		row := []any{string(c), ct.Requests, table.Count(ct.LostTokens), share}
		if priced {
			row = append(row, money(r, ct.LostCost))
		}
		if err := t.Append(row...); err != nil {
			return err
		}
	}
	foot := []any{"all", r.Totals.Requests, table.Count(r.Totals.LostTokens), ""}
	if priced {
		foot = append(foot, money(r, r.Totals.LostCost))
	}
	t.Footer(foot...)
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintln(w, term.Line(w, Summary(r)))
	return nil
}

// WriteJSON writes JSON lines: one {"type":"request",…} per request, then {"type":"totals",…},
// then the footer every command ends its JSON with (format.Footer).
func WriteJSON(w io.Writer, r *Report) error {
	enc := jsonx.NewEncoder(w)
	for _, q := range r.Requests {
		if err := enc.Encode(struct {
			Type string `json:"type"`
			Request
		}{"request", q}); err != nil {
			return err
		}
	}
	if err := enc.Encode(struct {
		Type string `json:"type"`
		*Report
	}{"totals", r}); err != nil {
		return err
	}
	return enc.Encode(Footer(r))
}

// Footer is the audit's JSON footer: its status, the requests, breaks and failing breaks counted,
// and why when it is not ok.
func Footer(r *Report) format.Footer {
	t := r.Totals
	why := ""
	switch Status(r) {
	case format.Unfinished:
		why = NoRequest(r)
		if r.Damage != "" {
			why = "not audited whole: " + r.Damage
		}
	case format.Failed:
		why = fmt.Sprintf("%d break(s) the spec does not allow", t.Failing)
	}
	return format.NewFooter(Status(r), false, map[string]int{"requests": t.Requests, "conversations": t.Conversations,
		"breaks": t.Breaks, "failing": t.Failing}, why)
}

// Lines are a change's two sides as a diff shows them: "- old", "+ new", a side left out when
// empty.
func (c *Change) Lines() string {
	var b strings.Builder
	if c.Old != "" {
		b.WriteString("- " + c.Old + "\n")
	}
	if c.New != "" {
		b.WriteString("+ " + c.New + "\n")
	}
	return b.String()
}

// withWord is a markdown status with its word beside its emoji ("✅ **ok** no break …"), so that
// it is read where an emoji is not (issue 27: the verdict was an emoji alone).
func withWord(status string, s format.Status) string {
	icon, rest, _ := strings.Cut(status, " ")
	return icon + " **" + s.Word() + "** " + rest
}

// WriteMarkdown writes the report for a pull request or a job summary.
func WriteMarkdown(w io.Writer, r *Report) error {
	t := r.Totals
	status := "✅ no break the spec does not allow"
	switch Status(r) {
	case format.Failed:
		status = fmt.Sprintf("❌ %d break(s) the spec does not allow", t.Failing)
	case format.Unfinished:
		status = "⚠️ not audited whole"
		if why := NoRequest(r); why != "" {
			status = "⚠️ " + why
		}
	}
	fmt.Fprintf(w,
		"## Prefix audit: `%s`\n\n%s. %d requests in %d conversation(s), %s prompt tokens; a prefix cache could "+
			"reuse **%s** of them (%s without the breaks). Tokenizer: %s.\n\n",
		r.File, withWord(status, Status(r)), t.Requests, t.Conversations, table.Count(t.PromptTokens),
		pct(t.ReusableShare), pct(t.PossibleShare), r.Tokenizer)
	if r.Damage != "" {
		fmt.Fprintf(w, "> The recording is damaged: %s\n\n", r.Damage)
	}
	if t.Priced > 0 {
		fmt.Fprintf(w, "Cost at %s prices (%s): **%s**; with the prefix kept: %s; lost to the breaks: **%s**.\n\n",
			r.Currency, r.Prices, money(r, t.Cost), money(r, t.Kept), money(r, t.LostCost))
		fmt.Fprintln(w, "| Cause | Requests | Lost tokens | Lost "+r.Currency+" |\n|---|---:|---:|---:|")
	} else {
		fmt.Fprintln(w, "| Cause | Requests | Lost tokens |\n|---|---:|---:|")
	}
	for _, c := range Causes {
		if ct := t.ByCause[c]; ct != nil {
			if t.Priced > 0 {
				fmt.Fprintf(w, "| %s | %d | %s | %s |\n", c, ct.Requests, table.Count(ct.LostTokens), money(r,
					ct.LostCost))
			} else {
				fmt.Fprintf(w, "| %s | %d | %s |\n", c, ct.Requests, table.Count(ct.LostTokens))
			}
		}
	}
	writeMarkdownBreaks(w, r)
	if lines := placeLines(r); len(lines) > 0 {
		fmt.Fprint(w, "\n### Breakpoints and the date\n\n")
		for _, l := range lines {
			fmt.Fprintln(w, "- "+l)
		}
	}
	writeMarkdownRequests(w, r)
	return nil
}

// writeMarkdownBreaks writes the table of breaks and each one's changed text, when there are any.
func writeMarkdownBreaks(w io.Writer, r *Report) {
	var breaks []Request
	for _, q := range r.Requests {
		if q.Break {
			breaks = append(breaks, q)
		}
	}
	if len(breaks) > 0 {
		fmt.Fprintln(w,
			"\n### Breaks\n\n| Request | Line | Cause | Path | What | Lost tokens |\n|---:|---:|---|---|---|---:|")
		for _, q := range breaks {
			cause := string(q.Cause) + " (fails)"
			if !q.Fails {
				cause = string(q.Cause) + " (allowed)"
			}
			fmt.Fprintf(w, "| %d | %d | %s | `%s` | %s | %s |\n", q.Seq, q.Line, cause, q.Path,
				format.MarkdownCell(q.Detail), table.Count(q.LostTokens))
		}
		// The changed text, as the table shows it: what a reviewer needs to see the cause.
		for _, q := range breaks {
			if q.Change == nil || q.Change.Old == "" && q.Change.New == "" {
				continue
			}
			fmt.Fprintf(w, "\nRequest %d, at `%s`:\n\n%s\n", q.Seq, q.Path, format.MarkdownFence("diff",
				q.Change.Lines()))
		}
	}
}

// writeMarkdownRequests writes every request's row, folded under a details element.
func writeMarkdownRequests(w io.Writer, r *Report) {
	fmt.Fprintln(w,
		"\n<details><summary>Every request</summary>\n\n| Request | Conversation | Continues | Cause | Prompt | "+
			"Reusable | Lost |\n|---:|---:|---:|---|---:|---:|---:|")
	for _, q := range r.Requests {
		// A request that starts a conversation continues none: "—", not request 0.
		cont := "—"
		if q.Continues > 0 {
			cont = fmt.Sprint(q.Continues)
		}
		fmt.Fprintf(w, "| %d | %d | %s | %s | %s | %s | %s |\n", q.Seq, q.Conversation, cont, q.Cause,
			table.Count(q.PromptTokens), table.Count(q.ReusableTokens), table.Count(q.LostTokens))
	}
	fmt.Fprintln(w, "\n</details>")
}

// placeLines say where each conversation's requests carry their breakpoints and the date: for
// its first request, and for each request where either moved.
func placeLines(r *Report) []string {
	type last struct{ marks, date string }
	seen := map[int]*last{}
	var out []string
	for _, q := range r.Requests {
		marks := strings.Join(q.Breakpoints, ", ")
		l := seen[q.Conversation]
		if l != nil && l.marks == marks && l.date == q.DateAt {
			continue
		}
		seen[q.Conversation] = &last{marks, q.DateAt}
		if marks == "" && q.DateAt == "" {
			continue
		}
		var parts []string
		if marks != "" {
			parts = append(parts, "breakpoints "+marks)
		}
		if q.DateAt != "" {
			parts = append(parts, "the date at "+q.DateAt)
		}
		out = append(out, fmt.Sprintf("request %d (conversation %d): %s", q.Seq, q.Conversation, strings.Join(parts,
			"; ")))
	}
	return out
}
