package prefix

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// specCases is conformance/prefix.json decoded loosely, to read the texts the extra file took
// from it.
func specCases(t *testing.T) []map[string]any {
	t.Helper()
	b, err := fs.ReadFile(spec.Conformance(), "prefix.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []map[string]any `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) != 8 {
		t.Fatalf("conformance/prefix.json has %d cases, want 8", len(f.Cases))
	}
	return f.Cases
}

// at walks a decoded case by keys and indexes.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// TestExtraTextsAreTheCasesOwn checks every text extra/prefix.json and extra/tools.json carry
// against the case its source names, so a slip in copying them fails here.
func TestExtraTextsAreTheCasesOwn(t *testing.T) {
	cases := specCases(t)
	note := spec.LoopJSON().Context.Note

	// mode.plan and mode.plan.plan_dir: case 2 (index 1), expect[3].note.
	planNote := at(t, cases[1], "expect", 3, "note").(string)
	head := note.Open + "\n" + spec.MustRender(note.Mode, map[string]string{"mode": "plan", "mode_text": ""})
	body, ok := strings.CutPrefix(planNote, head)
	if !ok {
		t.Fatalf("case 2 expect[3].note does not begin %q", head)
	}
	body, ok = strings.CutSuffix(body, "\n"+note.Close)
	if !ok {
		t.Fatalf("case 2 expect[3].note does not end with the close line")
	}
	dir := spec.Text("mode.plan.plan_dir")
	if got := spec.MustRender(spec.Text("mode.plan"), map[string]string{"plan_dir": dir}); got != body {
		t.Errorf("mode.plan filled with %q is\n%q\nthe case has\n%q", dir, got, body)
	}
	if !strings.Contains(spec.Text("mode.plan"), "{{plan_dir}}") || !strings.Contains(body, " "+dir+",") {
		t.Errorf("mode.plan should hold {{plan_dir}} where the case has %s", dir)
	}

	// tasks.compact.ask: case 3 (index 2), expect[2].ask (and expect[4].ask, the same).
	for _, i := range []int{2, 4} {
		if got := at(t, cases[2], "expect", i, "ask").(string); got != spec.Text("tasks.compact.ask") {
			t.Errorf("tasks.compact.ask differs from case 3 expect[%d].ask", i)
		}
	}

	// note.mcp_server: case 4 (index 3), expect[5].note, the tickets server of steps[4].mcp.
	mcpNote := at(t, cases[3], "expect", 5, "note").(string)
	tickets := at(t, cases[3], "steps", 4, "mcp", "tickets").(string)
	server := spec.MustRender(spec.Text("note.mcp_server"), map[string]string{"name": "tickets", "instructions": tickets})
	block := spec.MustRender(note.MCP, map[string]string{"instructions": server})
	if !strings.HasSuffix(mcpNote, "\n\n"+block+"\n"+note.Close) {
		t.Errorf("case 4 expect[5].note does not end with the mcp block %q", block)
	}

	// plan_submit's unavailable (extra/tools.json): case 2 (index 1), expect[1].
	if got := at(t, cases[1], "expect", 1).(string); got != spec.Tools()["plan_submit"].Unavailable {
		t.Errorf("plan_submit's unavailable text differs from case 2 expect[1]: %q", got)
	}
	if r := spec.Tools()["plan_submit"].Requires; len(r) != 1 || r[0] != PlanMode {
		t.Errorf("plan_submit requires %v, want [plan]", r)
	}
}

// TestEveryExtraTextOfTheAreaIsChecked keeps the test above complete: a key added to
// extra/prefix.json without a check here fails.
func TestEveryExtraTextOfTheAreaIsChecked(t *testing.T) {
	checked := map[string]bool{"mode.plan": true, "mode.plan.plan_dir": true, "tasks.compact.ask": true, "note.mcp_server": true}
	b := spec.ExtraFiles()["extra/prefix.json"]
	var x spec.Extra
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	for k, v := range x.Texts {
		if !checked[k] {
			t.Errorf("extra/prefix.json text %q has no check against its source (%s)", k, v.Source)
		}
		if v.Source == "" {
			t.Errorf("extra/prefix.json text %q names no source", k)
		}
	}
}
