package tokens

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// job is a part (or one of its blocks, block ≥ 0) not in the cache, and the piece it fills.
type job struct {
	part  chat.Part
	block int
	at    int
}

// parallelBytes is the least text worth sharing among cores: under it, starting goroutines costs
// more than it saves.
const parallelBytes = 16 << 10

// encodeAll fills pieces[j.at] for every job, then caches them, in the jobs' order: the tokens are
// the same whichever core made them, and so are the cache and the count of encoded tokens. A
// piece of the same part as an earlier job (a part twice in one request) takes that job's tokens.
func (t *Tiktoken) encodeAll(pieces []Piece, todo []job) {
	size := 0
	for _, j := range todo {
		size += len(j.part.Raw)
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	if size < parallelBytes {
		workers = 1
	}
	var next atomic.Int64
	work := func() {
		for {
			k := int(next.Add(1)) - 1
			if k >= len(todo) {
				return
			}
			j := todo[k]
			if j.block < 0 {
				pieces[j.at].Tokens = t.Encode(j.part)
			} else {
				pieces[j.at].Tokens = t.encodeBlock(j.part, j.block)
			}
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if len(todo) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	done := map[Sum][]uint32{}
	for _, j := range todo {
		pc := pieces[j.at]
		t.encoded += int64(len(pc.Tokens))
		t.store(pc.Sum, pc.Tokens)
		done[pc.Sum] = pc.Tokens
	}
	for i := range pieces {
		if pieces[i].Tokens == nil {
			pieces[i].Tokens = done[pieces[i].Sum]
		}
	}
}
