package results

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// specCase is conformance/context.json's case i, as the spec's file has it.
type specCase struct {
	Steps  []map[string]any `json:"steps"`
	Expect []string         `json:"expect"`
}

func specCases(t testing.TB) []specCase {
	t.Helper()
	b, err := fs.ReadFile(spec.Conformance(), "context.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []specCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

func specFile(t *testing.T, name string) string {
	t.Helper()
	b, err := spec.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every text extra/context.json vendors is checked against the case or file it was copied from.
func TestExtraTextsAreTheirSources(t *testing.T) {
	cases := specCases(t)
	ctx := spec.LoopJSON().Context
	if got, want := render(spec.Text("context.read.line"), vars{"n": "1", "line": "const a = 1"}), strings.Split(cases[0].Expect[0], "\n")[1]; got != want {
		t.Errorf("context.read.line gives %q, case 0 has %q", got, want)
	}
	if more := render(spec.Text("context.read.more"), vars{"n": "5", "offset": "6"}); !strings.HasSuffix(cases[1].Expect[0], "5: line 5"+more) {
		t.Errorf("context.read.more gives %q, not the end of case 1's %q", more, cases[1].Expect[0])
	}
	if got, want := "[#4002 empty.txt empty sha e3b0c442]\n"+spec.Text("context.read.empty"), cases[9].Expect[1]; got != want {
		t.Errorf("context.read.empty: %q, case 9 has %q", got, want)
	}
	row := func(p, lines, sha, id string) string {
		return render(spec.Text("context.compaction.row"), vars{"path": p, "lines": lines, "sha": sha, "id": id})
	}
	cell := render(spec.Text("context.compaction.lines"), vars{"from": "1", "to": "1", "of": "1"})
	table := render(spec.Text("context.compaction.table"), vars{"heading": ctx.Compaction.Heading, "line": ctx.Compaction.Line,
		"rows": row("a.md", cell, "b6a98d9c", "#2001") + "\n" + row("b.md", cell, "f2c82dec", "#2002")})
	if table != cases[7].Expect[4] {
		t.Errorf("context.compaction.* give\n%q\ncase 7 has\n%q", table, cases[7].Expect[4])
	}
	md := specFile(t, "context.md")
	example := row("src/app.ts", render(spec.Text("context.compaction.lines"), vars{"from": "1", "to": "200", "of": "340"}), "1c9e04ab", "#0012")
	if !strings.Contains(md, "\n "+example+"\n") {
		t.Errorf("context.md §7 has no row %q", example)
	}
	if d := render(spec.Text("context.deleted"), vars{"id": "#0024", "path": "old.md"}); !strings.Contains(md, "A deleted file is `"+d+"`") || !strings.Contains(md, "\n"+strings.Replace(d, "#0024 ", "", 1)+"\n") {
		t.Errorf("context.md §5 does not give %q (and its apply_patch form)", d)
	}
	// The apply_patch example of context.md §5: the id alone, then each file's own bracket.
	patch := "\n[#0025]\n" + render(spec.Text("context.patch.file"), vars{"path": "src/a.ts", "sha": "7d0a91c3"}) + "\n@@ -1,2 +1,2 @@\n" +
		render(spec.Text("context.patch.file"), vars{"path": "docs/new.md", "sha": "52b6e3a0"}) + " " + render(ctx.Created, vars{"n": "14"}) + "\n" +
		render(spec.Text("context.patch.deleted"), vars{"path": "old.md"}) + "\n"
	if !strings.Contains(md, patch) {
		t.Errorf("context.patch.file and context.patch.deleted do not give context.md §5's apply_patch example:\n%s", patch)
	}
	w := spec.Text("context.window")
	var recall struct {
		Parameters struct {
			Properties struct {
				Limit struct {
					Description string `json:"description"`
				} `json:"limit"`
			} `json:"properties"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(specFile(t, "tools/recall.json")), &recall); err != nil {
		t.Fatal(err)
	}
	if got := recall.Parameters.Properties.Limit.Description; got != "How many lines (default "+w+")" {
		t.Errorf("context.window %s: recall.json's limit says %q", w, got)
	}
	if !regexp.MustCompile(`each has its own window \(` + w + `\s+lines\s+from an offset\)`).MatchString(md) {
		t.Errorf("context.window %s is not context.md §3's window", w)
	}
	if cut := spec.Text("context.cut"); cases[10].Expect[0] != "[#5001]\n"+strings.Repeat("x", 20)+cut+"\n[0 lines elided, full output #5001]" || !strings.Contains(ctx.Cap.About, "ends `"+cut+"`") {
		t.Errorf("context.cut %q is not case 10's nor cap.about's", cut)
	}
	words := map[string]string{"1": "one", "2": "two", "3": "three", "4": "four", "5": "five"}
	if n := spec.Text("context.diff_context"); !regexp.MustCompile(`unified diff\s+of the change \(` + words[n] + ` lines of context, hunks only`).MatchString(md) {
		t.Errorf("context.diff_context %s is not context.md §5's %q lines of context", n, words[n])
	}
	if got := emptyWord(); !strings.Contains(cases[9].Expect[1], " "+got+" sha ") {
		t.Errorf("the empty file's word %q is not case 9's bracket", got)
	}
}
