package audit

import "testing"

// Two sessions' totals together: the counts and each cause's add up, the shares are derived from
// the sums (not added), and the zero Totals starts a sum.
func TestTotalsPlus(t *testing.T) {
	a := Totals{Requests: 2, PromptTokens: 100, ReusableTokens: 50, LostTokens: 10, Breaks: 1, Cost: 1, LostCost: 0.5, Kept: 0.5, Priced: 2,
		ByCause: map[Cause]*CauseTotal{Extends: {Requests: 1}, SystemChanged: {Requests: 1, LostTokens: 10, LostCost: 0.5}}}
	b := Totals{Requests: 1, PromptTokens: 300, ReusableTokens: 250, Failing: 1,
		ByCause: map[Cause]*CauseTotal{Extends: {Requests: 1}}}
	a.setShares()
	b.setShares()
	got := Totals{}.Plus(a).Plus(b)
	if got.Requests != 3 || got.PromptTokens != 400 || got.ReusableTokens != 300 || got.LostTokens != 10 || got.Breaks != 1 || got.Failing != 1 || got.Priced != 2 || got.LostCost != 0.5 {
		t.Errorf("%+v", got)
	}
	if got.ReusableShare != 0.75 || got.PossibleShare != 310.0/400 {
		t.Errorf("shares %v %v", got.ReusableShare, got.PossibleShare)
	}
	if e, s := got.ByCause[Extends], got.ByCause[SystemChanged]; e.Requests != 2 || s.Requests != 1 || s.LostTokens != 10 {
		t.Errorf("by cause %+v %+v", e, s)
	}
	if a.ByCause[Extends].Requests != 1 {
		t.Error("Plus changed its operand's causes")
	}
}
