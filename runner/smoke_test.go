package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

func smoke(t *testing.T, f *fake) []SmokeCheck {
	t.Helper()
	a := f.adapter(AdapterOptions{Timeout: 2 * time.Second, Grace: 200 * time.Millisecond})
	checks := Smoke(context.Background(), a, conformancetest.All(t))
	a.Close()
	f.done()
	return checks
}

func findings(checks []SmokeCheck) string {
	var b strings.Builder
	for _, c := range checks {
		b.WriteString(c.Status + " " + c.Step + " " + c.Detail + "\n")
	}
	return b.String()
}

// A well-behaved adapter: hello, areas, one case per area, bye, with no FAIL.
func TestSmokeGood(t *testing.T) {
	checks := smoke(t, newFake(t, "good"))
	s := findings(checks)
	if len(checks) != 3+len(areaNames()) || strings.Contains(s, "FAIL") || !strings.HasPrefix(s, "ok hello lembas-check reference "+ToolVersion+" (go) speaks protocol 1\nok areas answers "+strings.Join(areaNames(), ", ")+"\n") || !strings.HasSuffix(s, "ok bye exited with status 0\n") {
		t.Errorf("%s", s)
	}
	if !strings.Contains(s, "ok jobs/") {
		t.Errorf("no jobs case answered as expected:\n%s", s)
	}
}

// Each thing wrong with an adapter is said plainly.
func TestSmokeFindings(t *testing.T) {
	for mode, want := range map[string][]string{
		"crash":        {"FAIL jobs/", "crashed: the adapter exited (exit status 3)"},
		"hello-proto2": {"FAIL hello", "speaks protocol 2, this lembas-check speaks 1. Update lembas-check"},
		"bye-ignore":   {"FAIL bye", "did not exit within 200ms of bye"},
		"bad-shape":    {"FAIL jobs/", `the answer is not a jobs answer (txt: unknown field)`},
		"skip":         {"warn jobs/", `skipped it ("not in this build") though hello lists jobs`},
		"hello-typo":   {`warn areas lembas-check has no area "jbos"`, "warn harness_spec it implements harness spec 3.0.0", "answers jobs; the others (chunk, chunk_tokens, context, fs_access, index, instructions, ", ") are skipped unsent"},
		"garbage":      {"FAIL chunk/", `protocol error: not a JSON object: "panic: oh no"`},
	} {
		t.Run(mode, func(t *testing.T) {
			s := findings(smoke(t, newFake(t, mode)))
			for _, w := range want {
				if !strings.Contains(s, w) {
					t.Errorf("smoke does not say %q:\n%s", w, s)
				}
			}
		})
	}
}

func TestTrivialCases(t *testing.T) {
	cases := conformancetest.All(t)
	m := trivialCases(cases)
	for _, c := range cases {
		if tc := m[c.Area]; len(c.Input) < len(tc.Input) {
			t.Errorf("%s: %s is shorter than the one picked", c.Area, c.ID)
		}
	}
	if len(m) != len(areaNames()) {
		t.Errorf("%d areas", len(m))
	}
}
