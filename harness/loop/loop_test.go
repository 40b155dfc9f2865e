package loop

import (
	"slices"
	"testing"
)

func TestWaitsOnUserIsParallelAboutsList(t *testing.T) {
	if got := WaitsOnUser(); !slices.Equal(got, []string{"ask_user", "plan_submit"}) {
		t.Fatalf("WaitsOnUser() = %q", got)
	}
}

func TestScheduleKeepsTheOrderGiven(t *testing.T) {
	// A call on b.txt after one on a.txt and another on a.txt: the second a.txt call closes the
	// batch, and nothing later is moved before it.
	calls := []Call{{"read", "a.txt"}, {"read", "b.txt"}, {"edit", "a.txt"}, {"read", "c.txt"}}
	got := Schedule(calls, Limits{Max: 2})
	want := [][]int{{0, 1}, {2, 3}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("Schedule = %v, want %v", got, want)
	}
}
