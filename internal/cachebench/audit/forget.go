package audit

import "github.com/LLeMbas/lembas-check/internal/cachebench/tokens"

// What the audit keeps of the requests it has read is bounded, so that its memory does not grow
// with the session's length: the last `recent` requests, the latest request of each conversation
// (what its next request continues), and the compaction asks still waiting for their summary. A
// request older than that is forgotten — its sums, its tokens, the bytes of parts no kept request
// holds — and a later request can no longer be compared with it: a branch from a history more
// than `recent` requests back reads as a change to the latest request of that history instead.

// recent is how many of the latest requests are kept whatever they are.
const recent = 256

// stored is a part's bytes and how many kept requests hold the part.
type stored struct {
	b    []byte
	refs int
}

// bytesOf is a kept part's bytes.
func (a *Auditor) bytesOf(s tokens.Sum) []byte {
	if st := a.store[s]; st != nil {
		return st.b
	}
	return nil
}

// hold notes that a kept request holds its parts, whose bytes are content(i).
func (a *Auditor) hold(cur *past, content func(i int) []byte) {
	for i, r := range cur.parts {
		st := a.store[r.sum]
		if st == nil {
			st = &stored{b: append([]byte(nil), content(i)...)}
			a.store[r.sum] = st
		}
		st.refs++
	}
}

// forgetOld forgets what the request just remembered (idx) has made unneeded: the request that
// left the recent window, and the one that was its conversation's latest before it.
func (a *Auditor) forgetOld(idx int, prevTip int, released []int) {
	if idx >= recent {
		a.forget(idx-recent, idx)
	}
	if prevTip >= 0 {
		a.forget(prevTip, idx)
	}
	for _, i := range released {
		a.forget(i, idx)
	}
}

// forget drops request i, unless it is still kept.
func (a *Auditor) forget(i, latest int) {
	p := a.reqs[i]
	if p == nil || latest-i < recent || a.tips[p.conv] == i {
		return
	}
	for _, k := range a.asks {
		if k == i {
			return
		}
	}
	a.reqs[i] = nil
	ch := p.chain
	if len(ch) > 0 {
		full := ch[len(ch)-1]
		idxs := a.full[full][:0]
		for _, k := range a.full[full] {
			if k != i {
				idxs = append(idxs, k)
			}
		}
		if len(idxs) == 0 {
			delete(a.full, full)
		} else {
			a.full[full] = idxs
		}
	}
	for _, c := range ch {
		if a.prefix[c] == i {
			delete(a.prefix, c)
		}
	}
	if len(p.parts) > 0 && a.head[p.parts[0].sum] == i {
		delete(a.head, p.parts[0].sum)
	}
	for _, r := range p.parts {
		if st := a.store[r.sum]; st != nil {
			if st.refs--; st.refs <= 0 {
				delete(a.store, r.sum)
			}
		}
	}
}

// dateCache is where parts carry a date (dateAt), bounded as tokens' part cache is: two
// generations of datesPerGen parts; a part found in the old one moves to the new. What a session
// still resends is found in one of them.
type dateCache struct{ cur, old map[dateKey]string }

const datesPerGen = 1 << 13

func newDates() *dateCache { return &dateCache{cur: map[dateKey]string{}, old: map[dateKey]string{}} }

func (d *dateCache) get(k dateKey) (string, bool) {
	if at, ok := d.cur[k]; ok {
		return at, true
	}
	at, ok := d.old[k]
	if ok {
		d.put(k, at)
	}
	return at, ok
}

func (d *dateCache) put(k dateKey, at string) {
	if len(d.cur) >= datesPerGen {
		d.old, d.cur = d.cur, map[dateKey]string{}
	}
	d.cur[k] = at
}
