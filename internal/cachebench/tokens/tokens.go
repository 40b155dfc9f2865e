// Package tokens turns a request into its prompt's tokens, in the fixed order a server reads them
// — system prompt, tools, messages — and compares two prompts token by token.
//
// The default tokenizer is tiktoken's o200k_base, loaded on first use from the BPE file compiled
// into the binary (github.com/pkoukk/tiktoken-go-loader's assets: nothing is downloaded) into a
// compact form (bpe.go) that encodes as github.com/pkoukk/tiktoken-go does. Each part of a prompt is
// rendered (Text), framed by <|im_start|> and <|im_end|> and tokenized on its own, and its tokens
// are kept by the SHA-256 of its exact bytes: a session resends its history on every request, so
// only the new parts of each request are tokenized. That is what keeps auditing a session linear
// in its new tokens rather than quadratic in its length. Server asks a llama.cpp server instead.
package tokens

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// Sum names a part by its kind and exact bytes.
type Sum [sha256.Size]byte

// Piece is one part of a prompt and its tokens. Tokens are shared between prompts: never change
// them.
type Piece struct {
	Sum    Sum
	Tokens []uint32
}

// Prompt is a request's prompt as pieces, in order; N is its length in tokens.
type Prompt struct {
	Pieces []Piece
	N      int
}

// Flat is the prompt's tokens in one slice.
func (p Prompt) Flat() []uint32 {
	out := make([]uint32, 0, p.N)
	for _, pc := range p.Pieces {
		out = append(out, pc.Tokens...)
	}
	return out
}

// BlockSums names each block of size tokens of toks, the last one short if toks does not fill it,
// by the SHA-256 of the sum before it (zeros for the first) and its tokens (little-endian uint32):
// a chain, so two prompts' blocks have the same names exactly as far as the prompts are the same.
// known are the sums of leading blocks already named (a prompt's that shares them); they are
// kept and the rest computed. vLLM's prefix cache (cachesim.Blocks) and a Mooncake trace's hash
// ids (internal/cachebench/export) name blocks by it.
func BlockSums(toks []uint32, size int, known []Sum) []Sum {
	out := append(make([]Sum, 0, (len(toks)+size-1)/size), known...)
	var buf []byte
	for k := len(out); k*size < len(toks); k++ {
		var prev Sum
		if k > 0 {
			prev = out[k-1]
		}
		buf = append(buf[:0], prev[:]...)
		for _, t := range toks[k*size : min(len(toks), (k+1)*size)] {
			buf = binary.LittleEndian.AppendUint32(buf, t)
		}
		out = append(out, sha256.Sum256(buf))
	}
	return out
}

// LCP is the length of the longest common token prefix of a and b. Equal leading pieces are
// compared by their sums; from the first that differs, token by token, across piece boundaries.
func LCP(a, b Prompt) int {
	n, i := 0, 0
	for i < len(a.Pieces) && i < len(b.Pieces) && a.Pieces[i].Sum == b.Pieces[i].Sum {
		n += len(a.Pieces[i].Tokens)
		i++
	}
	ca, cb := cursor{p: a.Pieces, i: i}, cursor{p: b.Pieces, i: i}
	for {
		x, okx := ca.next()
		y, oky := cb.next()
		if !okx || !oky || x != y {
			return n
		}
		n++
	}
}

// cursor walks a prompt's tokens from a piece on.
type cursor struct {
	p    []Piece
	i, j int
}

func (c *cursor) next() (uint32, bool) {
	for c.i < len(c.p) && c.j >= len(c.p[c.i].Tokens) {
		c.i, c.j = c.i+1, 0
	}
	if c.i >= len(c.p) {
		return 0, false
	}
	t := c.p[c.i].Tokens[c.j]
	c.j++
	return t, true
}

// Tokenizer makes a request's prompt.
type Tokenizer interface {
	// Prompt tokenizes the request r parsed from body.
	Prompt(ctx context.Context, body []byte, r *chat.Request) (Prompt, error)
	// Name says which tokenizer it is, for reports.
	Name() string
}

// Encoding is the BPE the default tokenizer uses, and its ChatML frame tokens.
const (
	Encoding = "o200k_base"
	imStart  = 200264
	imEnd    = 200265
)

var (
	encOnce sync.Once
	enc     *bpe
	encErr  error
)

// encoding loads the BPE tables on first use, once per process: a command that tokenizes
// nothing (the fake before its first request, run, diff) never pays for them.
func encoding() (*bpe, error) {
	encOnce.Do(func() {
		enc, encErr = loadBPE(Encoding + ".tiktoken")
		if encErr != nil {
			encErr = fmt.Errorf("tokenizer %s: %v", Encoding, encErr)
		}
	})
	return enc, encErr
}

// Tiktoken is the default tokenizer, with its cache of parts already tokenized. Safe for
// concurrent use.
type Tiktoken struct {
	// mu is read-locked for a part found in cur, what nearly every prompt of a session is:
	// under a mutex, 64 concurrent prompts queued on it.
	mu sync.RWMutex
	// Two generations bound the cache: when cur holds limit tokens, or has served cacheCalls
	// prompts, it becomes old and a new cur starts; a part found in old moves back to cur. What a
	// session still resends stays; what no prompt has read for two generations goes, so that a
	// long session's cache does not grow with its length.
	cur, old map[Sum][]uint32
	curN     int
	limit    int
	calls    atomic.Int64 // prompts cur has served; counted outside mu, turned under it
	// Encoded counts the tokens actually encoded (cache misses), for tests and benchmarks.
	encoded int64
}

// DefaultCacheTokens bounds one generation of the part cache (4 bytes a token): a million
// tokens, the longest context a model reads, so that a whole prompt resent fits in one; at 16 M a
// long audit's cache never turned over and grew with the session.
const DefaultCacheTokens = 1 << 20

// cacheCalls is how many prompts (Of) one generation of the part cache serves.
const cacheCalls = 1024

// NewTiktoken makes a tokenizer with its own cache. The BPE tables are loaded on its first
// encoding, once per process.
func NewTiktoken() (*Tiktoken, error) {
	return &Tiktoken{cur: map[Sum][]uint32{}, old: map[Sum][]uint32{}, limit: DefaultCacheTokens}, nil
}

// encoder is the loaded BPE. The file is compiled into the binary: failing to read it is a
// broken build, not a mistake of the caller's.
func (t *Tiktoken) encoder() *bpe {
	e, err := encoding()
	if err != nil {
		panic(err)
	}
	return e
}

// Name implements Tokenizer.
func (t *Tiktoken) Name() string { return "tiktoken " + Encoding }

// Prompt implements Tokenizer; it never fails once the tokenizer is made.
func (t *Tiktoken) Prompt(_ context.Context, _ []byte, r *chat.Request) (Prompt, error) {
	return t.Of(r), nil
}

// Of tokenizes a parsed request, part by part, reusing the tokens of parts seen before. A part
// with content blocks (Anthropic's) is a piece per block, framed as one: Anthropic's cache is
// written and looked up at block boundaries. The parts not in the cache are encoded on every core
// (encodeAll): each part's tokens depend on its own text alone.
func (t *Tiktoken) Of(r *chat.Request) Prompt { return t.OfParts(r.Parts(), nil) }

// OfParts is Of for a request's Parts, with the sums of some known already: known[i], when not
// the zero Sum, is SumOf(parts[i]) (a part the request before sent too). A session resends its
// history in every request; hashing it again was a sixth of an audit's CPU.
func (t *Tiktoken) OfParts(parts []chat.Part, known []Sum) Prompt {
	p := Prompt{Pieces: make([]Piece, 0, len(parts))}
	if t.calls.Add(1) > cacheCalls {
		t.mu.Lock()
		if t.calls.Load() > cacheCalls {
			t.turn()
			t.calls.Store(1) // this prompt is cur's first
		}
		t.mu.Unlock()
	}
	var todo []job
	seen := map[Sum]bool{}
	add := func(s Sum, j job) {
		toks, ok := t.lookup(s)
		if !ok && !seen[s] {
			seen[s] = true
			j.at = len(p.Pieces)
			todo = append(todo, j)
		}
		p.Pieces = append(p.Pieces, Piece{s, toks})
	}
	for i, part := range parts {
		if len(part.Blocks) == 0 {
			var s Sum
			if i < len(known) {
				s = known[i]
			}
			if s == (Sum{}) {
				s = SumOf(part)
			}
			add(s, job{part: part, block: -1})
			continue
		}
		for i := range part.Blocks {
			add(blockSum(part, i), job{part: part, block: i})
		}
	}
	t.encodeAll(p.Pieces, todo)
	for _, pc := range p.Pieces {
		p.N += len(pc.Tokens)
	}
	return p
}

// SumOf names a part by its kind and bytes (without Anthropic's cache_control members, which are
// no part of the prompt).
func SumOf(p chat.Part) Sum {
	h := sha256.New()
	h.Write([]byte{byte(p.Kind)})
	h.Write(p.Content())
	var s Sum
	h.Sum(s[:0])
	return s
}

// blockSum names block i of a part: its kind, whether it is the first (which carries the role),
// and its bytes.
func blockSum(p chat.Part, i int) Sum {
	h := sha256.New()
	h.Write([]byte{byte(p.Kind), byte(min(i, 1))})
	if i == 0 {
		h.Write([]byte(p.Role))
	}
	h.Write([]byte{0})
	h.Write(p.BlockContent(i))
	var s Sum
	h.Sum(s[:0])
	return s
}

// encodeBlock tokenizes block i of a part: the first opens the frame, the last closes it.
func (t *Tiktoken) encodeBlock(p chat.Part, i int) []uint32 {
	ids := t.encoder().EncodeOrdinary(BlockText(p, i))
	toks := make([]uint32, 0, len(ids)+2)
	if i == 0 {
		toks = append(toks, imStart)
	}
	for _, id := range ids {
		toks = append(toks, uint32(id))
	}
	if i == len(p.Blocks)-1 {
		toks = append(toks, imEnd)
	}
	return toks
}

// Piece tokenizes one part, or finds it in the cache.
func (t *Tiktoken) Piece(p chat.Part) Piece {
	s := SumOf(p)
	if toks, ok := t.lookup(s); ok {
		return Piece{s, toks}
	}
	toks := t.Encode(p)
	t.mu.Lock()
	t.encoded += int64(len(toks))
	t.store(s, toks)
	t.mu.Unlock()
	return Piece{s, toks}
}

func (t *Tiktoken) lookup(s Sum) ([]uint32, bool) {
	t.mu.RLock()
	toks, ok := t.cur[s]
	t.mu.RUnlock()
	if ok {
		return toks, true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if toks, ok := t.cur[s]; ok {
		return toks, true
	}
	if toks, ok := t.old[s]; ok {
		t.store(s, toks)
		return toks, true
	}
	return nil, false
}

func (t *Tiktoken) store(s Sum, toks []uint32) {
	if _, ok := t.cur[s]; ok {
		return
	}
	if t.curN+len(toks) > t.limit && len(t.cur) > 0 {
		t.turn()
	}
	t.cur[s] = toks
	t.curN += len(toks)
}

// turn starts a new generation of the cache (t.mu held).
func (t *Tiktoken) turn() {
	t.old, t.cur, t.curN = t.cur, map[Sum][]uint32{}, 0
	t.calls.Store(0)
}

// Encode tokenizes one part without the cache: its text framed by <|im_start|> and <|im_end|>.
func (t *Tiktoken) Encode(p chat.Part) []uint32 {
	ids := t.encoder().EncodeOrdinary(Text(p))
	out := make([]uint32, 0, len(ids)+2)
	out = append(out, imStart)
	for _, id := range ids {
		out = append(out, uint32(id))
	}
	return append(out, imEnd)
}

// Encoded is how many tokens this tokenizer has encoded (not found in its cache).
func (t *Tiktoken) Encoded() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.encoded
}

// Count tokenizes a text on its own, with no frame (for the length of a reply).
func (t *Tiktoken) Count(text string) int { return len(t.encoder().EncodeOrdinary(text)) }
