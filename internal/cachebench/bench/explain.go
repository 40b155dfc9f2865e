package bench

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// Off names why a server cached otherwise than predicted.
type Off string

// The causes of a prediction that is off.
const (
	// OffNotCold: the first request of a run took more from the cache than an empty one holds.
	OffNotCold Off = "not cold"
	// OffRAM: llama-server took the prompt from its RAM prompt cache (--cache-ram), which the
	// prediction did not model yet.
	OffRAM Off = "RAM prompt cache"
	// OffOwnAnswer: the server kept the tokens it generated for the request before, and this one
	// continues them (the recording holds this server's own answers): tokens the prediction only
	// counts.
	OffOwnAnswer Off = "own answer"
	// OffContext: the simulator took the prompt for longer than the slot's context.
	OffContext Off = "context"
	// OffOrder: with sessions at once, the server took requests in another order than the bench
	// saw them go.
	OffOrder Off = "order"
	// OffUnexplained: none of the above.
	OffUnexplained Off = "unexplained"
)

// settle reads what the simulators predicted for a request just answered and keeps it in its
// row. Once the server shows that it keeps prompts in RAM (a request cached as only the
// simulator with the RAM prompt cache said, or a first request after erasing that was not cold),
// the prediction is that simulator's from the next request on.
func (p *Predictor) settle(pd *prediction, r *Row, first bool) {
	justErased := p.justErased
	p.justErased = false
	main, shadow, ok, err := pd.results()
	switch {
	case err != nil:
		r.Detail = "not predicted: " + err.Error()
		return
	case !ok:
		r.Detail = "not predicted: the simulator had no idle slot for it when the server answered"
		return
	}
	m, s := main.CachedTokens, shadow.CachedTokens
	r.sim, r.fromRAM = &m, shadow.FromRAM
	if p.shadow != nil || p.ram {
		r.simRAM = &s
	}
	pick, refused := m, main.Refused
	if p.ramSeen {
		pick, refused = s, shadow.Refused
	}
	r.simRefused = refused
	r.ramModelled = p.ramSeen || p.ram
	if !refused {
		r.Predicted = &pick
	}
	c := r.Usage.CachedTokens
	if c == nil || p.ramSeen || p.shadow == nil || *c == m {
		return
	}
	if *c == s || first && justErased && *c > m || *c > m && shadow.FromRAM > 0 {
		p.ramSeen = true
		p.About += fmt.Sprintf("; from %s request %d on, with the RAM prompt cache the server showed", r.Run, r.N)
	}
}

// explain names, for each row the prediction got wrong, why; and says what the first requests
// showed of the cache being cold.
func explain(run *Run, o Options, concurrent bool) (coldCheck string) {
	initial := initialRows(run.Rows)
	coldCheck = checkCold(run.Cold, run.Rows, initial)
	prev := map[int]*Row{}
	for i := range run.Rows {
		r := &run.Rows[i]
		before := prev[r.Session]
		prev[r.Session] = r
		c := r.Usage.CachedTokens
		if c == nil {
			if r.Error != "" && isRefusal(r.Error) && r.sim != nil && !r.simRefused {
				r.Detail = "the server refused it, the simulator did not"
			}
			continue
		}
		if r.simRefused {
			r.Off, r.Detail = OffContext, "the simulator took it for longer than the slot's context; the server "+
				"served it"
			continue
		}
		if r.Predicted == nil || *c == *r.Predicted {
			continue
		}
		d := *c - *r.Predicted
		switch {
		case initial[i] && d > 0 && !strings.HasPrefix(coldCheck, "cold"):
			// The note is said as "not cold: …" already: the cause, then the check's words.
			r.Off, r.Detail = OffNotCold, strings.TrimPrefix(coldCheck, string(OffNotCold)+": ")
		case r.simRAM != nil && *c == *r.simRAM:
			r.Off = OffRAM
			r.Detail = fmt.Sprintf("the server took a prompt of %d tokens back from its RAM prompt cache "+
				"(--cache-ram) for it, which the prediction did not model until the server showed it", r.fromRAM)
		case d > 0 && r.fromRAM > 0:
			// The simulator with the RAM cache took a prompt back from RAM here, and the server
			// found a longer one: its RAM held prompts from before this bench.
			r.Off = OffRAM
			r.Detail = fmt.Sprintf("the server's RAM prompt cache (--cache-ram) held a longer prompt for it than the "+
				"simulator knew of (%d tokens more): one from before this bench; start llama-server with --cache-ram "+
				"0", d)
		case d > 0 && before != nil && d <= before.generated-1 && r.Cause == "extends":
			r.Off = OffOwnAnswer
			r.Detail = fmt.Sprintf("the server matched %d of the %d tokens it generated for request %d: the "+
				"recording holds this server's own answer there", d, before.generated, before.N)
		case d > 0 && r.ramModelled:
			// The server keeps prompts in RAM, and found one longer than any this bench sent
			// could give: one an earlier bench (or anything else sent to it) left there.
			r.Off = OffRAM
			r.Detail = fmt.Sprintf("the server's RAM prompt cache (--cache-ram) held a prompt for it that this bench "+
				"never sent (%d tokens more than the simulator's): one from before this bench; start llama-server "+
				"with --cache-ram 0", d)
		case concurrent:
			r.Off = OffOrder
			r.Detail = fmt.Sprintf("with %d sessions at once the server may have taken requests in another order "+
				"than the bench sent them", o.Concurrency)
		default:
			r.Off = OffUnexplained
			r.Detail = fmt.Sprintf("the server cached %d tokens, the simulator %d", *c, *r.Predicted)
		}
	}
	return coldCheck
}

// initialRows are the requests sent before any answer came back: the server took one of them
// first, with the cache as the run found it.
func initialRows(rows []Row) map[int]bool {
	first := time.Duration(-1)
	for _, r := range rows {
		if end := r.Sent + r.Total; first < 0 || end < first {
			first = end
		}
	}
	out := map[int]bool{}
	for i, r := range rows {
		if r.Sent < first || first == 0 && i == 0 {
			out[i] = true
		}
	}
	if len(out) == 0 && len(rows) > 0 {
		out[0] = true
	}
	return out
}

// checkCold says what the first requests of a run showed: on a cold cache the one the server took
// first takes nothing from it.
func checkCold(cold string, rows []Row, initial map[int]bool) string {
	var first *Row
	for i := range rows {
		if !initial[i] {
			continue
		}
		r := &rows[i]
		c := r.Usage.CachedTokens
		if c == nil {
			continue
		}
		if *c == 0 {
			return "cold: the first request took nothing from the cache"
		}
		if first == nil || *c < *first.Usage.CachedTokens {
			first = r
		}
	}
	if first == nil {
		for i := range rows {
			if initial[i] {
				return "not checked: the first request has no cached figure (" + rows[i].Why + ")"
			}
		}
		return ""
	}
	prompt := "?"
	if first.Usage.PromptTokens != nil {
		prompt = fmt.Sprint(*first.Usage.PromptTokens)
	}
	c := *first.Usage.CachedTokens
	switch {
	case strings.HasPrefix(cold, "erased"):
		return fmt.Sprintf("not cold: the first request took %d of its %s tokens from the cache after the slots were "+
			"erased — llama-server keeps prompts in RAM apart from its slots (--cache-ram, on by default); start it "+
			"with --cache-ram 0 for a cold bench", c, prompt)
	case strings.HasPrefix(cold, "emptied"):
		return fmt.Sprintf("not cold: the first request took %d of its %s tokens from the cache after it was %s", c,
			prompt, cold)
	}
	return fmt.Sprintf("not cold: the first request took %d of its %s tokens from the cache, which was not emptied "+
		"(%s)", c, prompt, cold)
}

// isRefusal says whether an error is a server refusing a prompt for its size.
func isRefusal(err string) bool {
	return strings.Contains(err, "exceed_context_size") || strings.Contains(err, "exceeds the available context") ||
		strings.Contains(err, "context_length_exceeded") || strings.Contains(err, "larger than the max context")
}

// Percentiles are the 50th, 90th and 99th percentiles of a figure over a run's requests.
type Percentiles struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
}

// percentiles of vs (nearest rank).
func percentiles(vs []float64) Percentiles {
	if len(vs) == 0 {
		return Percentiles{}
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return Percentiles{N: len(s), P50: rank(0.5), P90: rank(0.9), P99: rank(0.99)}
}

// SessionTotals are one session's share of a run with several.
type SessionTotals struct {
	Session int    `json:"session"`
	File    string `json:"file,omitempty"`
	Totals  Totals `json:"totals"`
	// TTFT and PromptMS are the percentiles of its requests' times to first token and of the
	// server's prompt reading (prompt_ms), in milliseconds.
	TTFT     Percentiles `json:"ttft_ms"`
	PromptMS Percentiles `json:"prompt_ms"`
}

// timePercentiles are the TTFT and prompt_ms percentiles of rows (the answered ones).
func timePercentiles(rows []Row) (ttft, prompt Percentiles) {
	var t, p []float64
	for _, r := range rows {
		if r.Error != "" {
			continue
		}
		t = append(t, ms(r.TTFT))
		if r.Usage.PromptMS != nil {
			p = append(p, *r.Usage.PromptMS)
		}
	}
	return percentiles(t), percentiles(p)
}

func sessionTotals(rows []Row, sessions []session) []SessionTotals {
	out := make([]SessionTotals, len(sessions))
	by := map[int][]Row{}
	for _, r := range rows {
		by[r.Session] = append(by[r.Session], r)
	}
	for i, s := range sessions {
		st := SessionTotals{Session: s.index, File: s.name}
		for _, r := range by[s.index] {
			st.Totals.add(r)
		}
		st.TTFT, st.PromptMS = timePercentiles(by[s.index])
		out[i] = st
	}
	return out
}
