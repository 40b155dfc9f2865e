package tokens

import "math"

// longPiece is the length from which a piece is merged with a heap: the scan of every pair per
// join is quadratic, and a module padded to 256 KiB of one letter is a single piece of 262,144
// bytes (a modules feature case took 94 s in the fake's usage count, and timed out under load).
const longPiece = 256

// mergeLong is merge for a long piece, in O(n log n): the parts are a linked list, and the
// candidate joins a heap ordered as merge picks them — the lowest rank, the first of equals
// (the leftmost start, which no join moves). An entry whose part has since been joined or
// re-ranked is dropped when it comes up. The tokens are merge's, each join the same.
func (b *bpe) mergeLong(piece []byte, out []int) []int {
	n := len(piece)
	next := make([]int, n) // the start of the part after the part starting at i; n at the end
	prev := make([]int, n)
	rank := make([]int, n) // the rank of the part at i joined with its next, or MaxInt
	for i := range n {
		next[i], prev[i] = i+1, i-1
	}
	pairRank := func(i int) int {
		if next[i] >= n {
			return math.MaxInt
		}
		end := next[next[i]]
		if r := b.rank(piece[i:end]); r >= 0 {
			return r
		}
		return math.MaxInt
	}
	h := joinHeap{}
	for i := range n {
		if rank[i] = pairRank(i); rank[i] != math.MaxInt {
			h.push(join{rank[i], i})
		}
	}
	for len(h) > 0 {
		j := h.pop()
		i := j.start
		if next[i] < 0 || rank[i] != j.rank { // joined into its left neighbour, or re-ranked
			continue
		}
		gone := next[i]
		next[i] = next[gone]
		if next[i] < n {
			prev[next[i]] = i
		}
		next[gone] = -1
		for _, k := range []int{i, prev[i]} {
			if k < 0 {
				continue
			}
			if rank[k] = pairRank(k); rank[k] != math.MaxInt {
				h.push(join{rank[k], k})
			}
		}
	}
	for i := 0; i < n; i = next[i] {
		out = append(out, max(b.rank(piece[i:next[i]]), 0))
	}
	return out
}

// join is a candidate join: the part starting at start with its next, of this rank.
type join struct{ rank, start int }

// joinHeap is a binary min-heap of joins by rank, then start.
type joinHeap []join

func (j join) before(o join) bool { return j.rank < o.rank || j.rank == o.rank && j.start < o.start }

func (h *joinHeap) push(j join) {
	*h = append(*h, j)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s[i].before(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *joinHeap) pop() join {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(s) && s[l].before(s[m]) {
			m = l
		}
		if r := l + 1; r < len(s) && s[r].before(s[m]) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
