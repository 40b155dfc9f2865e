package spec

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestEmbeddedFilesMatchTheirPins(t *testing.T) {
	if err := Verify(); err != nil {
		t.Fatal(err)
	}
	if got := Version(); got != "3.1.0" {
		t.Fatalf("VERSION = %q, want 3.1.0", got)
	}
	if n := len(Manifest()); n != 32 {
		t.Fatalf("manifest pins %d files, want 32", n)
	}
}

// copyOfSpec is the embedded tree as a writable map, for comparing altered copies.
func copyOfSpec(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Files, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCompareNamesEachFileThatDiffersIsMissingOrExtra(t *testing.T) {
	if got := Compare(copyOfSpec(t), Manifest(), CompareOptions{}); len(got) != 0 {
		t.Fatalf("an exact copy differs: %v", got)
	}
	c := copyOfSpec(t)
	flipped := append([]byte(nil), c["conformance/jobs.json"].Data...)
	flipped[100] ^= 1
	c["conformance/jobs.json"] = &fstest.MapFile{Data: flipped}
	delete(c, "tools/show.json")
	c["conformance/plan.json"] = &fstest.MapFile{Data: []byte("{}")}
	c["README.md"] = &fstest.MapFile{Data: []byte("a project's own readme")}
	got := Compare(c, Manifest(), CompareOptions{})
	var kinds []string
	for _, p := range got {
		kinds = append(kinds, p.Kind+" "+p.Path)
	}
	want := []string{"extra conformance/plan.json", "differs conformance/jobs.json", "missing tools/show.json"}
	if diff := cmp.Diff(want, kinds, sortStrings); diff != "" {
		t.Fatalf("problems (-want +got):\n%s", diff)
	}
	if got := Compare(c, Manifest(), CompareOptions{AllowExtra: true}); len(got) != 2 {
		t.Fatalf("with AllowExtra: %v", got)
	}
}

var sortStrings = cmp.Transformer("sort", func(in []string) []string { return slices.Sorted(slices.Values(in)) })

func TestCompareReadsAWholeLoopJSONForThePinnedPart(t *testing.T) {
	c := copyOfSpec(t)
	var whole map[string]any
	if err := json.Unmarshal(c["loop.partial.json"].Data, &whole); err != nil {
		t.Fatal(err)
	}
	whole["budgets"] = map[string]any{"cli": 1} // a key the seed does not show: not compared
	delete(c, "loop.partial.json")
	b, _ := json.Marshal(whole)
	c["loop.json"] = &fstest.MapFile{Data: b}
	if got := Compare(c, Manifest(), CompareOptions{}); len(got) != 0 {
		t.Fatalf("a whole loop.json with the same parts differs: %v", got)
	}
	whole["wrap_up"].(map[string]any)["message"] = "changed"
	b, _ = json.Marshal(whole)
	c["loop.json"] = &fstest.MapFile{Data: b}
	got := Compare(c, Manifest(), CompareOptions{})
	if len(got) != 1 || got[0].Path != "loop.json" || !strings.Contains(got[0].Detail, `"wrap_up" differs`) {
		t.Fatalf("want loop.json differing in wrap_up, got %v", got)
	}
}

func TestParseManifestRejectsMalformedLines(t *testing.T) {
	for _, in := range []string{"abc  x", strings.Repeat("z", 64) + "  x", strings.Repeat("a", 64) + " x"} {
		if _, err := ParseManifest([]byte(in)); err == nil {
			t.Errorf("ParseManifest(%q): no error", in)
		}
	}
}

// prefixCase reads one value of conformance/prefix.json by case index and a path of keys.
func prefixExpect(t *testing.T, c, step int, field string) string {
	t.Helper()
	var f struct {
		Cases []struct {
			Expect []json.RawMessage `json:"expect"`
		} `json:"cases"`
	}
	b, _ := fs.ReadFile(Conformance(), "prefix.json")
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	raw := f.Cases[c].Expect[step]
	if field == "" {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m[field].(string)
}

// Every text of extra/ is checked against the case it was copied from.
func TestExtraTextsAreTheirSources(t *testing.T) {
	note := prefixExpect(t, 1, 3, "note")
	plan := MustRender(Text("mode.plan"), map[string]string{"plan_dir": Text("mode.plan.plan_dir")})
	mode := MustRender(LoopJSON().Context.Note.Mode, map[string]string{"mode": "plan", "mode_text": plan})
	if want := LoopJSON().Context.Note.Open + "\n" + mode + "\n" + LoopJSON().Context.Note.Close; note != want {
		t.Errorf("mode.plan does not give prefix.json case 2's note:\n%s", cmp.Diff(note, want))
	}
	if got, want := Text("tasks.compact.ask"), prefixExpect(t, 2, 2, "ask"); got != want {
		t.Errorf("tasks.compact.ask:\n%s", cmp.Diff(want, got))
	}
	if got, want := Tools()["plan_submit"].Unavailable, prefixExpect(t, 1, 1, ""); got != want {
		t.Errorf("plan_submit unavailable:\n%s", cmp.Diff(want, got))
	}
	if got, want := Tools()["show"].Unavailable, prefixExpect(t, 5, 1, ""); got != want {
		t.Errorf("show unavailable:\n%s", cmp.Diff(want, got))
	}
	server := MustRender(Text("note.mcp_server"), map[string]string{"name": "tickets", "instructions": "Name the ticket in every commit."})
	if !strings.Contains(prefixExpect(t, 3, 5, "note"), "\n"+server+"\n") {
		t.Errorf("note.mcp_server %q is not in prefix.json case 4's note", server)
	}
	for k, v := range Extras().Texts {
		if v.Source == "" || v.Text == "" {
			t.Errorf("extra/ text %s: empty text or source", k)
		}
	}
}

func TestNoteOrderIsLoopJSONs(t *testing.T) {
	want := []string{"date", "mode", "plan_ended", "plan", "plan_own", "memory", "instructions", "personality", "mcp"}
	if diff := cmp.Diff(want, NoteOrder()); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
}

func TestToolsKnowRequiresAndUnavailable(t *testing.T) {
	tl := Tools()
	if got := tl["plan_submit"].Requires; len(got) != 1 || got[0] != "plan" {
		t.Errorf("plan_submit requires %v", got)
	}
	if got := tl["show"].Requires; len(got) != 1 || got[0] != "display" {
		t.Errorf("show requires %v", got)
	}
	if tl["read"].Name != "" {
		t.Errorf("read is not vendored: it must not be invented")
	}
}

func TestRender(t *testing.T) {
	got, err := Render("[{{id}} {{path}}]", map[string]string{"id": "#0001", "path": "a {{b}}"})
	if err != nil || got != "[#0001 a {{b}}]" {
		t.Fatalf("Render = %q, %v", got, err)
	}
	if _, err := Render("{{missing}}", nil); err == nil || !strings.Contains(err.Error(), "{{missing}}") {
		t.Fatalf("want an error naming {{missing}}, got %v", err)
	}
}
