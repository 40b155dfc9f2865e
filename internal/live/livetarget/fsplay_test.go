package livetarget

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
	"github.com/LLeMbas/lembas-check/runner"
)

// Every fs_access case is played live on the reference agent, and passes (the listing's text, the
// edit after reads, mv and commit included, and a device's listings) — but op view's, which no
// play carries, and a server's listing a device answers otherwise (deviceListable): each of those
// is a skip saying why.
func TestFSAccessPlaysEveryCase(t *testing.T) {
	n := 0
	noPlay := unplayedFS("view").Error()
	for _, r := range referenceRun(t).Results {
		if r.Case.Area != "fs_access" {
			continue
		}
		n++
		if r.Verdict == runner.Skip && r.Message == noPlay && strings.Contains(string(r.Case.Input), `"op":"view"`) {
			continue
		}
		if r.Verdict == runner.Skip && strings.HasPrefix(r.Message, "on a device (the reference agent is one)") &&
			!strings.Contains(string(r.Case.Input), `"device":true`) {
			continue
		}
		if r.Verdict != runner.Pass {
			t.Errorf("%s: %s: %s%s", r.Case.ID, r.Verdict, r.Message, r.Diff)
		}
	}
	if n == 0 {
		t.Fatal("no fs_access case was run")
	}
}

// Each fault of the file tools fails exactly the fs_access cases whose rule it breaks: the plays
// of list_text and read_text, edit, mv and commit catch a broken agent.
func TestFSAccessPlaysCatchEachFault(t *testing.T) {
	var items []runner.Item
	for _, r := range referenceRun(t).Results {
		if r.Case.Area == "fs_access" && r.Verdict == runner.Pass {
			items = append(items, runner.Item{Case: r.Case})
		}
	}
	type want struct {
		Text  *string `json:"text"`
		Error string  `json:"error"`
	}
	read := func(c conformance.Case) (op string, w want) {
		var in struct {
			Op string `json:"op"`
		}
		json.Unmarshal(c.Input, &in)
		json.Unmarshal(c.Expect, &w)
		return in.Op, w
	}
	for _, tc := range []struct {
		fault  string
		guards func(op string, w want) bool
		shows  string // a regular expression
	}{
		// A flat listing differs where the case's text is a tree, an empty directory's text or the cap.
		{refagent.BreakFlatListing, func(op string, w want) bool {
			return (op == "list_text" || op == "read_text") && w.Text != nil &&
				(strings.Contains(*w.Text, "\n ") || strings.HasPrefix(*w.Text, "(") || strings.Contains(*w.Text, "(more"))
		}, `text`},
		{refagent.BreakNoReadCheck, func(op string, w want) bool {
			return op == "edit" && (strings.Contains(w.Error, "has not been read") || strings.Contains(w.Error, "changed since"))
		}, `read`},
		{refagent.BreakMvUnchecked, func(op string, w want) bool { return op == "mv" && w.Error != "" }, `error`},
		{refagent.BreakCommitAtStage, func(op string, w want) bool {
			return op == "commit" && strings.HasPrefix(w.Error, "Not committed")
		}, `Not committed`},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			rep := run(t, profile(t, "reference", "LIVETARGET_TEST_BREAK", tc.fault), items, nil)
			fails := 0
			for _, r := range rep.Results {
				want := runner.Pass
				if tc.guards(read(r.Case)) {
					want = runner.Fail
				}
				if r.Verdict != want {
					t.Errorf("%s: %s, want %s (%s)%s", r.Case.ID, r.Verdict, want, r.Message, r.Diff)
					continue
				}
				if r.Verdict == runner.Fail {
					fails++
					if !diffLine.MatchString(r.Diff) || !regexp.MustCompile(tc.shows).MatchString(r.Diff) {
						t.Errorf("%s: the diff does not show the fault:\n%s", r.Case.ID, r.Diff)
					}
				}
			}
			if fails == 0 {
				t.Errorf("no case failed: the live target does not catch %s", tc.fault)
			}
		})
	}
}
