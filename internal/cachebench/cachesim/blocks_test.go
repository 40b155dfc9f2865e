package cachesim

import "testing"

// vLLM's prefix cache reads whole blocks of the shared head, never the prompt's last token, and
// drops the least recently used blocks past its capacity, a prompt's tail before its head.
func TestBlocks(t *testing.T) {
	b := NewBlocks(16, 1000)
	if r := b.Serve(seq(0, 100)); r.CachedTokens != 0 || r.PromptTokens != 100 {
		t.Errorf("cold: %+v", r)
	}
	if r := b.Serve(flat(cat(span(0, 40), span(500, 600))...)); r.CachedTokens != 32 {
		t.Errorf("a head of 40 shared: %d cached, want 2 blocks", r.CachedTokens)
	}
	if r := b.Serve(seq(0, 96)); r.CachedTokens != 80 {
		t.Errorf("the same 6 blocks again: %d cached, want 5 (the last token is computed again)", r.CachedTokens)
	}
	small := NewBlocks(16, 4)
	small.Serve(seq(0, 64))      // blocks a0..a3
	small.Serve(seq(1000, 1032)) // two blocks more: a3, a2 go (the tail first), a0, a1 stay
	if r := small.Serve(seq(0, 65)); r.CachedTokens != 32 {
		t.Errorf("after the tail went: %d cached, want the head's 2 blocks", r.CachedTokens)
	}
	// That serve held a0..a3 again (a2, a3 computed anew), the newest; b0, b1 are now the oldest.
	if r := small.Serve(seq(1000, 1033)); r.CachedTokens != 0 {
		t.Errorf("b0, b1 evicted: %d cached", r.CachedTokens)
	}
	small.Reset()
	if r := small.Serve(seq(1000, 1040)); r.CachedTokens != 0 {
		t.Errorf("after reset: %d cached", r.CachedTokens)
	}
}
