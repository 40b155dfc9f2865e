package cachesim

import (
	"sync"

	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

// DefaultBlockSize is vLLM's KV cache block in tokens (--block-size 16); SGLang's radix cache
// matches to the token (a block of 1).
const DefaultBlockSize = 16

// Blocks is a prefix cache of KV blocks, as vLLM keeps one (automatic prefix caching): a prompt is
// cut into full blocks, each named by the hash of its tokens and the blocks before it
// (tokens.BlockSums); a request
// reads from the cache the longest run of leading blocks the cache holds, never the whole prompt
// (the last token is computed again, for its logits, so at most (N-1) rounded down to a block);
// then every full block of the prompt is held, and the least recently used blocks go when more
// than the capacity are. Of one prompt's blocks the tail is the least recent: vLLM frees a
// finished request's blocks in reverse ("so that the tail blocks are evicted first",
// KVCacheManager.free) into a queue it evicts from the front, so a shared head stays longest.
// There are no slots and no contention for them: requests batch together.
type Blocks struct {
	size, capacity int
	mu             sync.Mutex
	used           map[tokens.Sum]int64
	clock          int64
}

// NewBlocks makes a cache of capacity blocks of size tokens (size < 1: DefaultBlockSize).
func NewBlocks(size, capacity int) *Blocks {
	if size < 1 {
		size = DefaultBlockSize
	}
	return &Blocks{size: size, capacity: max(1, capacity), used: map[tokens.Sum]int64{}}
}

// BlockSize is the block's size in tokens.
func (b *Blocks) BlockSize() int { return b.size }

// Serve serves one prompt: what it read from the cache, and its length.
func (b *Blocks) Serve(p tokens.Prompt) Result {
	toks := p.Flat()
	full := len(toks) / b.size
	readable := 0
	if len(toks) > 0 {
		readable = (len(toks) - 1) / b.size
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	hit, missed := 0, false
	hashes := tokens.BlockSums(toks[:full*b.size], b.size, nil)
	for i, h := range hashes {
		if _, ok := b.used[h]; ok && !missed && i < readable {
			hit++
		} else {
			missed = true
		}
	}
	// Each block its own tick, from the tail to the head: no two blocks are equally recent (which
	// one goes is never left to the map's order), and the tail goes first, as in vLLM.
	for i := full - 1; i >= 0; i-- {
		b.clock++
		b.used[hashes[i]] = b.clock
	}
	for len(b.used) > b.capacity {
		b.evict()
	}
	return Result{PromptTokens: len(toks), CachedTokens: hit * b.size}
}

// evict drops the least recently used block (of one prompt's, the one nearest its end).
func (b *Blocks) evict() {
	var oldest tokens.Sum
	least := int64(-1)
	for h, t := range b.used {
		if least < 0 || t < least {
			oldest, least = h, t
		}
	}
	delete(b.used, oldest)
}

// Reset empties the cache (vLLM's POST /reset_prefix_cache).
func (b *Blocks) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used = map[tokens.Sum]int64{}
}
