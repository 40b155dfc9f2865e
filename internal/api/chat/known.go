package chat

import "bytes"

// Known is what a request cut before tells of the one cut now, where their bodies share bytes:
// a part of the earlier body that lies in the two bodies' common prefix, or in their common
// suffix, is the same value in this one (a JSON value's end is told by its own bytes alone), so
// the scan jumps over it and a message keeps the role read before. A session resends its history
// in every request: without this, every byte of every request is scanned again.
type Known struct {
	prefix, suffix int // bytes the bodies share from the start and from the end
	prevLen, delta int // the earlier body's length; this one's minus it
	base           int // where the slice being scanned starts in the body
	at             map[int]known
}

// known is a part of the earlier body: where it ends, the deepest the scan met it at, its role
// and kind, and its index in the earlier request's Parts.
type known struct {
	end, depth int
	role       string
	kind       Kind
	part       int
}

// Know compares body with prevBody, which prev was cut from (prevParts: prev.Parts(), made once by
// the caller); nil when prev is nil, of a shape whose parts are not whole values of the body
// (Anthropic's blocks, Gemini's), or shares nothing.
func Know(prev *Request, prevParts []Part, prevBody, body []byte) *Known {
	if prev == nil || prev.API != ChatCompletions && prev.API != Responses {
		return nil
	}
	k := &Known{prefix: CommonPrefix(prevBody, body), prevLen: len(prevBody), delta: len(body) - len(prevBody)}
	k.suffix = CommonSuffix(prevBody, body)
	if k.prefix == 0 && k.suffix == 0 {
		return nil
	}
	k.at = map[int]known{}
	for i, p := range prevParts {
		end := p.Off + len(p.Raw)
		if end > k.prefix && p.Off < len(prevBody)-k.suffix || len(p.marks) > 0 || len(p.Blocks) > 0 {
			continue
		}
		// The top-level scan meets an array's element one deeper than a member of the body.
		depth := 2
		if p.Index < 0 {
			depth = 1
		}
		k.at[p.Off] = known{end: end, depth: depth, role: p.Role, kind: p.Kind, part: i}
	}
	return k
}

// from is k for a slice of the body that starts at base.
func (k *Known) from(base int) *Known {
	if k == nil {
		return nil
	}
	c := *k
	c.base = base
	return &c
}

// value is the earlier body's value whose bytes are those at offset i of the slice scanned, met
// at depth (no deeper than the earlier scan met it, so nesting fails neither or both).
func (k *Known) value(i, depth int) (known, bool) {
	if k == nil {
		return known{}, false
	}
	at := k.base + i
	if v, ok := k.at[at]; ok && v.end <= k.prefix && depth <= v.depth {
		return v, true
	}
	if s := at - k.delta; s >= k.prevLen-k.suffix {
		if v, ok := k.at[s]; ok && depth <= v.depth {
			v.end += k.delta
			return v, true
		}
	}
	return known{}, false
}

// pre is the scan's reader that jumps over what k knows (nil: none).
func (k *Known) pre() preFunc {
	if k == nil {
		return nil
	}
	return k.jump
}

func (k *Known) jump(b, _ []byte, _, i, depth int) (int, error) {
	if e, ok := k.end(i, depth); ok {
		return e, nil
	}
	return skipValuePre(b, i, depth, k.jump)
}

// end is where the value at offset i of the slice scanned ends, when k knows it.
func (k *Known) end(i, depth int) (int, bool) {
	v, ok := k.value(i, depth)
	if !ok {
		return 0, false
	}
	return v.end - k.base, true
}

// Was is the index, in the earlier request's Parts, of the part with p's kind and exact bytes
// (so with its sum), or -1 when k does not know p.
func (k *Known) Was(p Part) int {
	if k == nil || len(p.marks) > 0 || len(p.Blocks) > 0 {
		return -1
	}
	v, ok := k.from(0).value(p.Off, 0)
	if !ok || v.kind != p.Kind || v.end-p.Off != len(p.Raw) {
		return -1
	}
	return v.part
}

// CommonPrefix is the length of the longest common prefix of a and b, compared a block at a
// time: the bodies of a session share most of their bytes.
func CommonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+256 <= n && bytes.Equal(a[i:i+256], b[i:i+256]); i += 256 {
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// CommonSuffix is the length of the longest common suffix of a and b.
func CommonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+256 <= n && bytes.Equal(a[len(a)-i-256:len(a)-i], b[len(b)-i-256:len(b)-i]); i += 256 {
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
