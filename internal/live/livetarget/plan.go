package livetarget

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// plan is how one case is played against a live harness: the files its session starts with, the
// turns the person starts (a prompt, or a compaction), each with the requests the harness is to
// send in it and how the model answers each; and how the case's answer is read out of those
// requests once they came.
type plan struct {
	// files are written under the case's root before the session opens: a case path → its
	// content; a path ending in "/" is a directory.
	files map[string]string
	// cwd is the session's start directory, as a case path ("/" is the case's root).
	cwd string
	// show: the client says it has a screen (prefix's `display`).
	show bool
	// clock: the case sets the harness's clock (a date).
	clock bool
	// links are symbolic links made after the files: a case path → its target as the case writes
	// it (an absolute one made under the root).
	links map[string]string
	// serve, when set, starts the harness for the case as a serve with workspace roots.
	serve *serve
	turns []*turn
	// answer reads the case's answer once every turn was played.
	answer func(*env) (any, error)
}

// turn is what the person starts: a prompt (words), or a compaction; before it, what the person
// (or the clock) does between turns.
type turn struct {
	before  []action
	words   string
	compact bool
	slots   []*slot
	// none, when it says so after the turn's before actions, leaves the turn out (a refused
	// session/new opens no session to prompt).
	none func() bool
	// fails, for a compaction that is to fail, takes the error it ended with (nil: it is not).
	fails func(*env, error) error
}

// slot is one request the harness is to send: what is done before the model answers it (a file
// changed, the clock moved, the mode set — while the turn runs), and the model's answer (a call,
// or text that ends the turn). body and req are the request once it came.
type slot struct {
	before []action
	// reply is the model's answer; replyFn, when set, makes it as the request comes (a recall
	// names the harness's id of an earlier result, known only then).
	reply   script.Reply
	replyFn func(*env, *request) script.Reply
	body    []byte
	req     *request
	came    bool
	// remade is how often the prompt was made again before this request (a compaction, a move
	// to another model); reset, that a compaction replaced the history before it.
	remade int
	reset  bool
	// aside: a request beside the session's history (a summary request whose compaction fails),
	// which the next request does not extend.
	aside bool
}

// action is one thing the person, the disk or the clock does.
type action struct {
	what string
	do   func(context.Context, *env) error
}

// env is what a case is played in: the harness, the case's root on disk, the clock.
type env struct {
	t    *Target
	h    harness
	root string // the case's "/" on disk
	out  string // outside the root: files a shell call prints
	seq  int    // the case's number in the run
	cwd  string // the session's start directory, a case path
	// ids are the harness's ids of the results it gave the case's steps, by the case's id.
	mu  sync.Mutex
	ids map[string]string
}

// real is a case path on disk, resolved by its text (filesystem.md, Paths) against the start
// directory, under the root.
func (e *env) real(p, cwd string) string {
	if r := fsaccess.Resolve(cwd, p); r != "/" {
		return e.root + r
	}
	return e.root
}

// callPath is a case path as the model's call gives it: an absolute one under the root (the
// harness sees the case's / as its session's), a relative one as it is — but for a harness that
// takes absolute paths only (its profile's tools.paths), from the root too.
// The path keeps its spelling (., .., //): resolving it is the harness's to do.
func (e *env) callPath(p string) string {
	switch {
	case strings.HasPrefix(p, "/"):
		return e.root + p
	case e.t.o.Profile.Tools.Paths == "absolute":
		return e.root + strings.TrimSuffix(e.cwd, "/") + "/" + p
	}
	return p
}

// casePaths writes the harness's paths back as the case's: the root is the case's "/".
func (e *env) casePaths(s string) string {
	s = strings.ReplaceAll(s, e.root+"/", "/")
	return strings.ReplaceAll(s, e.root, "/")
}

// text ends a turn: the model answers without a call.
func text(s string) script.Reply { return script.Reply{Text: s} }

// callReply is a reply that makes one call.
func callReply(c wire.ToolCall) script.Reply { return script.Reply{ToolCalls: []wire.ToolCall{c}} }

// playing is the case being played: the slots of the turn running, served to the fake's Turn
// hook one request at a time.
type playing struct {
	e     *env
	ctx   context.Context
	mu    sync.Mutex
	slots []*slot
	next  int
	// compact: the turn is a compaction, whose request may come without tools.
	compact bool
	asides  int
	extra   int
	errs    []error
}

// serve answers one request of the harness: an aside (a request with no tools, which a harness
// sends beside its session, such as a title) with text, else the next slot's reply, after what
// is to be done before it.
func (p *playing) serve(q *wire.Request, body []byte) *script.Reply {
	p.mu.Lock()
	if len(q.Tools) == 0 && !p.compact {
		p.asides++
		p.mu.Unlock()
		return &script.Reply{Text: "lembas-check"}
	}
	if p.next >= len(p.slots) {
		p.extra++
		p.mu.Unlock()
		return &script.Reply{Text: "done"}
	}
	s := p.slots[p.next]
	p.next++
	p.mu.Unlock()
	s.body = body
	req, err := parseRequest(body)
	if err != nil {
		p.fail(fmt.Errorf("a request the live target cannot read: %v", err))
	}
	s.req = req
	if req != nil {
		p.e.learn(req)
	}
	for _, a := range s.before {
		if err := a.do(p.ctx, p.e); err != nil {
			p.fail(fmt.Errorf("%s: %w", a.what, err))
		}
	}
	r := s.reply
	if s.replyFn != nil && req != nil {
		r = s.replyFn(p.e, req)
	}
	p.mu.Lock()
	s.came = true
	p.mu.Unlock()
	return &r
}

func (p *playing) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, err)
}

// err is the first thing that went wrong serving the turn.
func (p *playing) err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.errs) == 0 {
		return nil
	}
	return p.errs[0]
}

// served says how many of the turn's requests came.
func (p *playing) served() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, s := range p.slots {
		if s.came {
			n++
		}
	}
	return n
}

// learn keeps the harness's id of each result a request carries for a call the case made.
func (e *env) learn(q *request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, m := range q.msgs {
		if m.role != "tool" || !strings.HasPrefix(m.callID, callPrefix) {
			continue
		}
		if id, ok := resultID(m.text); ok {
			e.ids["#"+strings.TrimPrefix(m.callID, callPrefix)] = id
		}
	}
}

// callPrefix begins the id of every call the live target makes for a case's step: the rest is
// the step's result id without its #, so that a harness that takes its ids from the call's
// gives the case's own.
const callPrefix = "call_"

// resultID is the id a result begins with, in its bracket: "[#0001 …]" → "#0001".
func resultID(s string) (string, bool) {
	if !strings.HasPrefix(s, "[#") {
		return "", false
	}
	end := strings.IndexAny(s, " ]")
	if end < 0 {
		return "", false
	}
	return s[1:end], true
}
