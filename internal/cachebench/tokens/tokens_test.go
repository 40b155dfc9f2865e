package tokens

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

func mustTok(t testing.TB) *Tiktoken {
	t.Helper()
	tk, err := NewTiktoken()
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func parse(t testing.TB, body string) *chat.Request {
	t.Helper()
	r, err := chat.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func flatLCP(a, b []uint32) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// LCP compares by piece sums and then token by token; it must equal a plain comparison of the
// flattened tokens, whatever the piece boundaries.
func TestLCPIsTheFlatCommonPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mk := func(pieces [][]uint32) Prompt {
		var p Prompt
		for _, toks := range pieces {
			var s Sum
			for i, x := range toks {
				s[i%len(s)] ^= byte(x + uint32(i))
			}
			s[31] = byte(len(toks))
			p.Pieces = append(p.Pieces, Piece{s, toks})
			p.N += len(toks)
		}
		return p
	}
	for round := 0; round < 2000; round++ {
		var a, b [][]uint32
		for i := rng.IntN(5); i > 0; i-- {
			var p []uint32
			for j := rng.IntN(4); j > 0; j-- {
				p = append(p, uint32(rng.IntN(3)))
			}
			a = append(a, p)
			if rng.IntN(3) > 0 {
				b = append(b, append([]uint32(nil), p...))
			} else {
				b = append(b, []uint32{uint32(rng.IntN(3))})
			}
		}
		if rng.IntN(2) == 0 {
			b = append(b, []uint32{1, 2})
		}
		pa, pb := mk(a), mk(b)
		if got, want := LCP(pa, pb), flatLCP(pa.Flat(), pb.Flat()); got != want {
			t.Fatalf("round %d: LCP %d, flat %d\na %v\nb %v", round, got, want, a, b)
		}
	}
}

func TestTextRendersEveryShape(t *testing.T) {
	r := parse(t, `{"messages":[
		{"role":"system","content":[{"type":"text","text":"S1"},{"type":"text","text":"S2"}]},
		{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"x"}}]},
		{"role":"assistant","content":null,"reasoning_content":"secret","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"file a"},
		42],
		"tools":[{"type":"function","function":{"name":"read"}}]}`)
	want := []string{
		"system\nS1\nS2",
		`tool` + "\n" + `{"type":"function","function":{"name":"read"}}`,
		"user\nlook\n[image]",
		"assistant\n\n<tool_call>\nread {\"path\":\"a\"}\n</tool_call>",
		"tool\nfile a",
		"42",
	}
	for i, p := range r.Parts() {
		if got := Text(p); got != want[i] {
			t.Errorf("part %d (%s): %q, want %q", i, p.Path(), got, want[i])
		}
	}
	// A custom tool's call and output are rendered as a function's are (they rendered as their
	// type alone, the patch and its output not counted).
	resp := parse(t, `{"instructions":"I","input":[{"type":"function_call","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"out"},`+
		`{"type":"custom_tool_call","call_id":"d","name":"apply_patch","input":"*** Begin Patch"},{"type":"custom_tool_call_output","call_id":"d","output":"Done"}]}`)
	wantR := []string{"system\nI", "function_call\n<tool_call>\nf {}\n</tool_call>", "function_call_output\nout",
		"custom_tool_call\n<tool_call>\napply_patch *** Begin Patch\n</tool_call>", "custom_tool_call_output\nDone"}
	if n := len(resp.Parts()); n != len(wantR) {
		t.Errorf("responses: %d parts, want %d", n, len(wantR))
	}
	for i, p := range resp.Parts() {
		if got := Text(p); got != wantR[i] {
			t.Errorf("responses part %d: %q, want %q", i, got, wantR[i])
		}
	}
	anth := parse(t, `{"system":"S","messages":[{"role":"assistant","content":[{"type":"tool_use","name":"g","input":{"a":1}}]},{"role":"user","content":[{"type":"tool_result","content":"r"}]}]}`)
	wantA := []string{"system\nS", "assistant\n<tool_call>\ng {\"a\":1}\n</tool_call>", "user\nr"}
	for i, p := range anth.Parts() {
		if got := Text(p); got != wantA[i] {
			t.Errorf("anthropic part %d: %q, want %q", i, got, wantA[i])
		}
	}
}

// A part seen before is not tokenized again, and its tokens are the same as a fresh encoding.
func TestPartsAreTokenizedOnce(t *testing.T) {
	tk := mustTok(t)
	a := parse(t, `{"messages":[{"role":"system","content":"You are a careful coding agent."},{"role":"user","content":"hello there"}]}`)
	b := parse(t, `{"messages":[{"role":"system","content":"You are a careful coding agent."},{"role":"user","content":"hello there"},{"role":"assistant","content":"hi"}]}`)
	pa, _ := tk.Prompt(context.Background(), nil, a)
	first := tk.Encoded()
	pb := tk.Of(b)
	added := tk.Encoded() - first
	if want := int64(len(tk.Encode(b.Messages[1]))); added != want {
		t.Errorf("second request encoded %d tokens, want only its new message's %d", added, want)
	}
	if got := LCP(pa, pb); got != pa.N {
		t.Errorf("LCP %d, want the whole first prompt %d", got, pa.N)
	}
	for i, p := range b.Parts() {
		fresh := tk.Encode(p)
		if flatLCP(fresh, pb.Pieces[i].Tokens) != len(fresh) || len(fresh) != len(pb.Pieces[i].Tokens) {
			t.Errorf("part %d: cached tokens differ from a fresh encoding", i)
		}
		if fresh[0] != imStart || fresh[len(fresh)-1] != imEnd {
			t.Errorf("part %d is not framed: %v", i, fresh)
		}
	}
}

// The cache is bounded: past its limit, old parts are dropped, and a part still in use comes back.
func TestCacheGenerations(t *testing.T) {
	tk := mustTok(t)
	tk.limit = 20
	keep := parse(t, `{"messages":[{"role":"user","content":"keep me"}]}`).Messages[0]
	tk.Piece(keep)
	for i := 0; i < 10; i++ {
		tk.Piece(chat.Part{Kind: chat.Message, Raw: []byte(`{"role":"user","content":"filler number ` + string(rune('a'+i)) + ` with some words"}`)})
		tk.Piece(keep) // in use: found in old, moved back to cur
	}
	before := tk.Encoded()
	tk.Piece(keep)
	if tk.Encoded() != before {
		t.Error("a part in use was evicted")
	}
	if len(tk.cur)+len(tk.old) > 12 {
		t.Errorf("cache holds %d parts; its generations should bound it", len(tk.cur)+len(tk.old))
	}
}

// BlockSums is the one naming of token blocks, which cachesim.Blocks (full blocks) and the
// Mooncake export (its last block short) each wrote: sha256(the sum before, or 32 zero bytes ||
// the block's tokens as little-endian uint32), the known sums kept and chained from.
func TestBlockSums(t *testing.T) {
	var zero Sum
	b0 := sha256.Sum256(append(zero[:], 1, 0, 0, 0, 2, 0, 0, 0))
	b1 := sha256.Sum256(append(b0[:], 3, 0, 0, 0, 0, 1, 0, 0))
	b2 := sha256.Sum256(append(b1[:], 5, 0, 0, 0))
	toks := []uint32{1, 2, 3, 256, 5}
	got := BlockSums(toks, 2, nil)
	if len(got) != 3 || got[0] != b0 || got[1] != b1 || got[2] != b2 {
		t.Errorf("BlockSums(%v, 2) = %x", toks, got)
	}
	if full := BlockSums(toks[:4], 2, nil); len(full) != 2 || full[1] != b1 {
		t.Errorf("full blocks only: %x", full)
	}
	known := Sum{9}
	k2 := sha256.Sum256(append(known[:], 3, 0, 0, 0, 0, 1, 0, 0))
	if got := BlockSums(toks[:4], 2, []Sum{known}); len(got) != 2 || got[0] != known || got[1] != k2 {
		t.Errorf("with a known first block: %x", got)
	}
	if got := BlockSums(nil, 16, nil); len(got) != 0 {
		t.Errorf("no tokens: %x", got)
	}
}

// A long session's cache does not grow with it: a generation serves cacheCalls prompts, so a part
// no prompt has read for two generations goes, however few tokens the cache holds; a part every
// prompt reads stays.
func TestCacheTurnsOverWithPrompts(t *testing.T) {
	tk := mustTok(t)
	for i := range 3*cacheCalls + 1 {
		tk.Of(parse(t, fmt.Sprintf(`{"messages":[{"role":"system","content":"always"},{"role":"user","content":"turn %d"}]}`, i)))
	}
	if n := len(tk.cur) + len(tk.old); n > 2*cacheCalls+1 {
		t.Errorf("the cache holds %d parts after %d prompts of one new part each; two generations hold at most %d", n, 3*cacheCalls+1, 2*cacheCalls+1)
	}
	before := tk.Encoded()
	tk.Of(parse(t, `{"messages":[{"role":"system","content":"always"}]}`))
	if tk.Encoded() != before {
		t.Error("a part every prompt reads was evicted")
	}
}
