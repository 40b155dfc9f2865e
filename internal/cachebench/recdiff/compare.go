package recdiff

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

// Headers that key a cache: their values are compared (a beta flag, an API version, an account).
var keyHeaders = []string{"anthropic-beta", "anthropic-version", "openai-organization", "openai-project", "openai-beta",
	"x-goog-user-project", "chatgpt-account-id"}

// Headers that route a session to a cache (session affinity): new on every run, so only whether a
// request carries one is compared.
var affinityHeaders = []string{"session_id", "session-id", "x-session-id", "x-session-affinity", "conversation_id",
	"x-conversation-id", "x-claude-code-session-id"}

// comparer compares the two sides' requests, counting part tokens with tik when it is tiktoken.
type comparer struct {
	tik *tokens.Tiktoken
}

// compare is one pair: its differences in the order a server reads the prompt, then parameters and
// headers; its verdict; the tokens the two share.
func (c comparer) compare(a, b *request) Pair {
	p := Pair{A: a.ref, B: b.ref, Cosmetic: map[string]int{}}
	if a.r.API != b.r.API {
		p.add(Difference{Kind: KindAPI, Path: "$", Prefix: true, Detail: fmt.Sprintf("%s (%s) → %s (%s)", a.r.API,
			a.path, b.r.API, b.path)})
	}
	if a.r.Model != b.r.Model {
		p.add(Difference{Kind: KindModel, Path: "$.model", Prefix: true, Detail: fmt.Sprintf("%s → %s", a.r.Model,
			b.r.Model), Change: &audit.Change{Old: a.r.Model, New: b.r.Model}})
	}
	sections := []func(){
		func() { c.system(&p, a, b) },
		func() { c.tools(&p, a, b) },
	}
	if b.r.ToolsFirst() {
		slices.Reverse(sections)
	}
	for _, f := range sections {
		f()
	}
	c.messages(&p, a, b)
	breakpoints(&p, a, b)
	params(&p, a, b)
	headers(&p, a, b)
	p.SharedTokens, p.PromptTokens = tokens.LCP(a.prompt, b.prompt), b.prompt.N
	p.Verdict = Same
	if len(p.Cosmetic) > 0 {
		p.Verdict = Cosmetic
	}
	first := -1
	for i, d := range p.Differences {
		p.Verdict = Differs
		if d.Prefix {
			first = i
			break
		}
	}
	if first >= 0 {
		p.Verdict = Breaks
		p.Differences[first].First = true
		p.LostTokens = max(0, min(a.prompt.N, b.prompt.N)-p.SharedTokens)
		switch p.Differences[first].Kind {
		case KindAPI, KindModel, KindParameter, KindHeader:
			// A cache keyed apart (another model, tool choice, account, session) holds nothing of
			// the other side's prompt, however many bytes they share.
			p.LostTokens = min(a.prompt.N, b.prompt.N)
		}
	}
	if len(p.Cosmetic) == 0 {
		p.Cosmetic = nil
	}
	return p
}

func (p *Pair) add(d Difference) { p.Differences = append(p.Differences, d) }

// part compares one part of each side (nil where a side has none) and returns the difference, or
// nil when the two are the same but for what is cosmetic (counted on the pair).
func (c comparer) part(p *Pair, kind string, a, b *masked, pa, pb *chat.Part) *Difference {
	d := &Difference{Kind: kind, Prefix: true}
	switch {
	case a != nil && b != nil:
		if bytes.Equal(a.all, b.all) {
			if k := cosmetic(*a, *b); k != "" {
				p.Cosmetic[k]++
			}
			return nil
		}
		off, ch, _ := audit.Difference(a.all, b.all)
		d.Path, d.Change = pb.Path()+chat.PathAt(b.all, off), &ch
	case b != nil:
		_, ch, _ := audit.Difference(nil, b.all)
		ch.Old = ""
		d.Path, d.Change = pb.Path(), &ch
	default:
		_, ch, _ := audit.Difference(a.all, nil)
		ch.New = ""
		d.Path, d.Change = pa.Path(), &ch
	}
	if pa != nil {
		d.TokensA = c.count(*pa)
	}
	if pb != nil {
		d.TokensB = c.count(*pb)
	}
	return d
}

func (c comparer) count(p chat.Part) int {
	if c.tik == nil {
		return 0
	}
	return len(c.tik.Encode(p))
}

// system compares the system prompts part by part: the first that differs is named, with how many
// more do.
func (c comparer) system(p *Pair, a, b *request) {
	var first *Difference
	more := 0
	for i := range max(len(a.sys), len(b.sys)) {
		var ma, mb *masked
		var pa, pb *chat.Part
		if i < len(a.sys) {
			ma, pa = &a.sys[i], &a.r.System[i]
		}
		if i < len(b.sys) {
			mb, pb = &b.sys[i], &b.r.System[i]
		}
		d := c.part(p, KindSystem, ma, mb, pa, pb)
		switch {
		case d == nil:
		case first != nil:
			more++
		default:
			first = d
			switch {
			case ma == nil:
				d.Detail = "a system message was added"
			case mb == nil:
				d.Detail = "a system message was removed"
			default:
				d.Detail = fmt.Sprintf("the system prompt changed: %s → %s", size(len(ma.all)), size(len(mb.all)))
			}
		}
	}
	if first != nil {
		if more > 0 {
			first.Detail += fmt.Sprintf("; %d more system part(s) differ", more)
		}
		p.add(*first)
	}
}

// tools compares the tool lists: which tools were added, removed, changed or moved (the audit's
// words), at the first byte that differs.
func (c comparer) tools(p *Pair, a, b *request) {
	var at *Difference
	for i := range max(len(a.tools), len(b.tools)) {
		var ma, mb *masked
		var pa, pb *chat.Part
		if i < len(a.tools) {
			ma, pa = &a.tools[i], &a.r.Tools[i]
		}
		if i < len(b.tools) {
			mb, pb = &b.tools[i], &b.r.Tools[i]
		}
		if d := c.part(p, KindTools, ma, mb, pa, pb); d != nil && at == nil {
			at = d
		}
	}
	if at == nil {
		return
	}
	var ta, tb [][]byte
	for _, m := range a.tools {
		ta = append(ta, m.all)
	}
	for _, m := range b.tools {
		tb = append(tb, m.all)
	}
	at.Detail = fmt.Sprintf("tools %s (%d → %d tools)", audit.ToolsDiff(ta, tb), len(ta), len(tb))
	at.TokensA, at.TokensB = c.sum(a.r.Tools), c.sum(b.r.Tools)
	p.add(*at)
}

func (c comparer) sum(ps []chat.Part) int {
	n := 0
	for _, p := range ps {
		n += c.count(p)
	}
	return n
}

// messages compares the histories message by message: the first rewritten (or inserted) message is
// named, with how many differ after it; a history that only runs longer on one side changes no
// cached prefix.
func (c comparer) messages(p *Pair, a, b *request) {
	n := min(len(a.msgs), len(b.msgs))
	for i := range n {
		d := c.part(p, KindMessages, &a.msgs[i], &b.msgs[i], &a.r.Messages[i], &b.r.Messages[i])
		if d == nil {
			continue
		}
		d.Detail = fmt.Sprintf("%s (%s) was rewritten: %s → %s", b.r.Messages[i].Path(),
			audit.MessageLabel(b.r.Messages[i], b.r.Messages[i].Raw), size(len(a.msgs[i].all)),
			size(len(b.msgs[i].all)))
		if la, lb := audit.MessageLabel(a.r.Messages[i], a.r.Messages[i].Raw), audit.MessageLabel(b.r.Messages[i],
			b.r.Messages[i].Raw); la != lb {
			d.Detail = fmt.Sprintf("%s is %s in a, %s in b", b.r.Messages[i].Path(), la, lb)
		}
		d.Rest = max(len(a.msgs), len(b.msgs)) - i - 1
		p.add(*d)
		return
	}
	if len(a.msgs) != len(b.msgs) {
		longer, side := b, "b"
		if len(a.msgs) > len(b.msgs) {
			longer, side = a, "a"
		}
		p.add(Difference{Kind: KindMessages, Path: longer.r.Messages[n].Path(), Detail: fmt.Sprintf(
			"%s's history runs on: %d messages against %d, the shorter one its prefix", side, len(longer.msgs),
			min(len(a.msgs), len(b.msgs)))})
	}
}

// breakpoints compares where each side marks its cache (Anthropic's cache_control): a moved
// breakpoint changes which prefix is cached.
func breakpoints(p *Pair, a, b *request) {
	if slices.Equal(a.marks, b.marks) {
		return
	}
	added, removed := minus(b.marks, a.marks), minus(a.marks, b.marks)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed "+strings.Join(removed, ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "the same breakpoints in another order")
	}
	// The path is the first breakpoint that moved, without its TTL ("$.system[0] (5m)").
	at := append(removed, added...)
	if len(at) == 0 {
		at = b.marks
	}
	path, _, _ := strings.Cut(at[0], " (")
	p.add(Difference{Kind: KindBreakpoints, Path: path, Prefix: true, Detail: "breakpoints " + strings.Join(parts,
		"; ")})
}

func minus(x, y []string) []string {
	var out []string
	for _, s := range x {
		if !slices.Contains(y, s) {
			out = append(out, s)
		}
	}
	return out
}

// cacheParams are the top-level members of a Key path (chat's cache-keying parameters).
func cacheParam(name string) bool {
	for _, k := range []string{chat.KeyThinking, chat.KeyEffort, chat.KeyToolChoice, chat.KeyPromptCacheKey,
		chat.KeyReasoningEffort, chat.KeyReasoning} {
		if k == "$."+name || strings.HasPrefix(k, "$."+name+".") {
			return true
		}
	}
	return false
}

// params compares the parameters beside the prompt: one that keys a provider's cache (tool
// choice, thinking, reasoning effort, prompt_cache_key) changes the prefix; the rest (max_tokens,
// temperature, stream) is listed but changes none.
func params(p *Pair, a, b *request) {
	names := append([]string(nil), a.names...)
	for _, n := range b.names {
		if _, ok := a.params[n]; !ok {
			names = append(names, n)
		}
	}
	for _, n := range names {
		va, okA := a.params[n]
		vb, okB := b.params[n]
		d := Difference{Kind: KindParameter, Path: "$." + n, Prefix: cacheParam(n)}
		switch {
		case okA && okB && bytes.Equal(va.all, vb.all):
			if k := cosmetic(va, vb); k != "" {
				p.Cosmetic[k]++
			}
			continue
		case okA && okB:
			d.Detail = fmt.Sprintf("%s → %s", clip(va.all), clip(vb.all))
			d.Change = &audit.Change{Old: clip(va.all), New: clip(vb.all)}
		case okB:
			d.Detail = "added: " + clip(vb.all)
			d.Change = &audit.Change{New: clip(vb.all)}
		default:
			d.Detail = "removed: " + clip(va.all)
			d.Change = &audit.Change{Old: clip(va.all)}
		}
		if d.Prefix {
			d.Detail += " (it keys the provider's cache)"
		}
		p.add(d)
	}
}

// headers compares the headers that key or route a cache; any other header that differs is
// cosmetic.
func headers(p *Pair, a, b *request) {
	for _, h := range keyHeaders {
		if va, vb := a.headers[h], b.headers[h]; va != vb {
			p.add(Difference{Kind: KindHeader, Path: h, Prefix: true, Detail: fmt.Sprintf("%q → %q", va, vb),
				Change: &audit.Change{Old: va, New: vb}})
		}
	}
	for _, h := range affinityHeaders {
		_, okA := a.headers[h]
		_, okB := b.headers[h]
		switch {
		case okA && !okB:
			p.add(Difference{Kind: KindHeader, Path: h, Prefix: true,
				Detail: "removed: it routes a session to its cache"})
		case okB && !okA:
			p.add(Difference{Kind: KindHeader, Path: h, Prefix: true,
				Detail: "added: it routes a session to its cache"})
		}
	}
	for h, va := range a.headers {
		if !slices.Contains(keyHeaders, h) && !slices.Contains(affinityHeaders, h) && b.headers[h] != va {
			p.Cosmetic["headers"]++
		}
	}
	for h := range b.headers {
		if _, ok := a.headers[h]; !ok && !slices.Contains(keyHeaders, h) && !slices.Contains(affinityHeaders, h) {
			p.Cosmetic["headers"]++
		}
	}
}

// clip is a value as a detail shows it: cut at 80 bytes.
func clip(b []byte) string {
	s := strings.ToValidUTF8(string(b), "�")
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
