package livetarget

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// contextPlay is what a context case's play keeps for reading its answer: each step's request
// after its call (or its compaction), each compaction's summary and whether it failed, and each
// result's later requests while the history still holds it (until a compaction or a rewind).
type contextPlay struct {
	at      map[int]*slot
	summary map[int]string
	failed  map[int]*bool
	later   map[int][]*slot
	open    []int // the steps whose results the requests still carry
}

// add is step i's request after its call: a later request for every step still carried.
func (pc *contextPlay) add(i int, s *slot) {
	for _, j := range pc.open {
		pc.later[j] = append(pc.later[j], s)
	}
	pc.at[i] = s
	pc.open = append(pc.open, i)
}

// summarised says whether a compaction step's summary reply holds a summary (context.md §7).
func summarised(st conformance.ContextStep) bool {
	return st.Summary == nil || *st.Summary == "text" || *st.Summary == "text_and_call"
}

// compaction is step i's compaction turn: the summary request, answered as the step's summary
// has it — a summary, a summary and then a call (of a file that is not there: a harness that ran
// it would insert its error, with an id of its own), a call alone, nothing. A compaction whose
// reply has no summary is to fail; whether it did is kept for the answer.
func (pc *contextPlay) compaction(p *agents.Profile, i int, st conformance.ContextStep) *turn {
	sum := fmt.Sprintf("lembas-check summary %d: the session so far, for the case's step %d.", i+1, i+1)
	pc.summary[i], pc.open = sum, nil
	s := &slot{reply: text(sum)}
	kind := "text"
	if st.Summary != nil {
		kind = *st.Summary
	}
	if kind == "text_and_call" || kind == "call" {
		words := sum
		if kind == "call" {
			words = ""
		}
		s.replyFn = func(e *env, _ *request) script.Reply {
			c, err := makeCall(p, "read", callPrefix+"summary", readVals(e.callPath("lembas-check-summary-call.md"), 0,
				0))
			if err != nil {
				return text(words)
			}
			r := callReply(c)
			r.Text = words
			return r
		}
	} else if kind == "empty" {
		s.reply = text("")
	}
	tn := &turn{compact: true, slots: []*slot{s}}
	if !summarised(st) {
		s.aside = true
		failed := new(bool)
		pc.failed[i] = failed
		tn.fails = func(e *env, err error) error {
			var f *acp.Fault
			var u *acp.Unsupported
			switch {
			case err == nil:
				if _, ok := e.h.(*httpHarness); ok {
					return &acp.Unsupported{What: "a compaction that fails",
						Why: "over HTTP the compact request's answer does not say whether it failed"}
				}
				return nil
			case errors.As(err, &f), errors.As(err, &u), errors.Is(err, context.Canceled),
				errors.Is(err, context.DeadlineExceeded):
				return err
			}
			*failed = true // the harness refused it, as the spec has it
			return nil
		}
	}
	return tn
}

// afterCompaction is a compaction step's answer: what follows the summary in the request after
// it — or, for a compaction that was to fail, "" when it did. The request after a compaction
// carries no message of the summary request ("The summary request is never shown as a turn of
// the session, and it is not stored as one").
func (pc *contextPlay) afterCompaction(i int, st conformance.ContextStep, q *request) string {
	if f := pc.failed[i]; f != nil {
		if *f {
			return ""
		}
		return fmt.Sprintf("(the compaction succeeded, though the summary's reply (%s) had no text)", *st.Summary)
	}
	ask := spec.Text("tasks.compact.ask")
	for _, m := range q.msgs {
		if strings.Contains(m.text, ask) {
			return "(the request after the compaction still carries the summary request: " + ask + ")"
		}
	}
	return afterSummary(q, pc.summary[i])
}

// rewritten is what step i's result became in a later request that still carries it ("" when
// every one carries it as it was inserted: "Nothing already sent to the model is ever
// rewritten").
func (pc *contextPlay) rewritten(i int, call, inserted string) string {
	for _, s := range pc.later[i] {
		if s.req == nil {
			continue
		}
		if r, ok := s.req.result(call); ok && r != inserted {
			return "\n(rewritten in a later request: " + r + ")"
		}
	}
	return ""
}

// rewindAction takes back the newest turns before the next prompt (_lembas/session/rewind); a
// harness that cannot skips the case, saying so.
func rewindAction(i int, st conformance.ContextStep) action {
	n := 1
	if st.Turns != nil {
		n = *st.Turns
	}
	return action{what: fmt.Sprintf("step %d: taking back %d turns", i+1, n), do: func(ctx context.Context,
		e *env) error {
		r, ok := e.h.(interface {
			Rewind(context.Context, int) (int, error)
		})
		if !ok {
			return &acp.Unsupported{What: "a turn taken back (an undo, a rewind)",
				Why: "the harness is driven neither over ACP nor A2A, which carry _lembas/session/rewind"}
		}
		got, err := r.Rewind(ctx, n)
		if err == nil && got != n {
			err = fmt.Errorf("the harness took back %d turns of the %d asked for", got, n)
		}
		return err
	}}
}

// Rewind takes back the session's newest turns (_lembas/session/rewind).
func (h *acpHarness) Rewind(ctx context.Context, turns int) (int, error) {
	return h.c.Rewind(ctx, h.s, turns)
}

// Rewind takes back the conversation's newest turns (_lembas/session/rewind over A2A).
func (h *a2aHarness) Rewind(ctx context.Context, turns int) (int, error) {
	return h.c.Rewind(ctx, turns)
}
