package recdiff

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/browser"
)

// probe runs in the page once it has loaded and writes what a person sees into the DOM: the
// verdict, the changes listed, which pairs are open and what the first open one shows, and
// whether the page fits its width.
const probe = `<script>
(function () {
  var out = {};
  out.verdict = document.getElementById("verdict").innerText;
  var paths = document.querySelectorAll("#changes tr td:nth-child(2)");
  out.changes = Array.prototype.map.call(paths, function (td) { return td.innerText; });
  out.open = document.querySelectorAll("details.pair[open]").length;
  out.pairs = document.querySelectorAll("details.pair").length;
  var first = document.querySelector("details.pair[open]");
  if (first) {
    out.firstText = first.innerText;
    var bar = first.querySelectorAll("summary svg rect");
    out.bar = Array.prototype.map.call(bar, function (r) { return r.getBoundingClientRect().width; });
  }
  out.fits = document.documentElement.scrollWidth <= window.innerWidth;
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

var updateDocs = flag.Bool("update-docs", false, "write the screenshot docs/audit.md shows (docs/img) from the browser check")

type probeResult struct {
	Verdict   string
	Changes   []string
	Open      int
	Pairs     int
	FirstText string
	Bar       []float64
	Fits      bool
}

func openPage(t *testing.T, c browser.Chromium, r *Report) probeResult {
	t.Helper()
	var b strings.Builder
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	var out probeResult
	page := strings.Replace(b.String(), "</body>", probe+"\n</body>", 1)
	if err := c.Probe(context.Background(), page, 1280, 900, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// The page as a person sees it in Chromium: for two versions of a harness, the verdict says FAIL
// and names the first change, the changes are listed by path, every pair that breaks is open on
// its differences with a bar that is mostly lost; for a recording against itself, ok and no pair
// open.
func TestPageInABrowser(t *testing.T) {
	c, err := browser.Find()
	if err != nil {
		t.Skipf("SKIP: no browser to check the page in: %v", err)
	}
	rep := run(t, recordings+"clean.jsonl", recordings+"date-in-system.jsonl")
	r := openPage(t, c, rep)
	if !strings.HasPrefix(r.Verdict, "FAIL: 6 pairs: 6 break the cached prefix\n") ||
		!strings.Contains(r.Verdict, "first: system at $.messages[0].content") {
		t.Errorf("verdict %q", r.Verdict)
	}
	if strings.Join(r.Changes, " ") != "$.messages[0].content $.messages[1].content" || r.Open != 6 || r.Pairs != 6 {
		t.Errorf("changes %q, %d of %d pairs open", r.Changes, r.Open, r.Pairs)
	}
	if !strings.Contains(r.FirstText, "- …") || !strings.Contains(r.FirstText, "Today is <time>.") ||
		!strings.Contains(r.FirstText, "(the first prefix change)") {
		t.Errorf("the first open pair shows %q", r.FirstText)
	}
	if len(r.Bar) != 3 || r.Bar[0] != 240 || r.Bar[1] > 10 || r.Bar[2] < 200 || !r.Fits {
		t.Errorf("the bar's rects %v (whole, shared, lost); fits %v", r.Bar, r.Fits)
	}
	same := openPage(t, c, run(t, recordings+"clean.jsonl", recordings+"clean.jsonl"))
	if !strings.HasPrefix(same.Verdict, "ok: 6 pairs: 6 same\n") || same.Open != 0 || len(same.Changes) != 0 {
		t.Errorf("against itself: %+v", same)
	}

	var page strings.Builder
	if err := WriteHTML(&page, rep); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(file, []byte(page.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(t.TempDir(), "page.png")
	if *updateDocs {
		png = "../../../docs/img/diff-recordings.png"
	}
	url, _ := browser.FileURL(file, "")
	if err := c.Screenshot(context.Background(), url, png, 1280, 1000); err != nil {
		t.Fatal(err)
	}
}
