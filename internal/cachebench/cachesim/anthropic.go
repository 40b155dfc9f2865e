package cachesim

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

// Breakpoints is Anthropic's prompt cache, by the rules its documentation gives:
//   - the prompt is read tools → system → messages, in content blocks;
//   - it is written only at breakpoints (a block with cache_control, or the last block for a
//     top-level cache_control): the prefix up to and including that block, when it is at least the
//     model's minimum cacheable length;
//   - a breakpoint reads the longest prefix cached at itself or at one of the Lookback block
//     boundaries before it, so an unmarked block that changes before the first breakpoint loses
//     everything after it;
//   - an entry lives 5 minutes, or 1 hour with ttl "1h", from its last use: a read refreshes it;
//   - the model, and at the messages level tool_choice, the thinking parameters and the effort,
//     key the cache beside the bytes (a change keeps the tools and system entries);
//   - more than chat.MaxBreakpoints breakpoints is the API's 400 (*chat.TooManyBreakpoints).
//
// The clock is the caller's: each request is served at a time it gives. Safe for concurrent use.
type Breakpoints struct {
	tok     *tokens.Tiktoken
	mu      sync.Mutex
	entries map[tokens.Sum]*entry
	// plain holds the latest entry at each unkeyed chain (the bytes alone), so a miss can be
	// told apart: an entry of the same bytes under other keys, or one that expired.
	plain map[tokens.Sum]*entry
}

type entry struct {
	pos      int // the block boundary it was written at (blocks before it, from 0)
	tokens   int
	ttl      time.Duration
	lastUsed time.Time
	key      tokens.Sum
	keys     []chat.Param
}

func (e *entry) live(at time.Time) bool { return !at.After(e.lastUsed.Add(e.ttl)) }

// Served is what serving one request did, in Anthropic's usage terms.
type Served struct {
	// PromptTokens is the whole prompt; Read (cache_read_input_tokens) came from the cache;
	// Written5m and Written1h (cache_creation_input_tokens, by TTL) were written to it; Input
	// (input_tokens) is the rest, after the last breakpoint.
	PromptTokens, Read, Written5m, Written1h, Input int
	// Breakpoints counts the request's breakpoints.
	Breakpoints int
	// Miss says why the cache held more of this prompt than was read; nil when nothing more.
	Miss *Miss
}

// Written is every token written, whatever the TTL.
func (s Served) Written() int { return s.Written5m + s.Written1h }

// Miss is why a cache read less of a prompt than an earlier request had left in it.
type Miss struct {
	Reason MissReason
	// Tokens is the prefix the cache held, of which Read came back.
	Tokens int
	// Idle is the time since the entry's last use, and TTL how long it lived (ReasonExpired).
	Idle, TTL time.Duration
	// Path, Old and New name the parameter that changed (ReasonKey): "$.output_config.effort".
	Path, Old, New string
	// Minimum is the model's minimum cacheable length (ReasonUnderMinimum).
	Minimum int
}

// MissReason names a Miss.
type MissReason string

const (
	// ReasonExpired: the entry lived past its TTL since its last use.
	ReasonExpired MissReason = "expired"
	// ReasonKey: the same bytes were cached under another model or parameter.
	ReasonKey MissReason = "key"
	// ReasonUnreachable: the entry is alive, but no breakpoint of this request reaches it (none
	// at it or within the lookback after it).
	ReasonUnreachable MissReason = "unreachable"
	// ReasonUnderMinimum: the prefix is shorter than the model's minimum cacheable length.
	ReasonUnderMinimum MissReason = "under minimum"
)

// NewBreakpoints makes an empty cache; tok nil makes its own tokenizer.
func NewBreakpoints(tok *tokens.Tiktoken) (*Breakpoints, error) {
	if tok == nil {
		var err error
		if tok, err = tokens.NewTiktoken(); err != nil {
			return nil, err
		}
	}
	return &Breakpoints{tok: tok, entries: map[tokens.Sum]*entry{}, plain: map[tokens.Sum]*entry{}}, nil
}

// Tokenizer is the cache's tokenizer.
func (b *Breakpoints) Tokenizer() *tokens.Tiktoken { return b.tok }

// Serve serves one Messages request body at a time, sent with these headers (canonical names;
// nil: none).
func (b *Breakpoints) Serve(body []byte, headers map[string][]string, at time.Time) (Served, error) {
	r, err := chat.ParseAs(body, chat.Anthropic)
	if err != nil {
		return Served{}, fmt.Errorf("simulated cache: %v", err)
	}
	KeyHeaders(r, headers)
	return b.ServeRequest(r, b.tok.Of(r), at)
}

// HeaderBeta is the anthropic-beta header as a key (KeyHeaders): the features it turns on change
// what the model is given.
const HeaderBeta = "header anthropic-beta"

// KeyHeaders adds to a Messages request's keys what its headers (canonical names, as net/http and
// a recording keep them) add to them: its anthropic-beta, the values of every such header joined
// by commas. The fake serving a request and the audit reading a recorded one both call it.
func KeyHeaders(r *chat.Request, headers map[string][]string) {
	if beta := strings.Join(headers["Anthropic-Beta"], ","); beta != "" {
		r.Keys = append(r.Keys, chat.Param{Path: HeaderBeta, Value: []byte(beta)})
	}
}

// keyed is the messages-level keys of a request: what Anthropic's table of invalidations says
// changes the messages cache but keeps the tools and system ones.
func keyed(r *chat.Request) []chat.Param {
	var out []chat.Param
	for _, k := range r.Keys {
		switch k.Path {
		case chat.KeyToolChoice, chat.KeyThinking, chat.KeyEffort, HeaderBeta:
			out = append(out, k)
		}
	}
	return out
}

// keySum names a set of keys.
func keySum(keys []chat.Param) tokens.Sum {
	var parts [][]byte
	for _, k := range keys {
		parts = append(parts, []byte(k.Path), k.Value)
	}
	return sumOf(parts...)
}

func sumOf(parts ...[]byte) tokens.Sum {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
		h.Write([]byte{0})
	}
	var s tokens.Sum
	h.Sum(s[:0])
	return s
}

// boundary is the prompt after block i: its chain (keyed and not), the tokens up to it, and the
// breakpoint's TTL there (0: none).
type boundary struct {
	chain, plain tokens.Sum
	tokens       int
	ttl          time.Duration
}

// ServeRequest serves a parsed request whose prompt p (tokens.Tiktoken.Of) has a piece per block.
func (b *Breakpoints) ServeRequest(r *chat.Request, p tokens.Prompt, at time.Time) (Served, error) {
	out := Served{PromptTokens: p.N, Breakpoints: r.Breakpoints()}
	if out.Breakpoints > chat.MaxBreakpoints {
		return out, &chat.TooManyBreakpoints{N: out.Breakpoints}
	}
	keys := keyed(r)
	msgKey := keySum(keys)
	bounds := b.boundaries(r, p, msgKey)
	if len(bounds) == 0 {
		out.Input = p.N
		return out, nil
	}
	if r.AutoCache != "" {
		last := &bounds[len(bounds)-1]
		last.ttl = max(last.ttl, ParseTTL(r.AutoCache))
	}
	minimum := AnthropicMinimum(r.Model)
	b.mu.Lock()
	defer b.mu.Unlock()
	var marks []int
	for i, bd := range bounds {
		if bd.ttl > 0 {
			marks = append(marks, i)
		}
	}
	// Read: the longest live entry at a breakpoint or within the lookback before one.
	best := -1
	for _, m := range marks {
		for j := m; j >= 0 && j >= m-Lookback; j-- {
			if e := b.entries[bounds[j].chain]; e != nil && e.live(at) {
				best = max(best, j)
				break
			}
		}
	}
	if best >= 0 {
		out.Read = bounds[best].tokens
		b.entries[bounds[best].chain].lastUsed = at
	}
	out.Miss = b.why(bounds, best, marks, msgKey, keys, minimum, at)
	// Write: each breakpoint past what was read, long enough to be cached, its stretch at its TTL.
	from := out.Read
	for _, m := range marks {
		bd := bounds[m]
		if m <= best {
			if e := b.entries[bd.chain]; e != nil && e.live(at) {
				e.lastUsed = at // read as part of a longer prefix: used
			}
			continue
		}
		if bd.tokens < minimum {
			continue
		}
		n := bd.tokens - from
		if bd.ttl >= TTL1h {
			out.Written1h += n
		} else {
			out.Written5m += n
		}
		from = bd.tokens
		e := &entry{pos: m, tokens: bd.tokens, ttl: bd.ttl, lastUsed: at, key: msgKey, keys: keys}
		b.entries[bd.chain] = e
		b.plain[bd.plain] = e
	}
	out.Input = p.N - out.Read - out.Written()
	return out, nil
}

// boundaries chains the prompt's pieces: the model keys every entry; the messages' keys join the
// chain at the first message.
func (b *Breakpoints) boundaries(r *chat.Request, p tokens.Prompt, msgKey tokens.Sum) []boundary {
	var ttls []time.Duration
	var kinds []chat.Kind
	for _, part := range r.Parts() {
		if len(part.Blocks) == 0 {
			ttls, kinds = append(ttls, 0), append(kinds, part.Kind)
			continue
		}
		for _, bl := range part.Blocks {
			t := time.Duration(0)
			if bl.Marked() {
				t = ParseTTL(bl.TTL)
			}
			ttls, kinds = append(ttls, t), append(kinds, part.Kind)
		}
	}
	if len(ttls) != len(p.Pieces) {
		// A prompt not cut by blocks (another tokenizer): one boundary at its end, unmarked.
		ttls, kinds = make([]time.Duration, len(p.Pieces)), make([]chat.Kind, len(p.Pieces))
	}
	out := make([]boundary, len(p.Pieces))
	chain := sumOf([]byte("model"), []byte(r.Model))
	plain := chain
	n, keyedYet := 0, false
	for i, pc := range p.Pieces {
		if kinds[i] == chat.Message && !keyedYet {
			chain, keyedYet = sumOf(chain[:], msgKey[:]), true
		}
		chain, plain = sumOf(chain[:], pc.Sum[:]), sumOf(plain[:], pc.Sum[:])
		n += len(pc.Tokens)
		out[i] = boundary{chain: chain, plain: plain, tokens: n, ttl: ttls[i]}
	}
	return out
}

// why finds the longest prefix of the prompt the cache holds in any state, and when more was held
// than read, says why it was not read. It runs before this request's own writes.
func (b *Breakpoints) why(bounds []boundary, best int, marks []int, msgKey tokens.Sum, keys []chat.Param, minimum int,
	at time.Time) *Miss {
	for j := len(bounds) - 1; j > best; j-- {
		e := b.plain[bounds[j].plain]
		if e == nil || e.pos != j {
			continue
		}
		m := &Miss{Tokens: bounds[j].tokens}
		switch {
		case !e.live(at):
			m.Reason, m.Idle, m.TTL = ReasonExpired, at.Sub(e.lastUsed), e.ttl
		case bounds[j].chain != bounds[j].plain && e.key != msgKey:
			// Keys join the chain at the first message: only a messages entry is keyed.
			m.Reason = ReasonKey
			m.Path, m.Old, m.New = changedKey(e.keys, keys)
		default:
			m.Reason = ReasonUnreachable
		}
		return m
	}
	if best < 0 && len(marks) > 0 && bounds[marks[len(marks)-1]].tokens < minimum {
		return &Miss{Reason: ReasonUnderMinimum, Minimum: minimum, Tokens: bounds[marks[len(marks)-1]].tokens}
	}
	return nil
}

// changedKey names the first parameter whose value differs between two sets of keys.
func changedKey(old, now []chat.Param) (path, was, is string) {
	m := map[string]string{}
	for _, k := range old {
		m[k.Path] = string(k.Value)
	}
	seen := map[string]bool{}
	var paths []string
	for _, k := range now {
		seen[k.Path] = true
		if m[k.Path] != string(k.Value) {
			return k.Path, m[k.Path], string(k.Value)
		}
	}
	for p := range m {
		if !seen[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	if len(paths) > 0 {
		return paths[0], m[paths[0]], ""
	}
	return "", "", ""
}
