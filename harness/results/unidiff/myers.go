package unidiff

// Diff is a minimal line diff of a and b (Myers' O(ND) algorithm in linear space, the "middle
// snake" of his 1986 paper): del[i] says a[i] is deleted, ins[j] that b[j] is inserted; the lines
// neither marks are a longest common subsequence, matched in order.
func Diff(a, b []string) (del, ins []bool) {
	d := differ{del: make([]bool, len(a)), ins: make([]bool, len(b))}
	// Lines become numbers: comparing them is then one instruction, whatever their length.
	ids := map[string]int{}
	d.a, d.b = intern(a, ids), intern(b, ids)
	inA := make([]bool, len(ids))
	for _, x := range d.a {
		inA[x] = true
	}
	shared := false
	for _, y := range d.b {
		if inA[y] {
			shared = true
			break
		}
	}
	if !shared {
		// No line in common: the one minimal diff, without searching for it.
		d.mark(0, len(a), 0, len(b))
		return d.del, d.ins
	}
	n := (len(a)+len(b)+1)/2*2 + 2
	d.v1, d.v2 = make([]int, n), make([]int, n)
	d.compare(0, len(a), 0, len(b))
	return d.del, d.ins
}

func intern(lines []string, ids map[string]int) []int {
	out := make([]int, len(lines))
	for i, l := range lines {
		id, ok := ids[l]
		if !ok {
			id = len(ids)
			ids[l] = id
		}
		out[i] = id
	}
	return out
}

type differ struct {
	a, b     []int
	del, ins []bool
	v1, v2   []int // the furthest reaching paths, reused by every bisect
}

func (d *differ) mark(aLo, aHi, bLo, bHi int) {
	for i := aLo; i < aHi; i++ {
		d.del[i] = true
	}
	for j := bLo; j < bHi; j++ {
		d.ins[j] = true
	}
}

// compare diffs a[aLo:aHi] with b[bLo:bHi]: their common ends are kept, the middle split at a
// middle snake and each side compared in turn.
func (d *differ) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		aLo++
		bLo++
	}
	for aLo < aHi && bLo < bHi && d.a[aHi-1] == d.b[bHi-1] {
		aHi--
		bHi--
	}
	if aLo == aHi || bLo == bHi {
		d.mark(aLo, aHi, bLo, bHi)
		return
	}
	x, y, ok := d.bisect(d.a[aLo:aHi], d.b[bLo:bHi])
	if !ok {
		d.mark(aLo, aHi, bLo, bHi)
		return
	}
	d.compare(aLo, aLo+x, bLo, bLo+y)
	d.compare(aLo+x, aHi, bLo+y, bHi)
}

// bisect finds where a middle snake of a shortest edit script of a → b ends: the forward and the
// backward search of Myers' paper, run in turn until their paths overlap. The point (x, y) splits
// both sequences; ok is false when no split exists short of the whole (nothing in common).
func (d *differ) bisect(a, b []int) (x, y int, ok bool) {
	n, m := len(a), len(b)
	maxD := (n + m + 1) / 2
	off := maxD
	size := 2*maxD + 2 // diagonals -maxD-1 … maxD+1, the outermost read but never reached
	v1, v2 := d.v1[:size], d.v2[:size]
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - m
	// With an odd delta the forward path is checked for overlap, with an even one the backward.
	front := delta%2 != 0
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for step := 0; step < maxD; step++ {
		for k1 := -step + k1start; k1 <= step-k1end; k1 += 2 {
			i := off + k1
			var x1 int
			if k1 == -step || (k1 != step && v1[i-1] < v1[i+1]) {
				x1 = v1[i+1]
			} else {
				x1 = v1[i-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < m && a[x1] == b[y1] {
				x1++
				y1++
			}
			v1[i] = x1
			switch {
			case x1 > n:
				k1end += 2 // ran off the right of the grid
			case y1 > m:
				k1start += 2 // ran off the bottom
			case front:
				if j := off + delta - k1; j >= 0 && j < size && v2[j] != -1 && x1 >= n-v2[j] {
					return x1, y1, true
				}
			}
		}
		for k2 := -step + k2start; k2 <= step-k2end; k2 += 2 {
			i := off + k2
			var x2 int
			if k2 == -step || (k2 != step && v2[i-1] < v2[i+1]) {
				x2 = v2[i+1]
			} else {
				x2 = v2[i-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < m && a[n-x2-1] == b[m-y2-1] {
				x2++
				y2++
			}
			v2[i] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				if j := off + delta - k2; j >= 0 && j < size && v1[j] != -1 {
					x1 := v1[j]
					y1 := off + x1 - j
					if x1 >= n-x2 {
						return x1, y1, true
					}
				}
			}
		}
	}
	return 0, 0, false
}
