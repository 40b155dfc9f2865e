package runner_test

import (
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/google/go-cmp/cmp"
)

// ByArea's groups are the same whether each area's results lie together (the report's own,
// not copied) or not; either way an append to a group changes neither the report nor the next
// group.
func TestByArea(t *testing.T) {
	res := func(areas ...string) []runner.Result {
		var out []runner.Result
		for i, a := range areas {
			out = append(out, runner.Result{Case: conformance.Case{Label: conformance.Label{Area: a, ID: a + string(rune('0'+i))}}})
		}
		return out
	}
	ids := func(rs []runner.Result) []string {
		var out []string
		for _, x := range rs {
			out = append(out, x.Case.ID)
		}
		return out
	}
	for name, c := range map[string]struct {
		results []runner.Result
		want    map[string][]string
	}{
		"together":    {res("jobs", "jobs", "chunk", "prefix"), map[string][]string{"jobs": {"jobs0", "jobs1"}, "chunk": {"chunk2"}, "prefix": {"prefix3"}}},
		"interleaved": {res("jobs", "chunk", "jobs"), map[string][]string{"jobs": {"jobs0", "jobs2"}, "chunk": {"chunk1"}}},
	} {
		t.Run(name, func(t *testing.T) {
			r := &runner.Report{Results: c.results}
			before := ids(r.Results)
			names, by := r.ByArea()
			got := map[string][]string{}
			for _, a := range names {
				got[a] = ids(by[a])
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("groups (-want +got):\n%s", d)
			}
			for i := 1; i < len(names); i++ {
				if names[i-1] >= names[i] {
					t.Errorf("areas not in name order: %q", names)
				}
			}
			by["jobs"] = append(by["jobs"], runner.Result{Case: conformance.Case{Label: conformance.Label{ID: "appended"}}})
			if d := cmp.Diff(before, ids(r.Results)); d != "" {
				t.Errorf("an append to a group changed the report (-before +after):\n%s", d)
			}
		})
	}
}
