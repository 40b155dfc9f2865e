package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// `bench --sim` with sessions at once: the simulator behind the fake queues the requests for its
// slots, and the prediction follows the order it took and gave them back (Options.ServerOrder,
// the fake's slot ticks), so every request is predicted and exactly. Before, the prediction took
// the requests in the order they were sent: on 1 slot a third to a half of them went unpredicted
// ("no idle slot") and a third of the rest were off.
func TestSimPredictionFollowsItsSlotOrder(t *testing.T) {
	const path = "../../../testdata/recordings/interleaved.jsonl"
	for _, c := range []struct{ slots, sessions int }{{1, 4}, {3, 8}} {
		t.Run(fmt.Sprintf("%d slots %d sessions", c.slots, c.sessions), func(t *testing.T) {
			recs, err := Recordings(path, func(*replay.Reader) {})
			if err != nil {
				t.Fatal(err)
			}
			o := Options{Concurrency: c.sessions}
			sim, err := Target{Sim: true, Slots: c.slots}.Setup(context.Background(), path, recs, &o)
			if err != nil {
				t.Fatal(err)
			}
			defer sim.Close()
			if o.ServerOrder == nil {
				t.Fatal("Setup gave the simulator's bench no ServerOrder")
			}
			res, err := BenchAll(context.Background(), recs, o)
			if err != nil {
				t.Fatal(err)
			}
			tot := res.Runs[0].Totals
			if tot.Compared != tot.Requests || tot.Exact != tot.Compared {
				for _, r := range res.Runs[0].Rows {
					if r.Predicted == nil || r.Usage.CachedTokens == nil || *r.Predicted != *r.Usage.CachedTokens {
						t.Logf("session %d request %d: %s", r.Session, r.N, r.Detail)
					}
				}
				t.Errorf("%d requests, %d predicted, %d exact", tot.Requests, tot.Compared, tot.Exact)
			}
		})
	}
}
