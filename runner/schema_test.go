package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

// An answer that does not fit its area's schema fails with the field named, and the failure
// names the case; an answer that fits, with a message, still passes.
func TestMalformedAnswerNamesField(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:2]
	target := scripted{areas: []string{"jobs"}, answers: map[string]Outcome{
		cases[0].ID: {Answer: json.RawMessage(`{"text": null}`)},
		cases[1].ID: {Answer: cases[1].Expect, Message: "a note of the adapter's"},
	}}
	rep, err := runCases(context.Background(), target, cases, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := rep.Results[0]
	if bad.Verdict != Fail || !strings.HasPrefix(bad.Message, "answer.text: want string, got null (the jobs answer's schema") {
		t.Errorf("a null text: %s %q", bad.Verdict, bad.Message)
	}
	if f := bad.Failure(); !strings.Contains(f, cases[0].ID) || !strings.Contains(f, "answer.text: want string, got null") {
		t.Errorf("the failure does not name the case and the field:\n%s", f)
	}
	if rep.Results[1].Verdict != Pass {
		t.Errorf("a right answer with a message: %s", rep.Results[1].Verdict)
	}
}
