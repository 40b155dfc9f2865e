package bench

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// session is one replay of a recording within a run.
type session struct {
	index   int // from 1
	name    string
	rec     Recording
	mark    int // a copy's number (from 2) put before its first user message; 0: as recorded
	prompts int
}

// sessionsOf makes the sessions of a bench: each recording once, or, with one recording and a
// concurrency above 1, that many copies of it. Copies after the first are told apart from their
// first user message on (MarkSession), as many people running one harness share its system
// prompt and tools and not their conversations.
func sessionsOf(recs []Recording, concurrency int) ([]session, error) {
	var out []session
	if len(recs) == 1 && concurrency > 1 {
		for k := 1; k <= concurrency; k++ {
			out = append(out, session{index: k, name: recs[0].Name, rec: recs[0], mark: k})
		}
		out[0].mark = 0
	} else {
		for i, r := range recs {
			out = append(out, session{index: i + 1, name: r.Name, rec: r})
		}
	}
	counts := map[string]int{}
	for i := range out {
		if n, ok := counts[out[i].name]; ok && out[i].name != "" {
			out[i].prompts = n
			continue
		}
		n, _, err := out[i].rec.scan()
		if err != nil {
			return nil, err
		}
		out[i].prompts, counts[out[i].name] = n, n
	}
	return out, nil
}

// SessionMark is what MarkSession puts before copy k's first user message.
func SessionMark(k int) string { return fmt.Sprintf("Session %d.\n\n", k) }

// MarkSession puts SessionMark(k) before the text of a request's first user message, so copy k
// of a recording is a conversation of its own that shares the recording's system prompt and
// tools.
func MarkSession(k int, body []byte) ([]byte, error) {
	r, err := chat.Parse(body)
	if err != nil {
		return nil, err
	}
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		if st, en, ok := chat.Member(m.Raw, "content"); ok {
			if with, ok := prefixText(m.Raw[st:en], SessionMark(k)); ok {
				return chat.Splice(body, []chat.Edit{{Off: m.Off + st, Len: en - st, With: with}}), nil
			}
		}
		break
	}
	return nil, fmt.Errorf("no user message with text to mark session %d in", k)
}

// rewrite is what a session sends instead of each recorded request: the variant's rewrite,
// then the copy's mark.
func (s session) rewrite(v *Variant) func(int, []byte) ([]byte, error) {
	if v == nil && s.mark == 0 {
		return nil
	}
	var vv Variant
	if v != nil {
		vv = v.Resolve(s.prompts)
	}
	return func(n int, b []byte) ([]byte, error) {
		var err error
		if v != nil {
			if b, err = vv.Rewrite(n, b); err != nil {
				return nil, err
			}
		}
		if s.mark > 0 {
			return MarkSession(s.mark, b)
		}
		return b, nil
	}
}

// runState is one run in progress.
type runState struct {
	o     Options
	name  string
	start time.Time
	mu    sync.Mutex
	rows  []Row
	// first: a request of the run was answered (the predictor's cold check).
	first bool
	// deferred: sessions at once against a server predicted: the answers are kept (answers) and
	// predicted when the run ends, in the order the server took them (order.go). Against the
	// simulator (Options.Reset), whose prompt times are modelled, only when it says the order
	// (Options.ServerOrder); else each is predicted as it is sent.
	deferred bool
	answers  []*answered
}

func benchRun(ctx context.Context, sessions []session, o Options, v *Variant, total int) (*runResult, error) {
	name := "baseline"
	if v != nil {
		name = v.Resolve(sessions[0].prompts).String()
	}
	run := &runResult{Run: Run{Name: name}}
	// The audit's prediction of each session as this run sends it.
	o.phase(name, "tokenizing", total)
	predicted := func(*audit.Request) {
		if o.OnPredicted != nil {
			o.OnPredicted()
		}
	}
	reports := make([]map[int]audit.Request, len(sessions))
	for i, s := range sessions {
		src, c, err := s.rec.source()
		if err != nil {
			return nil, err
		}
		rep, err := audit.Run(ctx, &rewriting{src: src, rewrite: s.rewrite(v)}, audit.Options{Tokenizer: o.Tokenizer,
			Prices: o.Prices}, predicted)
		c.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: predicting: %w", name, err)
		}
		run.tokenizer = rep.Tokenizer
		run.Audit = run.Audit.Plus(rep.Totals)
		reports[i] = map[int]audit.Request{}
		for _, q := range rep.Requests {
			reports[i][q.Seq] = q
		}
	}
	before, missing := o.Sender.ReadCacheCounters(ctx)
	run.Cold = cold(ctx, o)
	o.phase(name, "replaying", total)
	st := &runState{o: o, name: name, start: time.Now(),
		deferred: o.Predictor != nil && (o.Reset == nil || o.ServerOrder != nil) && len(sessions) > 1 &&
			o.Concurrency > 1}
	err := startSessions(ctx, sessions, max(1, o.Concurrency), o.Rate, func(ctx context.Context, s session) error {
		return st.play(ctx, s, v, reports[s.index-1], len(sessions) > 1)
	})
	if st.deferred {
		for _, r := range inServerOrder(o.Predictor, st.answers) {
			st.rows = append(st.rows, r)
			if o.OnRow != nil {
				o.OnRow(r)
			}
		}
	}
	sort.SliceStable(st.rows, func(i, j int) bool {
		a, b := st.rows[i], st.rows[j]
		return a.Session < b.Session || a.Session == b.Session && a.N < b.N
	})
	run.Rows = st.rows
	run.ColdCheck = explain(&run.Run, o, len(sessions) > 1 && o.Concurrency > 1)
	for _, r := range run.Rows {
		run.Totals.add(r)
	}
	run.TTFT, run.PromptMS = timePercentiles(run.Rows)
	after, missingAfter := o.Sender.ReadCacheCounters(ctx)
	switch {
	case before != nil && after != nil && after.Source == before.Source:
		d := after.Sub(*before)
		run.Counters = &d
	case before != nil && after != nil:
		run.CountersMissing = fmt.Sprintf("/metrics had %s's counters before the run and %s's after it", before.Source,
			after.Source)
	case missing != "":
		run.CountersMissing = missing
	default:
		run.CountersMissing = missingAfter
	}
	if len(sessions) > 1 {
		run.Sessions = sessionTotals(run.Rows, sessions)
	}
	return run, err
}

// startSessions runs do for each session, at most n at once, starting at most rate a second
// (0: as fast as slots free). The first error ends the others and is returned.
func startSessions(ctx context.Context, sessions []session, n int, rate float64, do func(context.Context,
	session) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	fail := func(err error) {
		once.Do(func() { first = err; cancel() })
	}
	began := time.Now()
	for i, s := range sessions {
		if rate > 0 && i > 0 {
			due := began.Add(time.Duration(float64(i) / rate * float64(time.Second)))
			t := time.NewTimer(time.Until(due))
			select {
			case <-t.C:
			case <-ctx.Done():
			}
			t.Stop()
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := do(ctx, s); err != nil {
				if len(sessions) > 1 && !errors.Is(err, context.Canceled) {
					err = fmt.Errorf("session %d: %w", s.index, err)
				}
				fail(err)
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	return first
}

// play replays one session of the run.
func (st *runState) play(ctx context.Context, s session, v *Variant, bySeq map[int]audit.Request, many bool) error {
	src, c, err := s.rec.source()
	if err != nil {
		return err
	}
	defer c.Close()
	o := st.o
	rewrite := s.rewrite(v)
	n := 0
	var pd *prediction
	var sent time.Duration
	p := &replay.Player{Sender: o.Sender, Mode: replay.Frozen, Adjust: o.Adjust,
		Rewrite: func(_ int, b []byte) ([]byte, error) {
			n++
			if rewrite == nil {
				return b, nil
			}
			return rewrite(n, b)
		},
		BeforeSend: func(path string, body []byte) {
			switch {
			case st.deferred:
				pd = o.Predictor.prepare(ctx, path, body)
			case o.Predictor != nil:
				pd = o.Predictor.begin(ctx, path, body)
			}
			sent = time.Since(st.start)
		},
		OnSent: func(x replay.Sent) {
			q := bySeq[x.Seq]
			row := Row{Run: st.name, N: n, Seq: x.Seq, Line: x.Line, Status: x.Status, Error: x.Error,
				Retried: x.Retried,
				Sent:    sent, TTFT: x.FirstToken, Total: x.Total, Usage: x.Reply.TokenUsage(),
				Reusable: q.ReusableTokens, PredictedPrompt: q.PromptTokens, Cause: q.Cause}
			if many {
				row.Session = s.index
			}
			row.Why = whyNoCache(x, row.Usage)
			row.Cost = cost(o.Prices, q.Model, row.Usage)
			if row.Usage.CompletionTokens != nil {
				row.generated = *row.Usage.CompletionTokens
			}
			st.mu.Lock()
			defer st.mu.Unlock()
			if st.deferred {
				a := &answered{pd: pd, row: row, x: x}
				a.began, a.ended = spanOf(row, x, o.ServerOrder)
				st.answers = append(st.answers, a)
				return
			}
			if o.Predictor != nil {
				o.Predictor.end(pd, x)
				o.Predictor.settle(pd, &row, !st.first)
			}
			st.rows = append(st.rows, row)
			st.first = true
			if o.OnRow != nil {
				o.OnRow(row)
			}
		}}
	return p.Play(ctx, src)
}

// whyNoCache says why a row has no cached figure.
func whyNoCache(x replay.Sent, u usage.Usage) string {
	switch {
	case x.Error != "" && x.Status >= 500:
		return "server error: " + x.Error
	case x.Error != "" && x.Status >= 400:
		return "refused: " + x.Error
	case x.Error != "":
		return x.Error
	case u.CachedTokens != nil:
		return ""
	case len(x.Reply.Usage) == 0 && len(x.Reply.Timings) == 0:
		if x.Stream {
			return "the stream carried no usage"
		}
		return "the answer carried no usage"
	}
	return "the usage has no cached-token field of any dialect (" + string(x.Reply.Usage) + ")"
}
