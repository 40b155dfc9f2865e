package audit

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Report is a whole recording's audit.
type Report struct {
	File      string    `json:"file,omitempty"`
	Kind      string    `json:"kind,omitempty"`
	Tokenizer string    `json:"tokenizer"`
	Requests  []Request `json:"-"`
	Totals    Totals    `json:"totals"`
	// Unreadable lists prompt requests whose body could not be read; the audit went on without them.
	Unreadable []Problem `json:"unreadable,omitempty"`
	// Damage is the error that stopped the reader (a cut or corrupt line); what came before it
	// was audited.
	Damage string `json:"damage,omitempty"`
	// Currency and Prices say the money's currency and the price table it came from, when any
	// request had a price.
	Currency string `json:"currency,omitempty"`
	Prices   string `json:"prices,omitempty"`
}

// Problem is a request the audit could not read.
type Problem struct {
	Seq   int    `json:"seq"`
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// Totals sum a report.
type Totals struct {
	Requests      int `json:"requests"`
	Conversations int `json:"conversations"`
	// Other counts exchanges that are not prompts (model lists, health checks).
	Other          int   `json:"other_exchanges"`
	PromptTokens   int64 `json:"prompt_tokens"`
	ReusableTokens int64 `json:"reusable_tokens"`
	LostTokens     int64 `json:"lost_tokens"`
	// ReusableShare is the share of prompt tokens a prefix cache could have reused; PossibleShare
	// what it could have been without the breaks.
	ReusableShare float64 `json:"reusable_share"`
	PossibleShare float64 `json:"possible_share"`
	// ByCause counts requests and lost tokens per cause.
	ByCause map[Cause]*CauseTotal `json:"by_cause"`
	Breaks  int                   `json:"breaks"`
	Failing int                   `json:"failing"`
	// Cost is what the priced requests cost; Kept what they would have cost had every lost token
	// been read from the cache (a session that kept its prefix); LostCost the difference.
	Cost     float64 `json:"cost,omitempty"`
	Kept     float64 `json:"cost_kept,omitempty"`
	LostCost float64 `json:"lost_cost,omitempty"`
	Priced   int     `json:"priced_requests,omitempty"`
}

// CauseTotal is one cause's share of a report.
type CauseTotal struct {
	Requests   int     `json:"requests"`
	LostTokens int64   `json:"lost_tokens"`
	LostCost   float64 `json:"lost_cost,omitempty"`
}

func (r *Report) add(q Request) {
	r.Requests = append(r.Requests, q)
	t := &r.Totals
	t.Requests++
	if q.Cause == NewConversation || q.Cause == AcrossSessions {
		t.Conversations++
	}
	t.PromptTokens += int64(q.PromptTokens)
	t.ReusableTokens += int64(q.ReusableTokens)
	t.LostTokens += int64(q.LostTokens)
	ct := t.ByCause[q.Cause]
	if ct == nil {
		ct = &CauseTotal{}
		t.ByCause[q.Cause] = ct
	}
	ct.Requests++
	ct.LostTokens += int64(q.LostTokens)
	if q.Cost != nil {
		t.Priced++
		t.Cost += *q.Cost
		t.LostCost += *q.LostCost
		t.Kept = t.Cost - t.LostCost
		ct.LostCost += *q.LostCost
	}
	if q.Break {
		t.Breaks++
	}
	if q.Fails {
		t.Failing++
	}
	t.setShares()
}

// setShares derives the shares from the token counts.
func (t *Totals) setShares() {
	if t.PromptTokens > 0 {
		t.ReusableShare = float64(t.ReusableTokens) / float64(t.PromptTokens)
		t.PossibleShare = float64(t.ReusableTokens+t.LostTokens) / float64(t.PromptTokens)
	}
}

// Plus is two audits' totals together (a bench of several sessions): the counts added, the
// shares derived again. The zero Totals is the start of a sum.
func (t Totals) Plus(b Totals) Totals {
	if t.ByCause == nil {
		return b
	}
	out := t
	out.Requests += b.Requests
	out.Conversations += b.Conversations
	out.Other += b.Other
	out.PromptTokens += b.PromptTokens
	out.ReusableTokens += b.ReusableTokens
	out.LostTokens += b.LostTokens
	out.Breaks += b.Breaks
	out.Failing += b.Failing
	out.Cost += b.Cost
	out.Kept += b.Kept
	out.LostCost += b.LostCost
	out.Priced += b.Priced
	out.ByCause = map[Cause]*CauseTotal{}
	for _, m := range []map[Cause]*CauseTotal{t.ByCause, b.ByCause} {
		for c, ct := range m {
			if out.ByCause[c] == nil {
				out.ByCause[c] = &CauseTotal{}
			}
			out.ByCause[c].Requests += ct.Requests
			out.ByCause[c].LostTokens += ct.LostTokens
			out.ByCause[c].LostCost += ct.LostCost
		}
	}
	out.setShares()
	return out
}

// Failed says whether the audit found a break that fails it.
func (r *Report) Failed() bool { return r.Totals.Failing > 0 }

// Report is the audit so far.
func (a *Auditor) Report() *Report { return &a.report }

// Source is what Run reads from: a replay.Reader.
type Source interface {
	Next() (replay.Entry, error)
}

// Run audits every exchange of a recording. Unreadable requests are listed and skipped; damage in
// the file stops the reading, and the report holds everything before it (Damage says where), and
// the error is returned too. progress, when not nil, is called after each request.
func Run(ctx context.Context, src Source, o Options, progress func(*Request)) (*Report, error) {
	a, err := New(o)
	if err != nil {
		return nil, err
	}
	next, stop := ahead(src)
	defer stop()
	for {
		if err := ctx.Err(); err != nil {
			return a.Report(), err
		}
		e, err := next()
		if errors.Is(err, io.EOF) {
			return a.Report(), nil
		}
		if err != nil {
			a.report.Damage = err.Error()
			return a.Report(), err
		}
		q, err := a.Add(ctx, e)
		var unreadable *UnreadableError
		if errors.As(err, &unreadable) {
			continue // listed in the report
		}
		if err != nil {
			return a.Report(), err // the tokenizer failed: a server that went away
		}
		if q != nil && progress != nil {
			progress(q)
		}
	}
}

// readAhead is how many exchanges the reader may get ahead of the audit.
const readAhead = 4

type read struct {
	e   replay.Entry
	err error
}

// ahead reads src on a goroutine of its own, a few exchanges ahead of the audit: reading (the
// bodies put back together and checked by their SHA-256) takes one core while tokenizing takes
// the other. The entries come in src's order, its first error last; stop ends the goroutine.
func ahead(src Source) (next func() (replay.Entry, error), stop func()) {
	ch := make(chan read, readAhead)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(ch)
		for {
			e, err := src.Next()
			select {
			case ch <- read{e, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	})
	next = func() (replay.Entry, error) {
		r, ok := <-ch
		if !ok {
			return replay.Entry{}, io.EOF
		}
		return r.e, r.err
	}
	return next, func() { close(done); wg.Wait() }
}
