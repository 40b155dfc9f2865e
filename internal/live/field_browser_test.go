package live

import (
	"bytes"
	"context"
	"html"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/browser"
)

// githubCSS is what GitHub's stylesheet does to a rendered markdown file's tables: the text's
// font, a column of 920 px, and tables as blocks no wider than it, scrolled past it.
const githubCSS = `body{margin:0}
.markdown-body{box-sizing:border-box;width:920px;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",
Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;word-wrap:break-word}
.markdown-body table{border-spacing:0;border-collapse:collapse;display:block;width:max-content;max-width:100%;
overflow:auto}
.markdown-body th{font-weight:600}
.markdown-body th,.markdown-body td{padding:6px 13px;border:1px solid #d0d7de}`

// tablesHTML is the markdown's tables as GitHub renders them (the rest of the text left out):
// the first row the header, the second the alignment, a cell's `\|` a pipe.
func tablesHTML(md string) string {
	var b strings.Builder
	in := false
	row := 0
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "|") {
			if in {
				b.WriteString("</table>\n")
			}
			in, row = false, 0
			continue
		}
		if !in {
			b.WriteString("<table>")
			in = true
		}
		row++
		if row == 2 {
			continue
		}
		tag := "td"
		if row == 1 {
			tag = "th"
		}
		cells := strings.Split(strings.ReplaceAll(strings.Trim(l, "|"), `\|`, "\x00"), "|")
		b.WriteString("<tr>")
		for _, c := range cells {
			c = html.UnescapeString(strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
			b.WriteString("<" + tag + ">" + html.EscapeString(c) + "</" + tag + ">")
		}
		b.WriteString("</tr>")
	}
	if in {
		b.WriteString("</table>\n")
	}
	return b.String()
}

// The field report's tables fit GitHub's 920 px column (issue 27: the first was 1,468 px wide,
// 37 % of it behind a scroll, and 1,802 px tall), with the longest cells the real report has.
func TestFieldReportFitsGitHubsColumn(t *testing.T) {
	c, err := browser.Find()
	if err != nil {
		t.Skipf("SKIP: no browser to check the report in: %v", err)
	}
	rows := longestRows()
	var md bytes.Buffer
	if err := WriteFieldReport(&md, rows, "lembas-check live --field-report docs/field-report.md"); err != nil {
		t.Fatal(err)
	}
	page := `<!doctype html><meta charset="utf-8"><style>` + githubCSS + `</style><article class="markdown-body">` +
		tablesHTML(md.String()) + `</article><script>
var out = Array.prototype.map.call(document.querySelectorAll("table"), function (t) {
  var r = {width: t.scrollWidth, shown: t.clientWidth};
  t.style.maxWidth = "none"; // its width with no cell wrapped
  r.natural = t.scrollWidth;
  t.style.maxWidth = "";
  return r;
});
var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>`
	var got []struct{ Width, Shown, Natural int }
	if err := c.Probe(context.Background(), page, 1280, 900, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d tables, want 2: %+v", len(got), got)
	}
	for i, g := range got {
		if g.Width > 920 || g.Width > g.Shown {
			t.Errorf("table %d is %d px wide (%d shown) in GitHub's 920 px column", i+1, g.Width, g.Shown)
		}
	}
	// The first table fits with no cell wrapped: a line per agent (the second's agent names may
	// wrap at their hyphens).
	if n := got[0].Natural; n > 920 {
		t.Errorf("the first table is %d px wide unwrapped: its cells wrap in GitHub's 920 px column", n)
	}
}

// longestRows are ten agents with the longest cells the field report of 2026-11 had.
func longestRows() []FieldRow {
	var rows []FieldRow
	for _, name := range []string{"claude-agent-acp", "claude-code", "claude-code-acp", "cline", "codex", "gemini",
		"lembas-check", "opencode", "pi", "qwen-code"} {
		rows = append(rows, FieldRow{Agent: name, Version: "0.101.0", API: "anthropic messages", Driven: "one-shot",
			DateAt: "first user message", DirAt: "a system message",
			Midnight:   MarkNotChecked + " clock not controlled: under libfaketime its Agent SDK's own claude binary fails",
			Mode:       MarkBroke + " broke: request 8 (after request 6): earlier message rewritten at $.messages[7].content",
			Compaction: MarkHeld + " a new conversation after the compaction: a prefix cache reuses 6,772 of 6,798 tokens",
			Lost:       15194,
			Broke:      MarkBroke + " mode, request 8, earlier message rewritten at `$.messages[7].content`: …",
			Cases: &Cases{Areas: []CaseCount{{"context", 0, 12, "context/8336b324 (fail)"}, {"fs_access", 6, 12, ""},
				{"instructions", 1, 5, ""}, {"prefix", 0, 0, ""}},
				Universal: []CaseCount{{"system prompt held", 35, 36, "prefix/81804e91: request 3 (after request 2)"},
					{"tool list held", 36, 36, ""}, {"nothing rewritten", 33, 36, "prefix/2c36ee95: request 3"}}}})
	}
	return rows
}
