// Package audit finds where each request of a recorded session stops being a continuation of an
// earlier one, and what that costs a prefix cache. A request continues the earlier request whose
// messages after the system prompt are the longest prefix of its own (the history grew); it is
// compared with that one in the order a server reads a prompt — system prompt, tools, messages —
// and the first byte that differs is named as a JSON path, shown, and classified (Cause). A
// request that continues none starts a new conversation, which is not a break; a compaction is
// recognised by its own marks (the compaction ask, then a history replaced by its summary).
// docs/audit.md is the reference for the rules.
//
// Requests are read one at a time and tokenized incrementally (package tokens), so the audit's
// cost grows with the new tokens of each request, not with the session's length squared.
package audit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Request is the audit of one request.
type Request struct {
	Seq  int `json:"seq"`
	Line int `json:"line"`
	// Conversation numbers the conversations of the recording from 1, in the order they began.
	Conversation int `json:"conversation"`
	// Continues is the seq of the request this one is compared with (0: none).
	Continues int    `json:"continues,omitempty"`
	Model     string `json:"model,omitempty"`
	Messages  int    `json:"messages"`
	Cause     Cause  `json:"cause"`
	Break     bool   `json:"break"`
	// Fails: a break the spec does not allow, and the audit was not told to allow.
	Fails bool `json:"fails"`
	// Path is the JSON path, in this request's body, of the first byte that differs from the
	// request it continues (in the previous request's body when the part was removed).
	Path   string  `json:"path,omitempty"`
	Change *Change `json:"change,omitempty"`
	// Detail says what changed in words: which tool, which message, how much smaller.
	Detail string `json:"detail,omitempty"`
	// Clock shows a change that looks like a clock (a date or a time): "2026-11-05 → 2026-11-06".
	Clock string `json:"clock,omitempty"`
	// PromptTokens is the prompt's length; ReusableTokens the tokens it shares from the start with
	// the request it continues (what a prefix cache holding that request could reuse); LostTokens
	// those the request it continues had and this one reads again because of the break.
	PromptTokens   int `json:"prompt_tokens"`
	ReusableTokens int `json:"reusable_tokens"`
	LostTokens     int `json:"lost_tokens"`
	// Provider names the cache rules the request was also judged by (provider.go): reusable is
	// then what that cache reads.
	Provider string `json:"provider,omitempty"`
	// Cost is what the request cost with the cache it had, LostCost what its lost tokens cost
	// over reading them from the cache, in the price table's currency (nil: no price for the
	// model).
	Cost     *float64 `json:"cost,omitempty"`
	LostCost *float64 `json:"lost_cost,omitempty"`
	// Breakpoints are the JSON paths of the request's cache_control blocks (Anthropic), with
	// their TTL: "$.system[1] (5m)".
	Breakpoints []string `json:"breakpoints,omitempty"`
	// DateAt is where the request first carries a date, as a JSON path ("" when none).
	DateAt string `json:"date_at,omitempty"`
	usage  cachesim.Served
}

// Options tune an audit.
type Options struct {
	// Tokenizer counts tokens; nil: tiktoken o200k_base, offline.
	Tokenizer tokens.Tokenizer
	// Allow lists breaks that do not fail the audit (say, tools changed for an MCP server that
	// connects late, which context.md §10 rule 4 allows once).
	Allow []Cause
	// Provider names the cache rules of chat-completions and Responses requests
	// (cachesim.ProviderOpenAI; "" judges their bytes alone); Anthropic and Gemini requests always
	// follow their own provider's. TTL sets a provider's TTL (openai, gemini) instead of its
	// default.
	Provider string
	TTL      map[string]time.Duration
	// Prices, when set, puts money on what each request and break cost (prices.go).
	Prices *prices.Table
}

// Auditor audits a recording one request at a time. Not safe for concurrent use.
type Auditor struct {
	tok    tokens.Tokenizer
	tik    *tokens.Tiktoken
	allow  map[Cause]bool
	reqs   []*past
	full   map[tokens.Sum][]int   // the chain of all of a request's messages → those requests
	prefix map[tokens.Sum]int     // every prefix chain → the latest request that holds it
	head   map[tokens.Sum]int     // a request's first part → the latest request starting with it
	store  map[tokens.Sum]*stored // the parts of the requests kept (forget.go)
	tips   map[int]int            // a conversation → its latest request
	asks   []int                  // compaction asks not yet followed by their summary
	// released are asks that left asks while a request was judged: forgotten once it is kept.
	released []int
	convs    int
	report   Report
	// caches are the providers' simulated caches (provider.go).
	caches caches
	prices *prices.Table
	// dates is where each part (by sum) carries a date: a path inside it, "-" for none.
	dates *dateCache
	// last is the request read before, which the next one most often resends.
	last last
	// parts are the Parts of the request being read (partsOf), made once: a request's parts are
	// a few hundred bytes each, and were made again by each step.
	parts   []chat.Part
	partsOf *chat.Request
}

// last is the request read before: its body and cut, its parts' sums and its message chains, so
// that what the next request resends of it is neither scanned nor hashed again.
type last struct {
	body  []byte
	req   *chat.Request
	cut   []chat.Part // req.Parts()
	parts []ref
	msgs  []ref
	chain []tokens.Sum
}

// past is what the audit keeps of a request already read: no body, only sums, and each distinct
// part's bytes once (in store). Requests no later one can continue are forgotten (forget.go).
type past struct {
	seq    int
	model  string
	conv   int
	parts  []ref
	nsys   int
	ntools int
	// toolsFirst: the provider reads the tools before the system prompt (Anthropic).
	toolsFirst bool
	sysKey     tokens.Sum
	toolKey    tokens.Sum
	prompt     tokens.Prompt
	ask        bool
	replied    bool   // the recording holds the reply to it
	summary    []byte // the reply's text as it reads inside JSON, for a compaction ask
	messages   int
	chain      []tokens.Sum // chains(msgs()): made once, read to judge, remember and forget it
}

type ref struct {
	sum   tokens.Sum
	kind  chat.Kind
	field string
	index int
	size  int
}

func (r ref) path() string { return chat.Part{Kind: r.kind, Field: r.field, Index: r.index}.Path() }

// New makes an auditor.
func New(o Options) (*Auditor, error) {
	a := &Auditor{tok: o.Tokenizer, allow: map[Cause]bool{}, full: map[tokens.Sum][]int{},
		prefix: map[tokens.Sum]int{}, head: map[tokens.Sum]int{}, store: map[tokens.Sum]*stored{}, tips: map[int]int{},
		dates: newDates()}
	if a.tok == nil {
		t, err := tokens.NewTiktoken()
		if err != nil {
			return nil, err
		}
		a.tok = t
	}
	a.tik, _ = a.tok.(*tokens.Tiktoken)
	for _, c := range o.Allow {
		a.allow[c] = true
	}
	a.report.Tokenizer = a.tok.Name()
	if err := a.caches.init(o, a.tik); err != nil {
		return nil, err
	}
	a.prices = o.Prices
	a.report.Totals.ByCause = map[Cause]*CauseTotal{}
	return a, nil
}

// UnreadableError is a prompt request whose body the audit cannot read; the audit goes on.
type UnreadableError struct{ Problem }

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("line %d (request %d): the body is not a request the audit can read: %s", e.Line, e.Seq,
		e.Problem.Error)
}

// probes are how the compaction ask's first sentence and the compaction table's heading read
// inside a JSON string: found on first use, as reading loop.json at init cost every start.
var probes = sync.OnceValues(func() (ask, heading []byte) {
	a := spec.Text("tasks.compact.ask")
	if i := strings.Index(a, ". "); i > 0 {
		a = a[:i+1]
	}
	return jsonInner(a), jsonInner(spec.LoopJSON().Context.Compaction.Heading)
})

func askProbe() []byte     { a, _ := probes(); return a }
func headingProbe() []byte { _, h := probes(); return h }

// jsonInner is a text as it reads inside a JSON string, without the quotes.
func jsonInner(s string) []byte {
	b, _ := jsonx.Marshal(s) // a string always marshals
	return b[1 : len(b)-1]
}

// Add audits the next exchange of a recording. It returns nil for an exchange that is not a
// prompt (replay.IsPrompt), and an error naming the line for a request body it cannot read (the audit
// goes on without it).
func (a *Auditor) Add(ctx context.Context, e replay.Entry) (*Request, error) {
	if !replay.IsPrompt(e.Exchange) {
		a.report.Totals.Other++
		return nil, nil
	}
	// The prompt as the model saw it: a Responses continuation with its earlier turns.
	body := e.Prompt
	if body == nil {
		body = e.Body
	}
	known := chat.Know(a.last.req, a.last.cut, a.last.body, body)
	r, err := chat.ParsePathKnown(e.Exchange.Path, body, known)
	if err != nil {
		pr := Problem{Seq: e.Exchange.Seq, Line: e.Line, Error: err.Error()}
		a.report.Unreadable = append(a.report.Unreadable, pr)
		return nil, &UnreadableError{pr}
	}
	prompt, err := a.prompt(ctx, body, r, known)
	if err != nil {
		return nil, fmt.Errorf("line %d (request %d): tokenizing: %v", e.Line, e.Exchange.Seq, err)
	}
	cur := a.pastOf(e, r, prompt)
	out := a.judge(cur, r)
	out.Line = e.Line
	out.Breakpoints, out.DateAt = marks(a.partsFor(r), r), a.dateAt(r, cur)
	if err := a.beyondBytes(e, r, cur, out); err != nil {
		return nil, err
	}
	a.price(e, r, out)
	a.remember(cur, r)
	a.last = last{body: body, req: r, cut: a.partsFor(r), parts: cur.parts, msgs: cur.msgs(), chain: cur.chain}
	a.report.add(*out)
	return out, nil
}

// prompt tokenizes the request, with the sums of the parts it resends of the request before.
func (a *Auditor) prompt(ctx context.Context, body []byte, r *chat.Request, known *chat.Known) (tokens.Prompt, error) {
	if a.tik == nil || known == nil {
		return a.tok.Prompt(ctx, body, r)
	}
	parts := a.partsFor(r)
	sums := make([]tokens.Sum, len(parts))
	for i, p := range parts {
		if j := known.Was(p); j >= 0 && j < len(a.last.parts) {
			sums[i] = a.last.parts[j].sum
		}
	}
	return a.tik.OfParts(parts, sums), nil
}

// partsFor is r.Parts(), made once for the request being read.
func (a *Auditor) partsFor(r *chat.Request) []chat.Part {
	if a.partsOf != r {
		a.parts, a.partsOf = r.Parts(), r
	}
	return a.parts
}

// pastOf makes what is kept of a request.
func (a *Auditor) pastOf(e replay.Entry, r *chat.Request, prompt tokens.Prompt) *past {
	parts := a.partsFor(r)
	cur := &past{seq: e.Exchange.Seq, model: r.Model, parts: make([]ref, len(parts)), nsys: len(r.System),
		ntools: len(r.Tools), toolsFirst: r.ToolsFirst(), prompt: prompt, messages: len(r.Messages)}
	sameSums := a.tik != nil && len(prompt.Pieces) == len(parts)
	for i, p := range parts {
		s := tokens.Sum{}
		if sameSums {
			s = prompt.Pieces[i].Sum
		} else {
			s = tokens.SumOf(p)
		}
		cur.parts[i] = ref{sum: s, kind: p.Kind, field: p.Field, index: p.Index, size: len(p.Raw)}
	}
	cur.sysKey = keyOf(cur.sys())
	cur.toolKey = keyOf(cur.tools())
	cur.chain = chains(cur.msgs(), a.last.msgs, a.last.chain)
	if n := len(r.Messages); n > 0 {
		last := r.Messages[n-1]
		cur.ask = last.Role == "user" && bytes.Contains(last.Raw, askProbe())
	}
	if cur.ask && e.Exchange.Response != nil {
		if reply, err := e.Exchange.Response.Reply(); err == nil && strings.TrimSpace(reply.Text) != "" {
			cur.replied = true
			cur.summary = jsonInner(cutRunes(strings.TrimSpace(reply.Text), 64))
		}
	}
	return cur
}

func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

func keyOf(rs []ref) tokens.Sum {
	h := sha256.New()
	for _, r := range rs {
		h.Write(r.sum[:])
	}
	var s tokens.Sum
	h.Sum(s[:0])
	return s
}

// chains are the sums of a request's message prefixes: chains[k] covers its first k+1 messages.
// Those of the first messages it shares with prev, whose chains are prevChain, are prev's.
func chains(msgs, prev []ref, prevChain []tokens.Sum) []tokens.Sum {
	out := make([]tokens.Sum, len(msgs))
	var c tokens.Sum
	var buf [2 * sha256.Size]byte
	k := 0
	for k < len(msgs) && k < len(prev) && k < len(prevChain) && msgs[k].sum == prev[k].sum {
		out[k] = prevChain[k]
		k++
	}
	if k > 0 {
		c = out[k-1]
	}
	for i := k; i < len(msgs); i++ {
		m := msgs[i]
		copy(buf[:], c[:])
		copy(buf[sha256.Size:], m.sum[:])
		c = sha256.Sum256(buf[:])
		out[i] = c
	}
	return out
}

func (p *past) msgs() []ref { return p.parts[p.nsys+p.ntools:] }

// sys and tools are the request's system prompt and tools, in whichever order its provider
// reads them.
func (p *past) sys() []ref {
	if p.toolsFirst {
		return p.parts[p.ntools : p.ntools+p.nsys]
	}
	return p.parts[:p.nsys]
}

func (p *past) tools() []ref {
	if p.toolsFirst {
		return p.parts[:p.ntools]
	}
	return p.parts[p.nsys : p.nsys+p.ntools]
}

// relation is how a request was tied to an earlier one.
type relation int

const (
	relNone relation = iota
	relGrew
	relCompaction
	relShares // shares a message prefix, then differs or stops
)

// judge finds the request cur continues and compares the two.
func (a *Auditor) judge(cur *past, r *chat.Request) *Request {
	out := &Request{Seq: cur.seq, Model: cur.model, Messages: cur.messages, PromptTokens: cur.prompt.N}
	ch := cur.chain
	parent, rel := -1, relNone
	// The longest earlier history that is a prefix of this one, from the same agent: it grew.
	grew, kGrew := -1, 0
	for k := len(ch); k >= 1 && grew < 0; k-- {
		if idxs, ok := a.full[ch[k-1]]; ok {
			if p := a.best(cur, r, idxs); p >= 0 {
				grew, kGrew = p, k
			}
		}
	}
	// The earlier request sharing the longest run of first messages: when it shares more than the
	// history that grew, this request is that one's history with a message rewritten (or cut back).
	shares := -1
	for k := len(ch); k > kGrew && shares < 0; k-- {
		if p, ok := a.prefix[ch[k-1]]; ok && a.related(cur, r, a.reqs[p]) {
			shares = p
		}
	}
	if grew < 0 || shares >= 0 {
		for i := len(a.asks) - 1; i >= 0; i-- {
			if a.compacted(cur, r, a.reqs[a.asks[i]]) {
				parent, rel = a.asks[i], relCompaction
				a.released = append(a.released, a.asks[i])
				a.asks = append(a.asks[:i], a.asks[i+1:]...)
				break
			}
		}
	}
	switch {
	case parent >= 0:
	case shares >= 0:
		parent, rel = shares, relShares
	case grew >= 0:
		parent, rel = grew, relGrew
	}
	if parent < 0 {
		a.convs++
		cur.conv = a.convs
		out.Conversation, out.Cause = cur.conv, NewConversation
		// A new conversation may still reuse a head it shares with an earlier request (the same
		// system prompt and tools), on a server whose cache holds that request.
		if len(cur.parts) > 0 {
			if h, ok := a.head[cur.parts[0].sum]; ok {
				out.ReusableTokens = tokens.LCP(cur.prompt, a.reqs[h].prompt)
			}
		}
		return out
	}
	p := a.reqs[parent]
	cur.conv = p.conv
	out.Conversation, out.Continues = p.conv, p.seq
	out.ReusableTokens = tokens.LCP(cur.prompt, p.prompt)
	a.compare(out, pair{cur: cur, r: r, p: p, rel: rel})
	if out.Cause == ModelChanged {
		out.ReusableTokens = 0 // another model's cache holds nothing of this prompt
	}
	if out.Cause != Extends && out.Cause != Rewound {
		out.LostTokens = max(0, min(p.prompt.N, cur.prompt.N)-out.ReusableTokens)
	}
	out.Break = out.Cause.Break()
	out.Fails = out.Cause.Fails() && !a.allow[out.Cause]
	return out
}

// best picks, among earlier requests with the same history, the one cur continues: one from the
// same agent (the same system prompt and tools, then related), the latest first.
func (a *Auditor) best(cur *past, r *chat.Request, idxs []int) int {
	for i := len(idxs) - 1; i >= 0; i-- {
		p := a.reqs[idxs[i]]
		if p.sysKey == cur.sysKey && p.toolKey == cur.toolKey {
			return idxs[i]
		}
	}
	for i := len(idxs) - 1; i >= 0; i-- {
		if a.related(cur, r, a.reqs[idxs[i]]) {
			return idxs[i]
		}
	}
	return -1
}

// related says whether two requests can be one agent's: the same system prompt, the same
// (non-empty) tools, or system prompts that are mostly the same bytes (one changed in a place, as
// a date). A title request or a subagent that happens to begin with the same user message shares
// neither, and starts a conversation of its own.
func (a *Auditor) related(cur *past, r *chat.Request, p *past) bool {
	if p.sysKey == cur.sysKey || (p.ntools > 0 && p.toolKey == cur.toolKey) {
		return true
	}
	var now, then []byte
	for _, s := range r.System {
		now = append(now, s.Content()...)
	}
	for _, s := range p.sys() {
		then = append(then, a.bytesOf(s.sum)...)
	}
	longer := max(len(now), len(then))
	if longer == 0 {
		return true
	}
	cp := commonPrefix(now, then)
	same := cp + commonSuffix(now, then, cp)
	return 2*same >= longer
}

// compacted says whether cur is the history that follows a compaction ask: it carries the ask's
// summary (when the recording holds the reply) or the compaction table's heading; with no reply
// recorded, a shorter history from the same agent is taken for it.
func (a *Auditor) compacted(cur *past, r *chat.Request, ask *past) bool {
	for _, m := range r.Messages {
		if (len(ask.summary) > 0 && bytes.Contains(m.Raw, ask.summary)) || bytes.Contains(m.Raw, headingProbe()) {
			return true
		}
	}
	return !ask.replied && a.related(cur, r, ask) && cur.messages < ask.messages
}

// pair is a request and the earlier one it is compared with, and how the two were tied.
type pair struct {
	cur *past
	r   *chat.Request
	p   *past
	rel relation
}

// section is one of a prompt's sections (system prompt, tools, messages): its parts now and in
// the earlier request, and the cause a difference in it is.
type section struct {
	cause     Cause
	now, then []ref
	nowParts  []chat.Part
}

// compare classifies how cur differs from p, and says where.
func (a *Auditor) compare(out *Request, q pair) {
	if cur, p := q.cur, q.p; cur.model != "" && p.model != "" && cur.model != p.model {
		out.Cause, out.Path = ModelChanged, "$.model"
		out.Change = &Change{Old: p.model, New: cur.model}
		out.Detail = fmt.Sprintf("from %s to %s", p.model, cur.model)
		return
	}
	secs := q.sections()
	first, at, changed := differences(secs)
	if !classify(out, q, secs, first) {
		return
	}
	s := secs[first]
	curRaw, prevRaw := a.locate(out, q, s, at)
	var detail []string
	if out.Detail != "" {
		detail = append(detail, out.Detail)
	}
	if d := a.sectionDetail(q, s, at, curRaw, prevRaw); d != "" {
		detail = append(detail, d)
	}
	clockable := s.cause == SystemChanged || s.cause == MessageRewritten
	if out.Change != nil && q.rel != relCompaction && clockable {
		if c, ok := clockChange(*out.Change); ok {
			out.Clock = c
			detail = append(detail, "it looks like a clock: "+c)
		}
	}
	if d := alsoChanged(changed, q.rel); d != "" {
		detail = append(detail, d)
	}
	out.Detail = strings.Join(detail, "; ")
}

// sections are the request's and the earlier one's sections, in the order the server reads them.
func (q pair) sections() []section {
	secs := []section{
		{SystemChanged, q.cur.sys(), q.p.sys(), q.r.System},
		{ToolsChanged, q.cur.tools(), q.p.tools(), q.r.Tools},
		{MessageRewritten, q.cur.msgs(), q.p.msgs(), q.r.Messages},
	}
	if q.cur.toolsFirst {
		secs[0], secs[1] = secs[1], secs[0]
	}
	return secs
}

// differences finds the sections that differ: the first one and the part where it does (-1 if
// none), and the causes of all of them in order. Messages may grow (appended) or be cut back
// (rewound) without differing; the system prompt and the tools may not.
func differences(secs []section) (first, at int, changed []Cause) {
	first = -1
	for si, s := range secs {
		i := 0
		for i < len(s.now) && i < len(s.then) && s.now[i].sum == s.then[i].sum {
			i++
		}
		differs := i < len(s.now) || i < len(s.then)
		if s.cause == MessageRewritten {
			differs = i < len(s.now) && i < len(s.then)
		}
		if !differs {
			continue
		}
		changed = append(changed, s.cause)
		if first < 0 {
			first, at = si, i
		}
	}
	return first, at, changed
}

// classify sets the request's cause; it says whether a section differs, to be named.
func classify(out *Request, q pair, secs []section, first int) bool {
	switch {
	case q.rel == relCompaction:
		out.Cause = Compaction
		out.Detail = fmt.Sprintf("the history was replaced by the summary asked for in request %d", q.p.seq)
	case first < 0 && q.rel == relShares && q.cur.messages < q.p.messages:
		out.Cause = Rewound
		out.Detail = fmt.Sprintf("the history was cut back from %d to %d messages (an undo or a rewind); all of it "+
			"is cached", q.p.messages, q.cur.messages)
	case first < 0:
		out.Cause = Extends
	default:
		out.Cause = secs[first].cause
	}
	return first >= 0
}

// locate sets the path and the change of the first differing part (at of section s), and
// returns its bytes now and before (nil where the part is not).
func (a *Auditor) locate(out *Request, q pair, s section, at int) (curRaw, prevRaw []byte) {
	var prevRef ref
	if at < len(s.now) {
		curRaw = s.nowParts[at].Content()
	}
	if at < len(s.then) {
		prevRef = s.then[at]
		prevRaw = a.bytesOf(prevRef.sum)
	}
	switch {
	case curRaw != nil && prevRaw != nil:
		path, c := FirstPath(s.nowParts[at].Path(), prevRaw, curRaw)
		out.Path, out.Change = path, &c
	case curRaw != nil:
		out.Path = s.nowParts[at].Path()
		c := change(nil, curRaw, 0)
		c.Old = ""
		out.Change = &c
	default:
		out.Path = prevRef.path()
		c := change(prevRaw, nil, 0)
		c.New = ""
		out.Change = &c
		removed := fmt.Sprintf("; %s is in request %d's body, removed from this one", out.Path, q.p.seq)
		out.Detail = strings.TrimPrefix(out.Detail+removed, "; ")
	}
	return curRaw, prevRaw
}

// sectionDetail says what changed in the section, or "".
func (a *Auditor) sectionDetail(q pair, s section, at int, curRaw, prevRaw []byte) string {
	switch s.cause {
	case SystemChanged:
		switch {
		case curRaw == nil:
			return fmt.Sprintf("a system message of request %d was removed", q.p.seq)
		case prevRaw == nil:
			return "a system message was added"
		}
		return fmt.Sprintf("the system prompt of request %d changed", q.p.seq)
	case ToolsChanged:
		var now, then [][]byte
		for _, t := range s.nowParts {
			now = append(now, t.Content())
		}
		for _, t := range s.then {
			then = append(then, a.bytesOf(t.sum))
		}
		return "tools " + toolsDiff(then, now)
	case MessageRewritten:
		if q.rel == relCompaction {
			return "" // the history was replaced as a whole: no one message to name
		}
		return rewritten(s.nowParts, at, curRaw, prevRaw)
	}
	return ""
}

// rewritten names the message at (in parts) that was rewritten or inserted, or "".
func rewritten(parts []chat.Part, at int, curRaw, prevRaw []byte) string {
	switch {
	case curRaw != nil && prevRaw != nil:
		d := fmt.Sprintf("%s (%s) was rewritten: %s → %s", parts[at].Path(), messageLabel(parts[at], prevRaw),
			size(len(prevRaw)), size(len(curRaw)))
		if chat.IsToolResult(prevRaw) && len(curRaw) < len(prevRaw) {
			d += ", an old tool result pruned in place"
		}
		return d
	case curRaw != nil:
		return fmt.Sprintf("a message was inserted at %s", parts[at].Path())
	}
	return ""
}

// alsoChanged names the sections that differ after the first, or "" (the messages of a
// compaction, replaced as a whole, are not named).
func alsoChanged(changed []Cause, rel relation) string {
	if len(changed) < 2 {
		return ""
	}
	var also []string
	for _, c := range changed[1:] {
		if c == MessageRewritten && rel == relCompaction {
			continue
		}
		also = append(also, string(c))
	}
	if len(also) == 0 {
		return ""
	}
	return "also: " + strings.Join(also, ", ")
}

// remember keeps what later requests are compared with, and forgets what they no longer can be.
func (a *Auditor) remember(cur *past, r *chat.Request) {
	idx := len(a.reqs)
	a.reqs = append(a.reqs, cur)
	parts := a.partsFor(r)
	a.hold(cur, func(i int) []byte { return parts[i].Content() })
	ch := cur.chain
	if len(ch) > 0 {
		a.full[ch[len(ch)-1]] = append(a.full[ch[len(ch)-1]], idx)
	}
	for _, c := range ch {
		a.prefix[c] = idx
	}
	if len(cur.parts) > 0 {
		a.head[cur.parts[0].sum] = idx
	}
	if cur.ask {
		a.asks = append(a.asks, idx)
		if len(a.asks) > 16 {
			a.released = append(a.released, a.asks[0])
			a.asks = a.asks[1:]
		}
	}
	prevTip, ok := a.tips[cur.conv]
	if !ok {
		prevTip = -1
	}
	a.tips[cur.conv] = idx
	a.forgetOld(idx, prevTip, a.released)
	a.released = a.released[:0]
}
