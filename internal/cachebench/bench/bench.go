// Package bench replays a recording, frozen, against a real OpenAI-compatible server and measures
// each request: time to first token, total time, the cached tokens the server reports (in
// whichever dialect it speaks) beside two predictions — the audit's of what a prefix cache could
// reuse, and, against a llama-server, the cache simulator's of what that server caches, configured
// like it (predict.go). With a variant it runs twice in one go — the recording as it was, then
// rewritten the way a harness breaking one rule would have sent it — and reports both side by
// side, with ratios. With Concurrency it replays several sessions at once (sessions.go).
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Row is one request of one run.
type Row struct {
	Run string `json:"run"`
	// Session is the session's number from 1 (several sessions at once); 0 with one.
	Session int    `json:"session,omitempty"`
	N       int    `json:"n"` // the prompt request's place in its session, from 1
	Seq     int    `json:"seq"`
	Line    int    `json:"line"`
	Status  int    `json:"status"`
	Error   string `json:"error,omitempty"`
	// Why says why a row has no cached figure: the server refused it (its reason), the answer
	// was cut, or it carried no usage.
	Why string `json:"why,omitempty"`
	// Retried: sent again on a new connection, the server having closed the reused one.
	Retried bool `json:"retried,omitempty"`
	// Sent is when the request was sent, from the run's start; TTFT the time to the first token
	// (to the whole answer when not streamed); Total the time to the last byte.
	Sent  time.Duration `json:"-"`
	TTFT  time.Duration `json:"-"`
	Total time.Duration `json:"-"`
	Usage usage.Usage   `json:"usage"`
	// Reusable is the audit's reusable tokens for this request, PredictedPrompt its prompt
	// length, Cause how it continues the one before (with the bench's tokenizer).
	Reusable        int         `json:"predicted_reusable_tokens"`
	PredictedPrompt int         `json:"predicted_prompt_tokens"`
	Cause           audit.Cause `json:"cause"`
	// Predicted is what the simulator configured like the server says it caches (nil: no
	// prediction: the server is not a llama-server, or the request could not be predicted);
	// Off names why the server cached otherwise, Detail says it in words (explain.go).
	Predicted *int   `json:"predicted_cached_tokens,omitempty"`
	Off       Off    `json:"prediction_off,omitempty"`
	Detail    string `json:"prediction_detail,omitempty"`
	// Cost is what the server's usage of this request cost (nil: no price for the model).
	Cost *float64 `json:"cost,omitempty"`

	// what the simulators said, for explain
	sim, simRAM *int
	fromRAM     int
	simRefused  bool
	generated   int
	// ramModelled: the prediction modelled the server's RAM prompt cache for this request
	// (probed, or shown by an earlier one).
	ramModelled bool
}

// counted says whether the row's prediction counts in the predicted totals: not for a request
// the server failed or refused, which has no cached figure to set it against (the simulator
// still served it, as the server did).
func (r Row) counted() bool { return r.Predicted != nil && r.Error == "" }

// Efficiency is reported cached ÷ predicted reusable; ok is false when the server did not
// report, or nothing was predicted.
func (r Row) Efficiency() (float64, bool) {
	if r.Usage.CachedTokens == nil || r.Reusable == 0 {
		return 0, false
	}
	return float64(*r.Usage.CachedTokens) / float64(r.Reusable), true
}

// MarshalJSON adds the times in milliseconds and the efficiency.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	out := struct {
		plain
		SentMS     float64  `json:"sent_ms"`
		TTFTMS     float64  `json:"ttft_ms"`
		TotalMS    float64  `json:"total_ms"`
		Efficiency *float64 `json:"efficiency,omitempty"`
	}{plain: plain(r), SentMS: ms(r.Sent), TTFTMS: ms(r.TTFT), TotalMS: ms(r.Total)}
	if e, ok := r.Efficiency(); ok {
		out.Efficiency = &e
	}
	return json.Marshal(out)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Run is one replay of the session (or sessions): the baseline, or a variant.
type Run struct {
	Name string `json:"name"`
	// Rows are in the order of sessions, then of requests.
	Rows []Row `json:"-"`
	// Cold says what was done to start from a cold cache; ColdCheck what the first request
	// showed of it.
	Cold      string       `json:"cold"`
	ColdCheck string       `json:"cold_check,omitempty"`
	Audit     audit.Totals `json:"audit"`
	Totals    Totals       `json:"totals"`
	// TTFT and PromptMS are the percentiles of the requests' times to first token and of the
	// server's prompt reading (prompt_ms), in milliseconds.
	TTFT     Percentiles `json:"ttft_ms_percentiles"`
	PromptMS Percentiles `json:"prompt_ms_percentiles"`
	// Sessions are each session's totals, with several sessions.
	Sessions []SessionTotals `json:"sessions,omitempty"`
	// Counters are what the server's own /metrics counted over the run (vLLM's prefix-cache
	// queries and hits, SGLang's, llama-server's), nil when it has none.
	Counters *replay.CacheCounters `json:"server_counters,omitempty"`
	// CountersMissing says why Counters is nil: what /metrics answered.
	CountersMissing string `json:"server_counters_missing,omitempty"`
	// Currency is the money's, with Options.Prices.
	Currency string `json:"currency,omitempty"`
}

// Totals sum a run.
type Totals struct {
	Requests int `json:"requests"`
	// Errors counts the requests the server answered with an error (or whose answer was cut):
	// server errors, counted apart from cache misses; Refused those of them refused for their
	// size (llama-server's exceed_context_size_error).
	Errors  int `json:"errors"`
	Refused int `json:"refused,omitempty"`
	// Reported counts the requests whose answer reported cached tokens; Cached and Prompt sum
	// those answers' figures.
	Reported int   `json:"reported"`
	Cached   int64 `json:"cached_tokens"`
	Prompt   int64 `json:"prompt_tokens"`
	// Reusable sums the audit's reusable tokens over the requests that reported.
	Reusable int64 `json:"predicted_reusable_tokens"`
	// Compared counts the requests with both a reported and a predicted cached figure; Exact
	// those where the two agree; Predicted, ComparedCached and OffTokens sum the prediction, the
	// server's figure and their differences over them; ByOff counts the differences by cause.
	Compared       int         `json:"compared,omitempty"`
	Exact          int         `json:"exact,omitempty"`
	Predicted      int64       `json:"predicted_cached_tokens,omitempty"`
	ComparedCached int64       `json:"compared_cached_tokens,omitempty"`
	OffTokens      int64       `json:"off_tokens,omitempty"`
	ByOff          map[Off]int `json:"by_off,omitempty"`
	TTFTMS         float64     `json:"ttft_ms"`
	TotalMS        float64     `json:"total_ms"`
	// Cost sums the priced requests' Cost.
	Cost float64 `json:"cost,omitempty"`
	// PromptMS sums llama.cpp's prompt_ms (reading the prompt), where reported.
	PromptMS float64 `json:"prompt_ms"`
}

func (t *Totals) add(r Row) {
	t.Requests++
	if r.Error != "" {
		t.Errors++
		if isRefusal(r.Error) {
			t.Refused++
		}
	}
	if r.Usage.CachedTokens != nil {
		t.Reported++
		t.Cached += int64(*r.Usage.CachedTokens)
		t.Reusable += int64(r.Reusable)
		if r.counted() {
			t.Compared++
			t.Predicted += int64(*r.Predicted)
			t.ComparedCached += int64(*r.Usage.CachedTokens)
			d := int64(*r.Usage.CachedTokens - *r.Predicted)
			if d == 0 {
				t.Exact++
			} else {
				t.OffTokens += max(d, -d)
				if t.ByOff == nil {
					t.ByOff = map[Off]int{}
				}
				t.ByOff[r.Off]++
			}
		}
	}
	if r.Usage.PromptTokens != nil {
		t.Prompt += int64(*r.Usage.PromptTokens)
	}
	if r.Usage.PromptMS != nil {
		t.PromptMS += *r.Usage.PromptMS
	}
	t.TTFTMS += ms(r.TTFT)
	t.TotalMS += ms(r.Total)
	if r.Cost != nil {
		t.Cost += *r.Cost
	}
}

// Efficiency is the run's cached tokens ÷ predicted reusable, over the requests that reported.
func (t Totals) Efficiency() (float64, bool) {
	if t.Reported == 0 || t.Reusable == 0 {
		return 0, false
	}
	return float64(t.Cached) / float64(t.Reusable), true
}

// Agreement is the share of compared requests the prediction got exactly, and the share of the
// server's cached tokens it was off by; ok is false when nothing was compared.
func (t Totals) Agreement() (exact, off float64, ok bool) {
	if t.Compared == 0 {
		return 0, 0, false
	}
	exact = float64(t.Exact) / float64(t.Compared)
	if t.ComparedCached > 0 {
		off = float64(t.OffTokens) / float64(t.ComparedCached)
	} else if t.OffTokens > 0 {
		off = 1
	}
	return exact, off, true
}

// Result is a whole bench.
type Result struct {
	File      string `json:"file"`
	Server    string `json:"server"`
	Tokenizer string `json:"tokenizer"`
	// LlamaServer is what the server said of itself, when it is a llama-server; Predictor how
	// the prediction of its cache was configured ("" when there was none).
	LlamaServer *replay.LlamaServer `json:"llama_server,omitempty"`
	Predictor   string              `json:"predictor,omitempty"`
	// Simulated: the server was the simulator (--sim): its prompt times are modelled, its wall
	// times the fake's on loopback.
	Simulated bool `json:"simulated,omitempty"`
	// Sessions is how many sessions each run replayed, Concurrency how many at once.
	Sessions    int     `json:"sessions,omitempty"`
	Concurrency int     `json:"concurrency,omitempty"`
	Rate        float64 `json:"rate,omitempty"`
	Runs        []Run   `json:"runs"`
	// Stopped is the error that cut the bench short (a damaged recording, a server gone, an
	// interrupt); the runs hold what was measured before it.
	Stopped string `json:"stopped,omitempty"`
	// Unpriced says why the runs have no cost, when nothing had a price: no table, or the
	// table's name and the models it has no price for.
	Unpriced string `json:"unpriced,omitempty"`
}

// Options say how to bench.
type Options struct {
	Sender replay.Sender
	// Adjust is applied to every request sent (the answer's length, a stream's usage).
	Adjust replay.Adjust
	// Variants to run after the baseline (each resolved against the session's length).
	Variants []Variant
	// Tokenizer makes the audit's predictions; nil: tiktoken.
	Tokenizer tokens.Tokenizer
	// Predictor, when set, predicts the server's cached tokens (NewPredictor: configured like
	// the llama-server benched, or like the simulator).
	Predictor *Predictor
	// LlamaServer is what the server said of itself, for the report.
	LlamaServer *replay.LlamaServer
	// Cold erases the server's slots before each run where it offers that (llama.cpp
	// POST /slots/{id}?action=erase).
	Cold bool
	// Reset, when set, is called before each run instead of erasing over HTTP: the server is the
	// simulator.
	Reset func() string
	// ServerOrder, when set, says when the server took the request it answered with an
	// X-Request-Id and when it let it go, on a clock of its own (only the order counts): the
	// simulator's (--sim), whose answers' timings are modelled, says it so.
	ServerOrder func(requestID string) (began, ended time.Duration, ok bool)
	// Concurrency is how many sessions run at once (0 or 1: one); with one recording, that many
	// copies of it. Rate, when above 0, starts at most that many sessions a second.
	Concurrency int
	Rate        float64
	// OnRow is called after each request (progress, metrics), from the session's goroutine
	// (one at a time).
	OnRow func(Row)
	// OnPhase is called as each step starts, for progress: "reading" the recording (run ""), then
	// for each run "tokenizing" (the audit's prediction) and "replaying" its requests.
	OnPhase func(run, step string, requests int)
	// OnPredicted is called after the prediction of each request ("tokenizing": the recording is
	// read once, at "reading", so that step counts requests, not bytes).
	OnPredicted func()
	// Prices, when set, puts money on each run: what the server's usage cost, what the audit
	// predicts, and what the breaks lost (cost.go).
	Prices *prices.Table
}

// Open opens the recording. The bench opens it once and decodes it whole (scan.go): its
// prediction and replay, for each run and session, read the decoded exchanges.
type Open func() (replay.Source, io.Closer, error)

// Recording is one recording to bench: its name for the report and how to open it.
type Recording struct {
	Name string
	Open Open
	// scanned keeps the pass that counts its requests and finds its models (scan.go), so that
	// the count and the simulator share it; Recordings sets it.
	scanned *scanned
}

// Bench runs the baseline and each variant of one recording (with Concurrency, of that many
// copies of it at once).
func Bench(ctx context.Context, open Open, o Options) (*Result, error) {
	return BenchAll(ctx, []Recording{{Open: open, scanned: &scanned{}}}, o)
}

// BenchAll runs the baseline and each variant of several recordings, Concurrency at once.
func BenchAll(ctx context.Context, recs []Recording, o Options) (*Result, error) {
	o.phase("", "reading", 0)
	sessions, err := sessionsOf(recs, o.Concurrency)
	if err != nil {
		return nil, err
	}
	res := &Result{Server: o.Sender.URL, LlamaServer: o.LlamaServer, Simulated: o.Reset != nil}
	if o.Predictor != nil {
		defer func() { res.Predictor = o.Predictor.About }() // it says what it learnt of the server
	}
	if len(sessions) > 1 {
		res.Sessions, res.Concurrency, res.Rate = len(sessions), max(1, o.Concurrency), o.Rate
	}
	total := 0
	for _, s := range sessions {
		total += s.prompts
	}
	runs := []*Variant{nil}
	for i := range o.Variants {
		runs = append(runs, &o.Variants[i])
	}
	for _, v := range runs {
		run, err := benchRun(ctx, sessions, o, v, total)
		if run != nil {
			if o.Prices != nil {
				run.Currency = o.Prices.Currency
			}
			res.Runs = append(res.Runs, run.Run)
			if res.Tokenizer == "" {
				res.Tokenizer = run.tokenizer
			}
		}
		if err != nil {
			res.Stopped = err.Error()
			return res, err
		}
	}
	if len(res.Runs) > 0 && res.Runs[0].Audit.Priced == 0 {
		res.Unpriced = unpriced(o.Prices, recs)
	}
	return res, nil
}

// unpriced says why no request had a price: the models the table has none for.
func unpriced(t *prices.Table, recs []Recording) string {
	if t == nil {
		return "no price table"
	}
	seen := map[string]bool{}
	var models []string
	for _, r := range recs {
		_, ms, _ := r.scan()
		for _, m := range ms {
			if _, ok := t.For(m); !ok && !seen[m] {
				seen[m] = true
				models = append(models, m)
			}
		}
	}
	if len(models) == 0 {
		return "no request had a price"
	}
	return fmt.Sprintf("no price for %s in the price table (%s; --prices FILE adds one)", strings.Join(models, ", "),
		t.File)
}

func (o Options) phase(run, step string, requests int) {
	if o.OnPhase != nil {
		o.OnPhase(run, step, requests)
	}
}

type runResult struct {
	Run
	tokenizer string
}

// rewriting numbers a recording's prompt requests and rewrites each (a variant, a session's mark).
type rewriting struct {
	src     replay.Source
	rewrite func(int, []byte) ([]byte, error)
	n       int
}

func (r *rewriting) Next() (replay.Entry, error) {
	e, err := r.src.Next()
	if err != nil || !replay.IsPrompt(e.Exchange) {
		return e, err
	}
	r.n++
	if r.rewrite != nil {
		b, err := r.rewrite(r.n, e.Body)
		if err != nil {
			return e, fmt.Errorf("line %d (request %d): %v", e.Line, e.Exchange.Seq, err)
		}
		e.Body = b
	}
	return e, nil
}

// cold empties the cache before a run, and says what it did.
func cold(ctx context.Context, o Options) string {
	switch {
	case o.Reset != nil:
		if o.Predictor != nil {
			o.Predictor.erase()
		}
		return o.Reset()
	case o.Cold:
		said, erased := o.Sender.EmptyCache(ctx)
		if erased && o.Predictor != nil {
			o.Predictor.erase()
		}
		return said
	}
	return "not asked for (the cache may hold earlier requests)"
}
