package recdiff

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/table"
	"github.com/LLeMbas/lembas-check/internal/term"
)

// Formats are the formats a comparison is written in, the table first.
var Formats = format.Formats[*Report]{
	{Name: "table", Write: WriteTable},
	{Name: "json", About: "JSON lines", Write: func(w io.Writer, r *Report, _ bool) error { return WriteJSON(w, r) }},
	{Name: "markdown", Write: func(w io.Writer, r *Report, _ bool) error { return WriteMarkdown(w, r) }},
	{Name: "html", About: "a page", Write: func(w io.Writer, r *Report, _ bool) error { return WriteHTML(w, r) }},
}

// Summary is the report's last line: its Status's word, then the counts in words.
func Summary(r *Report) string {
	t := r.Totals
	s := fmt.Sprintf("%s\t%s vs %s\t%s (%s): %s; %s of %s tokens shared (%s)", Status(r).Word(), r.A.File,
		r.B.File, pairs(t.Pairs), r.Pairing, counts(t), table.Count(t.SharedTokens), table.Count(t.PromptTokens),
		table.Percent(t.SharedShare))
	if t.LostCost != nil {
		s += fmt.Sprintf(", %s lost to the differences", money(r, *t.LostCost))
	}
	if t.Unpaired > 0 {
		s += fmt.Sprintf("; %d request(s) unpaired", t.Unpaired)
	}
	s += fmt.Sprintf("; each keeps of its own prefix: a %s, b %s", table.Percent(r.A.Audit.ReusableShare),
		table.Percent(r.B.Audit.ReusableShare))
	switch {
	case r.A.Requests == 0:
		s += "; " + r.A.File + " holds no prompt request"
	case r.B.Requests == 0:
		s += "; " + r.B.File + " holds no prompt request"
	}
	return s
}

// counts are the pairs by verdict, the worst first: "2 break the prefix, 1 differs, 6 cosmetic".
func counts(t Totals) string {
	var parts []string
	for _, c := range []struct {
		n    int
		word string
	}{{t.Breaks, "break the cached prefix"}, {t.Differs, "differ elsewhere"}, {t.Cosmetic, "cosmetic"}, {t.Same,
		"same"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.word))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// pairs is a count of pairs in words: "1 pair", "6 pairs".
func pairs(n int) string {
	if n == 1 {
		return "1 pair"
	}
	return fmt.Sprintf("%d pairs", n)
}

func money(r *Report, v float64) string {
	if r.Currency == "USD" {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("%.4f %s", v, r.Currency)
}

// cosmeticText lists a pair's cosmetic differences: "ids 3, headers 2".
func cosmeticText(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// pairBlock writes one pair that differs the way `go test` writes a failure.
func pairBlock(w io.Writer, p Pair) {
	word := map[string]string{Breaks: "--- BREAKS:", Differs: "--- DIFFERS:", Cosmetic: "--- COSMETIC:",
		Same: "--- SAME:"}[p.Verdict]
	fmt.Fprintf(w, "%s pair %d: a request %d (line %d) vs b request %d (line %d): %s of %s tokens shared",
		term.Word(w, word), p.N, p.A.Seq, p.A.Line, p.B.Seq, p.B.Line, table.Count(p.SharedTokens),
		table.Count(p.PromptTokens))
	if p.LostTokens > 0 {
		fmt.Fprintf(w, ", %s lost", table.Count(p.LostTokens))
	}
	fmt.Fprintln(w)
	for _, d := range p.Differences {
		fmt.Fprintf(w, "    %s at %s: %s%s%s\n", d.Kind, d.Path, d.Detail, tokensText(d), restText(d))
		if d.Change != nil {
			if d.Change.Old != "" {
				fmt.Fprintf(w, "      %s\n", term.Diff(w, "- "+d.Change.Old))
			}
			if d.Change.New != "" {
				fmt.Fprintf(w, "      %s\n", term.Diff(w, "+ "+d.Change.New))
			}
		}
	}
	if len(p.Cosmetic) > 0 {
		fmt.Fprintf(w, "    cosmetic: %s\n", cosmeticText(p.Cosmetic))
	}
}

// tokensText is what a differing part weighs, for a detail: " (120 → 80 tokens)".
func tokensText(d Difference) string {
	if d.TokensA == 0 && d.TokensB == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s → %s tokens)", table.Count(d.TokensA), table.Count(d.TokensB))
}

// restText says how many messages after a rewritten one were not compared.
func restText(d Difference) string {
	if d.Rest == 0 {
		return ""
	}
	return fmt.Sprintf("; the %d message(s) after it are not compared", d.Rest)
}

// WriteTable writes what a person reads: each pair that differs structurally (with -v, the
// cosmetic ones too), the requests left unpaired, the changes grouped, and one line.
func WriteTable(w io.Writer, r *Report, verbose bool) error {
	for _, p := range r.Pairs {
		if p.Verdict == Breaks || p.Verdict == Differs || verbose && p.Verdict == Cosmetic {
			pairBlock(w, p)
		}
	}
	for _, u := range r.Unpaired {
		fmt.Fprintf(w, "--- UNPAIRED: %s request %d (line %d), %s tokens: %s\n", u.Side, u.Seq, u.Line,
			table.Count(u.PromptTokens), u.Why)
	}
	if len(r.Changes) > 0 {
		t := table.New(w, 3)
		head := []any{"Kind", "Path", "Change", "Pairs", "Lost tokens"}
		priced := r.Totals.LostCost != nil
		if priced {
			head = append(head, "Lost "+r.Currency)
		}
		t.Header(head...)
		for _, c := range r.Changes {
			row := []any{c.Kind, c.Path, table.Cut(c.Detail, 60), len(c.Pairs), table.Count(c.LostTokens)}
			if priced {
				row = append(row, costCell(r, c.LostCost))
			}
			if err := t.Append(row...); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, term.Line(w, Summary(r)))
	return nil
}

func costCell(r *Report, v *float64) string {
	if v == nil {
		return ""
	}
	return money(r, *v)
}

// WriteJSON writes JSON lines: a {"type":"side",…} per recording, a {"type":"pair",…} per pair, an
// {"type":"unpaired",…} per request left unpaired, a {"type":"change",…} per distinct change,
// then {"type":"totals",…} and the footer every command ends its JSON with (format.Footer).
func WriteJSON(w io.Writer, r *Report) error {
	enc := jsonx.NewEncoder(w)
	for i, s := range []Side{r.A, r.B} {
		if err := enc.Encode(struct {
			Type string `json:"type"`
			Name string `json:"side"`
			Side
		}{"side", []string{"a", "b"}[i], s}); err != nil {
			return err
		}
	}
	for _, p := range r.Pairs {
		if err := enc.Encode(struct {
			Type string `json:"type"`
			Pair
		}{"pair", p}); err != nil {
			return err
		}
	}
	for _, u := range r.Unpaired {
		if err := enc.Encode(struct {
			Type string `json:"type"`
			Unpaired
		}{"unpaired", u}); err != nil {
			return err
		}
	}
	for _, c := range r.Changes {
		if err := enc.Encode(struct {
			Type string `json:"type"`
			Change
		}{"change", c}); err != nil {
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

// Footer is the comparison's JSON footer: its status, the pairs by verdict, and why when it is not
// ok.
func Footer(r *Report) format.Footer {
	t := r.Totals
	why := ""
	switch Status(r) {
	case format.Unfinished:
		why = "a side holds no prompt request"
	case format.Failed:
		why = fmt.Sprintf("%d pair(s) differ where a prompt cache sees it", t.Breaks)
	}
	return format.NewFooter(Status(r), false, map[string]int{"pairs": t.Pairs, "breaks": t.Breaks,
		"differs": t.Differs, "cosmetic": t.Cosmetic, "same": t.Same, "unpaired": t.Unpaired}, why)
}

// WriteMarkdown writes the comparison for a pull request or a job summary.
func WriteMarkdown(w io.Writer, r *Report) error {
	st := Status(r)
	t := r.Totals
	fmt.Fprintf(w, "## Two recordings: `%s` vs `%s`\n\n%s **%s** %s (%s): %s. They share **%s** of %s "+
		"prompt tokens (%s). Each keeps of its own prefix: a %s, b %s. Tokenizer: %s.\n\n", r.A.File, r.B.File,
		st.Icon(), st.Word(), pairs(t.Pairs), r.Pairing, counts(t), table.Count(t.SharedTokens),
		table.Count(t.PromptTokens),
		table.Percent(t.SharedShare), table.Percent(r.A.Audit.ReusableShare), table.Percent(r.B.Audit.ReusableShare),
		r.Tokenizer)
	if t.LostCost != nil {
		fmt.Fprintf(w, "Lost to the differences, over reading from the cache: **%s**.\n\n", money(r, *t.LostCost))
	}
	if len(r.Changes) > 0 {
		fmt.Fprintln(w,
			"| Kind | Path | Change | Pairs | Lost tokens | Changes the prefix |\n|---|---|---|---:|---:|---|")
		for _, c := range r.Changes {
			yes := "no"
			if c.Prefix {
				yes = "yes"
			}
			fmt.Fprintf(w, "| %s | `%s` | %s | %d | %s | %s |\n", c.Kind, c.Path, format.MarkdownCell(c.Detail),
				len(c.Pairs), table.Count(c.LostTokens), yes)
		}
		fmt.Fprintln(w, "\nA pair's lost tokens are counted on its first change to the prefix.")
		fmt.Fprintln(w)
	}
	for _, u := range r.Unpaired {
		fmt.Fprintf(w, "- unpaired: %s request %d (line %d): %s\n", u.Side, u.Seq, u.Line, u.Why)
	}
	fmt.Fprintln(w, "\n<details><summary>Every pair</summary>\n\n| Pair | a | b | Verdict | Shared | Lost | "+
		"First difference | Cosmetic |\n|---:|---:|---:|---|---:|---:|---|---|")
	for _, p := range r.Pairs {
		first := ""
		if len(p.Differences) > 0 {
			first = "`" + p.Differences[0].Path + "` " + format.MarkdownCell(p.Differences[0].Detail)
		}
		fmt.Fprintf(w, "| %d | %d | %d | %s | %s | %s | %s | %s |\n", p.N, p.A.Seq, p.B.Seq, p.Verdict,
			table.Count(p.SharedTokens), table.Count(p.LostTokens), first, cosmeticText(p.Cosmetic))
	}
	fmt.Fprintln(w, "\n</details>")
	return nil
}
