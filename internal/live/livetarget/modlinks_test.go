package livetarget

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/runner"
)

// A padded file is written whole, as the case has it: its text, then its pad up to its size.
func TestModulesFilePadded(t *testing.T) {
	got, err := modulesFile("/p/a.md", json.RawMessage(`{"text": "# A\n", "pad": "a", "size": 262145}`))
	if err != nil || len(got) != 262145 || !strings.HasPrefix(got, "# A\naaa") || strings.Trim(got[4:], "a") != "" {
		t.Errorf("%d bytes, %q…, %v", len(got), got[:min(len(got), 8)], err)
	}
	for _, bad := range []string{`{"text": "x", "pad": "ab", "size": 9}`, `{"text": "long", "pad": "a", "size": 2}`, `3`} {
		if _, err := modulesFile("/p/a.md", json.RawMessage(bad)); err == nil || !strings.Contains(err.Error(), "/p/a.md") {
			t.Errorf("%s: %v, want an error naming the file", bad, err)
		}
	}
}

// A touch outside the Project root that the harness's read refused touched nothing: the case is
// skipped, saying so, not passed for the nothing it then shows. A refused read inside the root
// (a module deleted) and a read that succeeded are judged as played.
func TestOutsideTouch(t *testing.T) {
	e := &env{root: "/tmp/x/case-1"}
	denied := fsaccess.SpecTexts().Errors[fsaccess.AccessDenied].Render(e.root + "/projectX/a.ts")
	q := &request{msgs: []msg{{role: "tool", callID: "call_m1", text: "[#0001]\n" + denied},
		{role: "tool", callID: "call_m2", text: "[#0002 /tmp/x/case-1/projectX/b.ts]\nb\n"},
		{role: "tool", callID: "call_m3", text: "[#0003]\n" + fsaccess.SpecTexts().Errors[fsaccess.AccessDenied].Render(
			e.root+"/project/gone.md")}}}
	var sk *skip
	if err := outsideTouch(e, "/project", map[string]string{"call_m1": "/projectX/a.ts"}, q); !errors.As(err, &sk) ||
		!strings.Contains(sk.why, "/projectX/a.ts") {
		t.Errorf("a refused read outside the root: %v, want a skip naming it", err)
	}
	if err := outsideTouch(e, "/project", map[string]string{"call_m2": "/projectX/b.ts", "call_m3": "/project/gone.md",
		"call_m9": "/project/../x"}, q); err != nil {
		t.Errorf("a read that succeeded, one refused inside the root, one with no result: %v", err)
	}
}

// On the reference agent, whose view ends at its project, every modules case with links and no
// diagnostics is played and then skipped because its touch outside the root was refused — never
// passed for a record the rule did not make.
func TestModulesLinksPlayed(t *testing.T) {
	n := 0
	for _, r := range referenceRun(t).Results {
		if r.Case.Area != "modules" || !strings.Contains(string(r.Case.Input), `"links"`) ||
			strings.Contains(string(r.Case.Expect), `"code"`) {
			continue
		}
		n++
		if r.Verdict != runner.Skip || !strings.Contains(r.Message, "refused the read") {
			t.Errorf("%s: %s (%s), want skipped for the refused read", r.Case.ID, r.Verdict, r.Message)
		}
	}
	if n == 0 {
		t.Error("no modules case with links and no diagnostics")
	}
}
