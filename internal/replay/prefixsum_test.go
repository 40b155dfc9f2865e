package replay

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// Resuming from a shared prefix gives every body the digest of hashing it whole: bodies that
// grow, shrink, change early or late, or are shorter than a checkpoint.
func TestPrefixSumIsSHA256(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var p prefixSum
	body := []byte{}
	for i := range 300 {
		switch rng.IntN(5) {
		case 0, 1: // the session grows
			body = append(bytes.Clone(body), bytes.Repeat([]byte{byte(i)}, rng.IntN(3*checkpoint))...)
		case 2: // a byte changes somewhere
			body = bytes.Clone(body)
			if len(body) > 0 {
				body[rng.IntN(len(body))] ^= 1
			}
		case 3: // cut back
			body = bytes.Clone(body[:rng.IntN(len(body)+1)])
		default: // another session's body
			body = bytes.Repeat([]byte{'x', byte(i)}, rng.IntN(4*checkpoint))
		}
		if got, want := p.sum(body), sum(body); got != want {
			t.Fatalf("body %d (%d bytes): %s, want %s", i, len(body), got, want)
		}
	}
}
