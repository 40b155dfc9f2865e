package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

func details(i, size int) string {
	return fmt.Sprintf("<details><summary><code>case/%d</code></summary>\n\n%s\n\n</details>\n\n", i, strings.Repeat("x", size))
}

// Past the budget the summary keeps its head and the first failures whole, and counts the rest.
func TestCapMarkdown(t *testing.T) {
	head := "## ❌ run\n\n| Area | Fail |\n|---|--:|\n| **all** | **100** |\n\n"
	var md strings.Builder
	md.WriteString(head)
	for i := range 100 {
		md.WriteString(details(i, 1000))
	}
	write := func(w io.Writer) error { _, err := io.WriteString(w, md.String()); return err }
	for _, c := range []struct {
		budget, shown int
	}{
		{1 << 20, 100}, // under the budget: as written
		{20_000, 18},
		{len(head) + 250, 0}, // no failure fits
	} {
		var out bytes.Buffer
		if err := capMarkdown(&out, c.budget, "r.xml", write); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		shown := strings.Count(got, "</details>")
		if out.Len() > max(c.budget, len(head)+400) || shown != c.shown || !strings.HasPrefix(got, head) {
			t.Errorf("budget %d: %d bytes, %d shown, want %d:\n%s", c.budget, out.Len(), shown, c.shown, got[:min(300, len(got))])
		}
		if c.shown < 100 && !strings.HasSuffix(got, fmt.Sprintf("**%d more failures not shown: this summary is kept under 480 KiB "+
			"(GitHub drops a step summary over 1 MiB); all of them are in `r.xml`.**\n", 100-c.shown)) {
			t.Errorf("budget %d: ends %q", c.budget, got[max(0, len(got)-200):])
		}
	}
}

// A head alone over the budget (thousands of listed cases) is cut at a line, and says so.
func TestCapMarkdownLongHead(t *testing.T) {
	md := "## ❌ diff\n\n" + strings.Repeat("| `case/x` | fail |\n", 10_000)
	var out bytes.Buffer
	if err := capMarkdown(&out, 50_000, "", func(w io.Writer) error { _, err := io.WriteString(w, md); return err }); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if out.Len() > 50_000 || !strings.HasSuffix(got, "the full report: the report in another format (`--format junit` or `--format json`, `--out FILE`).**\n") {
		t.Errorf("%d bytes, ends %q", out.Len(), got[max(0, len(got)-200):])
	}
}
