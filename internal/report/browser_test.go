package report

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
	"github.com/LLeMbas/lembas-check/internal/browser"
	"github.com/LLeMbas/lembas-check/runner"
)

var updateDocs = flag.Bool("update-docs", false, "write the screenshots docs/ shows (docs/img) from the browser check")

// altered is the reference changed the ways two real implementations differ from it and from
// each other: areas not wired, a few answers of their own, a crash.
type altered struct {
	name, version string
	skip          map[string]bool
	answer        func(c conformance.Case, o runner.Outcome) runner.Outcome
}

func (t altered) Start(ctx context.Context) (runner.TargetInfo, error) {
	info, _ := runner.Builtin{}.Start(ctx)
	info.Kind, info.Implementation.Name, info.Implementation.Version, info.Areas = "adapter", t.name, t.version, nil
	for _, a := range conformance.All() {
		if !t.skip[a.Name] {
			info.Areas = append(info.Areas, a.Name)
		}
	}
	return info, nil
}

func (t altered) Answer(ctx context.Context, c conformance.Case) runner.Outcome {
	return t.answer(c, runner.Builtin{}.Answer(ctx, c))
}

func (altered) Close() error { return nil }

// rewrite changes every string of an answer with f.
func rewrite(o runner.Outcome, f func(string) string) runner.Outcome {
	var v any
	if json.Unmarshal(o.Answer, &v) != nil {
		return o
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return f(x)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	o.Answer, _ = json.Marshal(walk(v))
	return o
}

func replace(old, new string) func(string) string {
	return func(s string) string { return strings.Replace(s, old, new, 1) }
}

// cliAndServer runs the embedded suite through two altered references, as a diff of a CLI and a
// server would see them: each gets a few cases wrong its own way, both one case, and each leaves
// areas unwired, and both share one bug.
func cliAndServer(t *testing.T) (cli, server *runner.Report) {
	t.Helper()
	cases := conformancetest.All(t)
	jobs := conformancetest.Cases(t, conformance.Jobs)
	const hunks, crlf, dated, roots = "context/edc805c8", "chunk/134b9ada", "prefix/2c36ee95", "workspace/69ad438c"
	shared := jobs[2].ID // the same wrong answer on both sides
	cliT := altered{name: "LLeMbas CLI", version: "2.4.0", skip: map[string]bool{"index": true, "search": true}, answer: func(c conformance.Case, o runner.Outcome) runner.Outcome {
		switch c.ID {
		case hunks:
			return rewrite(o, replace("@@ -15,6 +15,6 @@", "@@ -15,7 +15,7 @@"))
		case jobs[0].ID:
			return rewrite(o, replace("\nOutput you had not read:\n", "\nUnread output:\n"))
		case dated:
			return rewrite(o, replace("Today is", "The date is"))
		case shared:
			return rewrite(o, replace("finished", "ended"))
		case roots:
			return runner.Outcome{Verdict: runner.Crashed, Message: "exited (exit status 1)", Stderr: "TypeError: cannot read properties of undefined (reading 'root')\n    at newSession (src/workspace.ts:88:21)\n"}
		}
		return o
	}}
	serverT := altered{name: "LLeMbas server", version: "3.1.0", skip: map[string]bool{"modules": true}, answer: func(c conformance.Case, o runner.Outcome) runner.Outcome {
		switch c.ID {
		case crlf:
			return rewrite(o, replace("CRLF\n", "CRLF\r\n"))
		case jobs[1].ID:
			return rewrite(o, replace(" you started", ""))
		case dated:
			return rewrite(o, replace("2026-11-04", "4 November 2026"))
		case shared:
			return rewrite(o, replace("finished", "ended"))
		}
		return o
	}}
	ctx := context.Background()
	var err error
	if cli, err = runCases(ctx, cliT, cases, runner.Options{}); err != nil {
		t.Fatal(err)
	}
	if server, err = runCases(ctx, serverT, cases, runner.Options{}); err != nil {
		t.Fatal(err)
	}
	return cli, server
}

// probe runs in the page once it has loaded, as a person would use it, and writes what it found
// into the DOM for --dump-dom: the verdict, the disagreements listed, what the "disagree" filter
// leaves visible, and the case a listed disagreement opens.
const probe = `<script>
(function () {
  var out = {};
  var v = document.getElementById("verdict");
  out.verdict = v ? v.innerText : "";
  out.listed = document.querySelectorAll("#disagreements table.list tr td:first-child a").length;
  out.backs = Array.prototype.map.call(document.querySelectorAll("#disagreements td:nth-child(2)"), function (td) { return td.innerText; });
  out.bothWrong = document.querySelectorAll("#bothwrong table.list tr td:first-child a").length;
  out.notCompared = Array.prototype.map.call(document.querySelectorAll("#notcompared td:nth-child(2)"), function (td) { return td.innerText; });
  out.filters = Array.prototype.map.call(document.querySelectorAll("#filters label"), function (l) { return l.innerText; });
  function seen(sel) {
    var c = document.querySelector(sel);
    return c ? parseFloat(getComputedStyle(c).opacity) : -1;
  }
  document.querySelector('label[for="f-disagree"]').click();
  out.filtered = {agree: seen(".cell.agree"), disagree: seen(".cell.disagree"), only: seen(".cell.only")};
  document.querySelector('label[for="f-bothwrong"]').click();
  out.bothWrongFiltered = {bothwrong: seen(".cell.bothwrong"), disagree: seen(".cell.disagree")};
  document.querySelector('label[for="f-all"]').click();
  out.unfiltered = seen(".cell.agree");
  out.firstLines = Array.prototype.map.call(document.querySelectorAll("#disagreements code.first"),
    function (c) { return c.innerText; });
  out.marks = {};
  document.querySelectorAll(".cells a.cell").forEach(function (c) {
    var k = c.classList[1], m = c.innerText;
    out.marks[k] = out.marks[k] || [];
    if (out.marks[k].indexOf(m) < 0) out.marks[k].push(m);
  });
  // A listed case opens under its row, and a matrix cell's under its area (issue 27: both at the
  // page's bottom); a second click closes it.
  var first = document.querySelector("#disagreements table.list a");
  if (first) {
    first.click();
    var panel = document.getElementById(first.getAttribute("href").slice(1));
    out.opened = panel && getComputedStyle(panel).display !== "none" ? panel.querySelector("h3").innerText : "";
    out.sideBySide = panel ? panel.querySelectorAll("table.sbs tr.changed, table.sbs tr.del, table.sbs tr.ins").length : 0;
    out.gap = Math.round(panel.getBoundingClientRect().top - first.closest("tr").getBoundingClientRect().bottom);
    out.underRow = panel.closest("tr") === first.closest("tr").nextElementSibling;
    var cell = document.querySelector(".cells a.cell.disagree");
    cell.click();
    var p2 = document.getElementById(cell.getAttribute("href").slice(1));
    out.underArea = p2.previousElementSibling === cell.closest(".cells") && getComputedStyle(p2).display !== "none";
    cell.click();
    out.closed = getComputedStyle(p2).display === "none";
  }
  out.legends = Array.prototype.map.call(document.querySelectorAll(".case p.marks"),
    function (p) { return p.parentNode.id; });
  out.only = Array.prototype.map.call(document.querySelectorAll("#only li"), function (li) { return li.innerText; });
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

type probeResult struct {
	Verdict           string
	Listed            int
	Backs             []string
	BothWrong         int
	NotCompared       []string
	BothWrongFiltered struct{ Bothwrong, Disagree float64 }
	Filters           []string
	Filtered          struct{ Agree, Disagree, Only float64 }
	Unfiltered        float64
	Opened            string
	SideBySide        int
	FirstLines        []string
	Marks             map[string][]string
	Gap               int
	UnderRow          bool
	UnderArea         bool
	Closed            bool
	Legends           []string
	Only              []string
}

func chromium(t *testing.T) browser.Chromium {
	t.Helper()
	c, err := browser.Find()
	if err != nil {
		t.Skipf("SKIP: no browser to check the page in: %v", err)
	}
	return c
}

// openPage loads the page with the probe in Chromium and reads what the probe found.
func openPage(t *testing.T, c browser.Chromium, page string) probeResult {
	t.Helper()
	var r probeResult
	if err := c.Probe(context.Background(), strings.Replace(page, "</body>", probe+"\n</body>", 1), 1280, 900, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// The diff page as a person sees it in a browser: for two implementations that disagree, the
// verdict says so first, leading with the case both got wrong, the disagreements are listed with
// whom the spec backs and the crash as not compared, the "disagree" and "both wrong" filters leave
// only those cells clear, a listed case opens with the answers side by side, and the
// cases on one side only say why; for two that agree, the verdict says ok and nothing is listed.
func TestDiffPageInABrowser(t *testing.T) {
	c := chromium(t)
	cli, server := cliAndServer(t)
	cmp := Compare(cli, server)
	var page strings.Builder
	if err := WriteDiffHTML(&page, cmp); err != nil {
		t.Fatal(err)
	}
	r := openPage(t, c, page.String())
	// The verdict leads with the case both got wrong (issue 21), and the crash is not compared,
	// not a disagreement.
	// Every embedded case but the 108 the two sides are made to differ on, skip or crash agrees.
	// The one-sided counts are the areas each side skips (index and search, modules), counted from
	// the suite so that a new case there does not break the test.
	n, onlyA, onlyB := len(conformance.Embedded()), 0, 0
	for _, c := range conformance.Embedded() {
		switch c.Area {
		case "modules":
			onlyA++
		case "index", "search":
			onlyB++
		}
	}
	agree := n - onlyA - onlyB - 7
	if !strings.HasPrefix(r.Verdict, fmt.Sprintf("FAIL: 1 both wrong, 5 disagree (a right 2, b right 2, neither 1), "+
		"1 not compared, %d agree, %d only in a, %d only in b; %d of %d cases compared\n1 both wrong: ", agree, onlyA,
		onlyB, n-onlyA-onlyB-1, n)) {
		t.Errorf("verdict %q", r.Verdict)
	}
	if r.Listed != 5 || strings.Count(strings.Join(r.Backs, "|"), "LLeMbas server 3.1.0 (b)") != 2 || strings.Count(strings.Join(r.Backs, "|"), "neither") != 1 {
		t.Errorf("%d listed, backs %q", r.Listed, r.Backs)
	}
	if r.BothWrong != 1 || strings.Join(r.NotCompared, "|") != "a crashed" {
		t.Errorf("%d both wrong listed, not compared %q", r.BothWrong, r.NotCompared)
	}
	if strings.Join(r.Filters, " | ") != fmt.Sprintf("all\n%d | agree\n%d | both wrong\n1 | disagree\n5 | "+
		"not compared\n1 | only in one\n%d | skipped by both\n0", n, agree, onlyA+onlyB) {
		t.Errorf("filters %q", r.Filters)
	}
	if r.Filtered.Disagree != 1 || r.Filtered.Agree > 0.5 || r.Filtered.Only > 0.5 || r.Unfiltered != 1 {
		t.Errorf("the disagree filter: %+v, then all: %v", r.Filtered, r.Unfiltered)
	}
	if r.BothWrongFiltered.Bothwrong != 1 || r.BothWrongFiltered.Disagree > 0.5 {
		t.Errorf("the both wrong filter: %+v", r.BothWrongFiltered)
	}
	if !strings.Contains(r.Opened, "disagree: the spec backs") || r.SideBySide == 0 {
		t.Errorf("the first listed case opens %q with %d changed rows", r.Opened, r.SideBySide)
	}
	// Each disagreement shows both answers' first differing line; a case opens in place; the
	// matrix's letters are the side the spec backs alone; a text with marks has their legend.
	if len(r.FirstLines) != 2*r.Listed {
		t.Errorf("%d first differing lines for %d disagreements: %q", len(r.FirstLines), r.Listed, r.FirstLines)
	}
	if !r.UnderRow || r.Gap < 0 || r.Gap > 40 || !r.UnderArea || !r.Closed {
		t.Errorf("a case opens out of place: under its row %v (%d px below the row), under its area %v, closed again %v",
			r.UnderRow, r.Gap, r.UnderArea, r.Closed)
	}
	for _, m := range r.Marks["only"] {
		if m != "◐" && m != "◑" {
			t.Errorf("a case one side checked is marked %q, a letter of the side the spec backs: %v", m, r.Marks)
		}
	}
	if !strings.Contains(strings.Join(r.Legends, " "), anchor("chunk/134b9ada")) {
		t.Errorf("the CRLF case has no legend of the marks: %q", r.Legends)
	}
	if len(r.Only) != 3 || !strings.Contains(strings.Join(r.Only, "\n"), "index: 31 only in b — LLeMbas CLI 2.4.0 (a) skipped: area not implemented") {
		t.Errorf("why one side only: %q", r.Only)
	}

	// Two that agree: the reference as the server would be, with no answers of its own.
	ctx := context.Background()
	good, err := runCases(ctx, altered{name: "LLeMbas server", version: "3.1.0", skip: map[string]bool{"modules": true},
		answer: func(_ conformance.Case, o runner.Outcome) runner.Outcome { return o }}, conformancetest.All(t), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var same strings.Builder
	WriteDiffHTML(&same, Compare(good, good))
	r = openPage(t, c, same.String())
	if !strings.HasPrefix(r.Verdict, fmt.Sprintf("ok: %d agree, 40 skipped by both; %d of %d cases compared\n"+
		"no disagreement", n-40, n-40, n)) || r.Listed != 0 || r.BothWrong != 0 || r.Unfiltered != 1 || len(r.Only) != 1 {
		t.Errorf("a report against itself: %+v", r)
	}

	shot := filepath.Join(t.TempDir(), "diff.html")
	os.WriteFile(shot, []byte(page.String()), 0o644)
	png := filepath.Join(t.TempDir(), "diff.png")
	if *updateDocs {
		png = "../../docs/img/diff.png"
	}
	url, _ := browser.FileURL(shot, "")
	if err := c.Screenshot(context.Background(), url, png, 1280, 1100); err != nil {
		t.Fatal(err)
	}
}
