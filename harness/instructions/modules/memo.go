package modules

import (
	"hash/maphash"
	"sync"
)

// sumMemoMin is the size from which a file's hash is remembered: below it, hashing again costs
// less than looking it up by the file's bytes. A frontmatter's parse (YAML) is dearer: every one
// is remembered.
const sumMemoMin = 4 << 10

// memoMax and memoBytes bound what is remembered: a long-lived process (an adapter answering
// case after case) keeps at most this many files' results, their bytes together at most so
// many; when full, it forgets them all and starts again.
const (
	memoMax   = 512
	memoBytes = 8 << 20
)

// fileMemo remembers what bytes give (a large file's hash, a frontmatter block's globs) by those
// bytes: the resolver reads every rule file again at every trigger, and a file near the cap
// (256 KiB) costs more to hash, and a frontmatter to parse, than to look up. A result depends on the bytes alone, so
// the memo
// changes no answer, only its cost.
type fileMemo[V any] struct {
	mu   sync.Mutex
	m    map[string]V
	size int // the keys' bytes
	// second makes the memo keep a content only when it comes a second time (seen holds the
	// first sightings' maphash): a process that reads a large file once, as `run` reads each
	// file near the cap, then does not copy it into the memo.
	second bool
	seed   maphash.Seed
	seen   map[uint64]bool
}

var (
	sums   = fileMemo[string]{second: true}
	fronts fileMemo[front]
)

// get is the value remembered for b, made by mk and remembered if there is none (with second,
// from its second sighting on).
func (f *fileMemo[V]) get(b []byte, mk func() V) V {
	f.mu.Lock()
	v, ok := f.m[string(b)]
	f.mu.Unlock()
	if ok {
		return v
	}
	v = mk()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil || len(f.m) >= memoMax || f.size+len(b) > memoBytes || len(f.seen) >= memoMax {
		f.m, f.size, f.seen = map[string]V{}, 0, map[uint64]bool{}
		if f.seed == (maphash.Seed{}) {
			f.seed = maphash.MakeSeed()
		}
	}
	if f.second {
		if h := maphash.Bytes(f.seed, b); !f.seen[h] {
			f.seen[h] = true
			return v
		}
	}
	if len(b) <= memoBytes {
		f.m[string(b)] = v
		f.size += len(b)
	}
	return v
}

// front is parseFront's answer, kept by the memo.
type front struct {
	globs []Glob
	err   error
}

// parseFrontMemo is parseFront(block, key), remembered by the block: a module's frontmatter is a
// few lines however large the file, and YAML is the dear part of reading it.
func parseFrontMemo(block []byte, key string) ([]Glob, error) {
	// The memo's key is made in a buffer on the stack (a longer block moves to the heap): the
	// memo copies what it keeps.
	var buf [512]byte
	k := append(append(append(buf[:0], key...), 0), block...)
	f := fronts.get(k, func() front {
		g, err := parseFront(block, key)
		return front{g, err}
	})
	return f.globs, f.err
}
