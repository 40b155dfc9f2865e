// Package bench replays a recording, frozen, against a real OpenAI-compatible server and measures
// each request: time to first token, total time, the cached tokens the server reports (in
// whichever dialect it speaks) beside the audit's prediction of what a prefix cache could reuse.
// With a variant it runs twice in one go — the recording as it was, then rewritten the way a
// harness breaking one rule would have sent it — and reports both side by side, with ratios.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/cachebench/audit"
	"github.com/LLeMbas/lembas-check/prices"
	"github.com/LLeMbas/lembas-check/replay"
	"github.com/LLeMbas/lembas-check/tokens"
	"github.com/LLeMbas/lembas-check/usage"
)

// Row is one request of one run.
type Row struct {
	Run    string `json:"run"`
	N      int    `json:"n"` // the prompt request's place in the session, from 1
	Seq    int    `json:"seq"`
	Line   int    `json:"line"`
	Status int    `json:"status"`
	Error  string `json:"error,omitempty"`
	// TTFT is the time to the first token (to the whole answer when not streamed); Total the time
	// to the last byte.
	TTFT  time.Duration `json:"-"`
	Total time.Duration `json:"-"`
	Usage usage.Usage   `json:"usage"`
	// Predicted is the audit's reusable tokens for this request, PredictedPrompt its prompt
	// length, Cause how it continues the one before (with the bench's tokenizer).
	Predicted       int         `json:"predicted_reusable_tokens"`
	PredictedPrompt int         `json:"predicted_prompt_tokens"`
	Cause           audit.Cause `json:"cause"`
	// Cost is what the server's usage of this request cost (nil: no price for the model).
	Cost *float64 `json:"cost,omitempty"`
}

// Efficiency is reported cached ÷ predicted reusable; ok is false when the server did not
// report, or nothing was predicted.
func (r Row) Efficiency() (float64, bool) {
	if r.Usage.CachedTokens == nil || r.Predicted == 0 {
		return 0, false
	}
	return float64(*r.Usage.CachedTokens) / float64(r.Predicted), true
}

// MarshalJSON adds the times in milliseconds and the efficiency.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	out := struct {
		plain
		TTFTMS     float64  `json:"ttft_ms"`
		TotalMS    float64  `json:"total_ms"`
		Efficiency *float64 `json:"efficiency,omitempty"`
	}{plain: plain(r), TTFTMS: ms(r.TTFT), TotalMS: ms(r.Total)}
	if e, ok := r.Efficiency(); ok {
		out.Efficiency = &e
	}
	return json.Marshal(out)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Run is one replay of the session: the baseline, or a variant.
type Run struct {
	Name string `json:"name"`
	Rows []Row  `json:"-"`
	// Cold says what was done to start from a cold cache.
	Cold   string       `json:"cold"`
	Audit  audit.Totals `json:"audit"`
	Totals Totals       `json:"totals"`
	// Currency is the money's, with Options.Prices.
	Currency string `json:"currency,omitempty"`
}

// Totals sum a run.
type Totals struct {
	Requests int `json:"requests"`
	Errors   int `json:"errors"`
	// Reported counts the requests whose answer reported cached tokens; Cached and Prompt sum
	// those answers' figures.
	Reported  int     `json:"reported"`
	Cached    int64   `json:"cached_tokens"`
	Prompt    int64   `json:"prompt_tokens"`
	Predicted int64   `json:"predicted_reusable_tokens"`
	TTFTMS    float64 `json:"ttft_ms"`
	TotalMS   float64 `json:"total_ms"`
	// Cost sums the priced requests' Cost.
	Cost float64 `json:"cost,omitempty"`
	// PromptMS sums llama.cpp's prompt_ms (reading the prompt), where reported.
	PromptMS float64 `json:"prompt_ms"`
}

func (t *Totals) add(r Row) {
	t.Requests++
	if r.Error != "" {
		t.Errors++
	}
	if r.Usage.CachedTokens != nil {
		t.Reported++
		t.Cached += int64(*r.Usage.CachedTokens)
		t.Predicted += int64(r.Predicted)
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
	if t.Reported == 0 || t.Predicted == 0 {
		return 0, false
	}
	return float64(t.Cached) / float64(t.Predicted), true
}

// Result is a whole bench.
type Result struct {
	File      string `json:"file"`
	Server    string `json:"server"`
	Tokenizer string `json:"tokenizer"`
	Runs      []Run  `json:"runs"`
	// Stopped is the error that cut the bench short (a damaged recording, a server gone, an
	// interrupt); the runs hold what was measured before it.
	Stopped string `json:"stopped,omitempty"`
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
	// Cold erases the server's slots before each run where it offers that (llama.cpp
	// POST /slots/{id}?action=erase).
	Cold bool
	// Reset, when set, is called before each run instead of erasing over HTTP (the simulator).
	Reset func() string
	// OnRow is called after each request (progress, metrics).
	OnRow func(Row)
	// OnPhase is called as each step starts, for progress: "reading" the recording (run ""), then
	// for each run "tokenizing" (the audit's prediction) and "replaying" its requests.
	OnPhase func(run, step string, requests int)
	// Prices, when set, puts money on each run: what the server's usage cost, what the audit
	// predicts, and what the breaks lost (cost.go).
	Prices *prices.Table
}

// Open opens the recording again for each pass (audit, then replay, for each run): the file is
// streamed, never held whole.
type Open func() (replay.Source, io.Closer, error)

// Bench runs the baseline and each variant.
func Bench(ctx context.Context, open Open, o Options) (*Result, error) {
	o.phase("", "reading", 0)
	n, err := countPrompts(open)
	if err != nil {
		return nil, err
	}
	res := &Result{Server: o.Sender.URL}
	runs := []*Variant{nil}
	for i := range o.Variants {
		v := o.Variants[i].Resolve(n)
		runs = append(runs, &v)
	}
	for _, v := range runs {
		name := "baseline"
		var rewrite func(int, []byte) ([]byte, error)
		if v != nil {
			name, rewrite = v.String(), v.Rewrite
		}
		run, err := benchRun(ctx, open, o, name, n, rewrite)
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
	return res, nil
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

func countPrompts(open Open) (int, error) {
	src, c, err := open()
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return audit.CountPrompts(src)
}

// rewriting numbers a recording's prompt requests and rewrites each (a variant).
type rewriting struct {
	src     replay.Source
	rewrite func(int, []byte) ([]byte, error)
	n       int
}

func (r *rewriting) Next() (replay.Entry, error) {
	e, err := r.src.Next()
	if err != nil || !audit.IsPrompt(e.Exchange) {
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

func benchRun(ctx context.Context, open Open, o Options, name string, total int, rewrite func(int, []byte) ([]byte, error)) (*runResult, error) {
	run := &runResult{Run: Run{Name: name}}
	// The prediction: the audit of the session as this run sends it.
	o.phase(name, "tokenizing", 0)
	src, c, err := open()
	if err != nil {
		return nil, err
	}
	rep, err := audit.Run(ctx, &rewriting{src: src, rewrite: rewrite}, audit.Options{Tokenizer: o.Tokenizer, Prices: o.Prices}, nil)
	c.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: predicting: %w", name, err)
	}
	run.tokenizer, run.Audit = rep.Tokenizer, rep.Totals
	bySeq := map[int]audit.Request{}
	for _, q := range rep.Requests {
		bySeq[q.Seq] = q
	}
	switch {
	case o.Reset != nil:
		run.Cold = o.Reset()
	case o.Cold:
		run.Cold = EraseSlots(ctx, o.Sender)
	default:
		run.Cold = "not asked for (the cache may hold earlier requests)"
	}
	o.phase(name, "replaying", total)
	src, c, err = open()
	if err != nil {
		return run, err
	}
	defer c.Close()
	n := 0
	p := &replay.Player{Sender: o.Sender, Mode: replay.Frozen, Prompt: audit.IsPrompt, Adjust: o.Adjust, Rewrite: func(_ int, b []byte) ([]byte, error) {
		n++
		if rewrite == nil {
			return b, nil
		}
		return rewrite(n, b)
	}, OnSent: func(s replay.Sent) {
		q := bySeq[s.Seq]
		row := Row{Run: name, N: n, Seq: s.Seq, Line: s.Line, Status: s.Status, Error: s.Error, TTFT: s.FirstToken, Total: s.Total,
			Usage: s.Reply.TokenUsage(), Predicted: q.ReusableTokens, PredictedPrompt: q.PromptTokens, Cause: q.Cause}
		row.Cost = cost(o.Prices, q.Model, row.Usage)
		run.Rows = append(run.Rows, row)
		run.Totals.add(row)
		if o.OnRow != nil {
			o.OnRow(row)
		}
	}}
	err = p.Play(ctx, src)
	return run, err
}

// EraseSlots empties a llama.cpp server's slots (GET /slots, then POST /slots/{id}?action=erase
// for each) and says what it did; a server that does not offer it is said so, and the bench goes
// on.
func EraseSlots(ctx context.Context, s replay.Sender) string {
	base := strings.TrimSuffix(strings.TrimRight(s.URL, "/"), "/v1")
	c := s.Client
	if c == nil {
		c = http.DefaultClient
	}
	do := func(method, url string) ([]byte, int, error) {
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return nil, 0, err
		}
		for k, v := range s.Header {
			req.Header[k] = v
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, 0, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		return b, resp.StatusCode, err
	}
	b, code, err := do(http.MethodGet, base+"/slots")
	if err != nil || code != http.StatusOK {
		return fmt.Sprintf("not offered (GET /slots: %s): the cache may hold earlier requests", statusText(code, err))
	}
	ids, err := SlotIDs(b)
	if err != nil {
		return "not offered (GET /slots: " + err.Error() + ")"
	}
	for _, id := range ids {
		if _, code, err := do(http.MethodPost, fmt.Sprintf("%s/slots/%d?action=erase", base, id)); err != nil || code != http.StatusOK {
			return fmt.Sprintf("not offered (POST /slots/%d?action=erase: %s): the cache may hold earlier requests", id, statusText(code, err))
		}
	}
	return fmt.Sprintf("erased %d slot(s)", len(ids))
}

func statusText(code int, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d %s", code, http.StatusText(code))
}

// SlotIDs reads the slot ids of a llama.cpp `GET /slots` answer.
func SlotIDs(b []byte) ([]int, error) {
	var slots []struct {
		ID *int `json:"id"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(b), &slots); err != nil {
		return nil, fmt.Errorf("not a list of slots: %v", err)
	}
	var ids []int
	for i, s := range slots {
		if s.ID == nil {
			return nil, fmt.Errorf("slot %d has no id", i)
		}
		ids = append(ids, *s.ID)
	}
	return ids, nil
}
