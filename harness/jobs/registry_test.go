package jobs

import "testing"

func TestRunRefusesAStartByAJobThatIsNoSubagent(t *testing.T) {
	res := Run(DefaultLimits(), []Event{{Op: "start", Kind: KindCommand},
		{Op: "start", Kind: KindCommand, By: "job1"}, {Op: "start", Kind: KindCommand, By: "job9"}})
	for i, r := range res[1:] {
		if !r.Unknown {
			t.Errorf("event %d: %+v, want unknown", i+1, r)
		}
	}
}

func TestTailRunesCountsCharacters(t *testing.T) {
	if got := tailRunes("héllo", 4); got != "éllo" {
		t.Fatalf("tailRunes = %q", got)
	}
}
