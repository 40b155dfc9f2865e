package bench

import (
	"encoding/json"
	"math"
	"sort"
	"time"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// answered is a request of a run with sessions at once, kept until the run ends: the simulator
// is fed the requests in the order the server took them, which the bench knows only from the
// answers.
type answered struct {
	pd  *prediction
	row Row
	x   replay.Sent
	// began and ended are when the server took the request and when it let it go, from the
	// run's start.
	began, ended time.Duration
}

// serverSpan says when the server took a request and when it let it go, from the run's start,
// as its answer's timings say (llama.cpp's prompt_ms and predicted_ms): it ended with the
// answer's last byte; a streamed answer's first text came once the prompt was read (prompt_ms
// after the server took it), a whole answer once the answer was generated too. Without timings,
// it began when its answer did. Never before it was sent.
func serverSpan(r Row, x replay.Sent) (began, ended time.Duration) {
	ended = r.Sent + r.Total
	began = r.Sent + r.TTFT
	var t struct {
		PromptMS    *float64 `json:"prompt_ms"`
		PredictedMS *float64 `json:"predicted_ms"`
	}
	if len(x.Reply.Timings) > 0 && json.Unmarshal(x.Reply.Timings, &t) == nil && t.PromptMS != nil {
		switch {
		case x.Stream:
			began -= msDuration(*t.PromptMS)
		case t.PredictedMS != nil:
			began = ended - msDuration(*t.PromptMS+*t.PredictedMS)
		}
	}
	return min(max(began, r.Sent), ended), ended
}

// spanOf is serverSpan, or the server's own word where it says the order (order: the simulator's
// slot ticks, Options.ServerOrder). A request it never gave a slot (its client hung up while it
// waited) then goes last, where it holds no slot another needed: its timings are on another
// clock than the ticks.
func spanOf(r Row, x replay.Sent, order func(string) (time.Duration, time.Duration, bool)) (began,
	ended time.Duration) {
	if order == nil {
		return serverSpan(r, x)
	}
	if b, e, ok := order(x.RequestID); ok {
		return b, e
	}
	return math.MaxInt64 - 1, math.MaxInt64
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

// inServerOrder feeds the simulators the run's requests in the order the server took them (by
// serverSpan): each takes a slot when it began, after every request that ended before then has
// given its slot back, so that the simulator sees the slots busy and idle as the server had
// them. Then each row is settled, in that order, and returned so.
func inServerOrder(p *Predictor, all []*answered) []Row {
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].began != all[j].began {
			return all[i].began < all[j].began
		}
		return all[i].row.Sent < all[j].row.Sent
	})
	var running []*answered
	release := func(until time.Duration, all bool) {
		sort.SliceStable(running, func(i, j int) bool { return running[i].ended < running[j].ended })
		k := 0
		for ; k < len(running) && (all || running[k].ended <= until); k++ {
			p.end(running[k].pd, running[k].x)
		}
		running = running[k:]
	}
	for _, a := range all {
		release(a.began, false)
		p.admit(a.pd)
		running = append(running, a)
	}
	release(0, true)
	rows := make([]Row, len(all))
	for i, a := range all {
		p.settle(a.pd, &a.row, i == 0)
		rows[i] = a.row
	}
	return rows
}
