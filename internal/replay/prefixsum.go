package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"hash"
)

// prefixSum hashes a session's bodies, each checked by its SHA-256 as it is read: a session
// resends its history, so a body begins with most of the one before it. The hash's state is kept
// at every checkpoint bytes of the last body, and the next body's hash resumes from the last
// state its bytes share: the same digest as hashing it whole (TestPrefixSumIsSHA256), for the
// bytes that are new. Hashing every body whole was a tenth of a long audit's CPU.
type prefixSum struct {
	prev   []byte   // the last body hashed (a copy: the caller owns the bodies)
	states [][]byte // states[i]: the hash's state after prev[:(i+1)*checkpoint]
	d      hash.Hash
}

const checkpoint = 4 << 10

func (p *prefixSum) sum(b []byte) string {
	if p.d == nil {
		p.d = sha256.New()
	}
	n := 0 // checkpoints b shares with prev
	for n < len(p.states) && (n+1)*checkpoint <= len(b) &&
		bytes.Equal(p.prev[n*checkpoint:(n+1)*checkpoint], b[n*checkpoint:(n+1)*checkpoint]) {
		n++
	}
	p.d.Reset()
	if n > 0 {
		if err := p.d.(encoding.BinaryUnmarshaler).UnmarshalBinary(p.states[n-1]); err != nil {
			p.d.Reset()
			n = 0
		}
	}
	p.states = p.states[:n]
	for off := n * checkpoint; off+checkpoint <= len(b); off += checkpoint {
		p.d.Write(b[off : off+checkpoint])
		var st []byte
		if k := len(p.states); k < cap(p.states) {
			st = p.states[:k+1][k][:0] // the slice kept from an earlier body, reused
		}
		st, _ = p.d.(encoding.BinaryAppender).AppendBinary(st)
		p.states = append(p.states, st)
	}
	p.d.Write(b[len(p.states)*checkpoint:])
	p.prev = append(p.prev[:0], b...)
	var s [sha256.Size]byte
	return hex.EncodeToString(p.d.Sum(s[:0]))
}
