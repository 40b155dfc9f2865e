package audit

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// The causes beyond bytes: each request is also served, at the time it was recorded, by the
// simulated cache of its provider (package cachesim: Anthropic's breakpoints for a Messages
// request, Gemini's implicit cache for generateContent, OpenAI's for chat completions and
// Responses with Options.Provider "openai"). Where that cache reads less than the bytes the request
// shares with the one it continues, the difference is lost to a cause the bytes do not show: the
// cache expired, a parameter keying it changed, the breakpoints moved, the prefix is under the
// minimum, the request had too many breakpoints, or a new session shares bytes the cache cannot read.

// caches are an audit's simulated provider caches.
type caches struct {
	anthropic *cachesim.Breakpoints
	implicit  map[string]*cachesim.Implicit
	provider  string // for chat completions and Responses; "" none
	ttl       map[string]time.Duration
	tok       *tokens.Tiktoken
}

func (c *caches) init(o Options, tik *tokens.Tiktoken) error {
	switch o.Provider {
	case "", cachesim.ProviderOpenAI, cachesim.ProviderGemini, cachesim.ProviderAnthropic:
	default:
		return fmt.Errorf("no provider %q (there are %s)", o.Provider, strings.Join(cachesim.Providers, ", "))
	}
	c.provider, c.ttl, c.tok, c.implicit = o.Provider, o.TTL, tik, map[string]*cachesim.Implicit{}
	return nil
}

// serve serves a request in its provider's cache; ok is false when no provider's rules apply.
func (c *caches) serve(x replay.Exchange, r *chat.Request) (cachesim.Served, bool, error) {
	provider := c.provider
	switch r.API {
	case chat.Anthropic:
		provider = cachesim.ProviderAnthropic
	case chat.Gemini:
		provider = cachesim.ProviderGemini
	}
	if provider == "" {
		return cachesim.Served{}, false, nil
	}
	if c.tok == nil { // a server tokenizer: the simulators count with their own
		t, err := tokens.NewTiktoken()
		if err != nil {
			return cachesim.Served{}, false, err
		}
		c.tok = t
	}
	if provider == cachesim.ProviderAnthropic && r.API == chat.Anthropic {
		if c.anthropic == nil {
			b, err := cachesim.NewBreakpoints(c.tok)
			if err != nil {
				return cachesim.Served{}, false, err
			}
			c.anthropic = b
		}
		cachesim.KeyHeaders(r, x.Request.Headers)
		sv, err := c.anthropic.ServeRequest(r, c.tok.Of(r), x.Started)
		return sv, true, err
	}
	if provider == cachesim.ProviderAnthropic {
		return cachesim.Served{}, false, nil // breakpoints exist in Messages requests only
	}
	im := c.implicit[provider]
	if im == nil {
		var err error
		if im, err = cachesim.NewImplicit(provider, c.ttl[provider], c.tok); err != nil {
			return cachesim.Served{}, false, err
		}
		c.implicit[provider] = im
	}
	return im.ServeRequest(r, c.tok.Of(r), x.Started), true, nil
}

// beyondBytes serves the request in its provider's cache and, where that reads less than the
// bytes allow, names the cause.
func (a *Auditor) beyondBytes(e replay.Entry, r *chat.Request, cur *past, out *Request) error {
	sv, ok, err := a.caches.serve(e.Exchange, r)
	var tooMany *chat.TooManyBreakpoints
	switch {
	case errors.As(err, &tooMany):
		lost := out.ReusableTokens
		out.Cause, out.Break, out.Fails = TooManyBreakpoints, true, false
		out.Detail = fmt.Sprintf("%d breakpoints: the API refuses more than %d (%s)", tooMany.N, chat.MaxBreakpoints,
			tooMany.Error())
		out.ReusableTokens, out.LostTokens = 0, lost
		return nil
	case err != nil:
		return fmt.Errorf("line %d (request %d): the simulated cache: %v", e.Line, e.Exchange.Seq, err)
	case !ok:
		return nil
	}
	out.Provider = providerOf(r, a.caches.provider)
	out.usage = sv
	bytes := out.ReusableTokens
	if sv.Read >= bytes || out.Cause == ModelChanged {
		return nil
	}
	out.ReusableTokens = sv.Read
	if out.Cause.Break() {
		// A break in the bytes: what it lost is counted from what the cache reads.
		out.LostTokens += bytes - sv.Read
		return nil
	}
	if sv.Miss == nil && out.Provider != cachesim.ProviderAnthropic {
		return nil // an automatic cache read in steps (OpenAI's 128 tokens): nothing to name
	}
	lost := bytes - sv.Read
	if out.Cause == NewConversation {
		out.Cause = AcrossSessions
		out.Path, out.Change, out.Detail = a.parting(cur, r)
	} else {
		out.Cause, out.Detail, out.Path = missCause(sv.Miss)
	}
	out.LostTokens, out.Break, out.Fails = lost, true, false
	return nil
}

func providerOf(r *chat.Request, def string) string {
	switch r.API {
	case chat.Anthropic:
		return cachesim.ProviderAnthropic
	case chat.Gemini:
		return cachesim.ProviderGemini
	}
	return def
}

// missCause names what the cache said of its miss.
func missCause(m *cachesim.Miss) (Cause, string, string) {
	if m == nil {
		return BreakpointsMoved, "no breakpoint covers the prefix this request shares with the last one: what comes " +
			"after the last one's last breakpoint was never cached", ""
	}
	switch m.Reason {
	case cachesim.ReasonExpired:
		return IdlePastTTL, fmt.Sprintf("%s since the cached prefix was last used; it lives %s", round(m.Idle),
			round(m.TTL)), ""
	case cachesim.ReasonKey:
		was, is := m.Old, m.New
		if was == "" {
			was = "(none)"
		}
		if is == "" {
			is = "(none)"
		}
		return KeyChanged, fmt.Sprintf("%s changed: %s → %s; the cache is keyed by it", m.Path, was, is), m.Path
	case cachesim.ReasonUnderMinimum:
		return UnderMinimum, fmt.Sprintf("the prefix is %d tokens, under the model's minimum cacheable length of %d",
			m.Tokens, m.Minimum), ""
	}
	return BreakpointsMoved, fmt.Sprintf("the %d tokens the last request cached are alive, but no breakpoint of this "+
		"one is at them or within %d blocks after them", m.Tokens, cachesim.Lookback), ""
}

func round(d time.Duration) string { return d.Round(time.Second).String() }

// parting says where a new session parts from the latest earlier one of the same agent that
// begins as it does: the first byte that differs, in the provider's order.
func (a *Auditor) parting(cur *past, r *chat.Request) (string, *Change, string) {
	h, ok := a.head[cur.parts[0].sum]
	if !ok {
		return "", nil, ""
	}
	p := a.reqs[h]
	parts := a.partsFor(r)
	for i := range cur.parts {
		if i >= len(p.parts) {
			break
		}
		if cur.parts[i].sum == p.parts[i].sum {
			continue
		}
		now, then := parts[i].Content(), a.bytesOf(p.parts[i].sum)
		off := commonPrefix(then, now)
		c := change(then, now, off)
		path := parts[i].Path() + chat.PathAt(now, off)
		return path, &c, fmt.Sprintf("shares its first %d parts with request %d (conversation %d), then differs at "+
			"%s; the cache reads only up to a breakpoint before it", i, p.seq, p.conv, path)
	}
	return "", nil, fmt.Sprintf("the same prompt as request %d, which the cache does not hold", p.seq)
}

// price puts money on a request, when the table has its model: what it cost with the cache it
// had, and what its lost tokens cost over reading them from the cache.
func (a *Auditor) price(e replay.Entry, r *chat.Request, out *Request) {
	p, ok := a.prices.For(r.Model)
	if !ok {
		return
	}
	n := prices.Tokens{CacheRead: out.ReusableTokens, Output: outputTokens(e)}
	if out.usage.PromptTokens > 0 {
		n.CacheWrite5m, n.CacheWrite1h = out.usage.Written5m, out.usage.Written1h
	}
	n.Input = max(0, out.PromptTokens-n.CacheRead-n.CacheWrite5m-n.CacheWrite1h)
	cost := a.prices.Cost(p, n)
	lost := a.prices.Lost(p, out.LostTokens)
	out.Cost, out.LostCost = &cost, &lost
	a.report.Currency, a.report.Prices = a.prices.Currency, a.prices.File
}

// outputTokens is the answer's length as the recorded reply reports it (0 when it does not).
func outputTokens(e replay.Entry) int {
	if e.Exchange.Response == nil {
		return 0
	}
	rep, err := e.Exchange.Response.Reply()
	if err != nil {
		return 0
	}
	if n := rep.TokenUsage().CompletionTokens; n != nil {
		return *n
	}
	return 0
}

// marks lists a request's breakpoints: each cache_control block's path and TTL.
func marks(parts []chat.Part, r *chat.Request) []string {
	var out []string
	for _, p := range parts {
		for i, b := range p.Blocks {
			if b.Marked() {
				out = append(out, fmt.Sprintf("%s (%s)", p.BlockPath(i), b.TTL))
			}
		}
	}
	if r.AutoCache != "" {
		out = append(out, fmt.Sprintf("$.cache_control (%s, on the last block)", r.AutoCache))
	}
	return out
}

type dateKey struct {
	sum tokens.Sum
	n   int
}

// dateAt is the JSON path of the first date a request carries, in the provider's order. Where a
// part carries its date is kept by the part's sum: a session resends its history, and searching
// every part of every request would cost the session's length squared.
func (a *Auditor) dateAt(r *chat.Request, cur *past) string {
	for i, p := range a.partsFor(r) {
		// The sum names the part as the provider reads it; its raw length tells two forms of it apart.
		s := dateKey{cur.parts[i].sum, len(p.Raw)}
		at, ok := a.dates.get(s)
		if !ok {
			at = "-"
			if i := firstDate(p.Raw); i >= 0 {
				at = chat.PathAt(p.Raw, i)
			}
			a.dates.put(s, at)
		}
		if at != "-" {
			return p.Path() + at
		}
	}
	return ""
}
