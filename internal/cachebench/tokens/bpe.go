package tokens

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"hash/maphash"
	"math"
	"strconv"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// bpe is o200k_base in a compact form: every token's bytes in one blob, in rank order, with an
// offset per rank, and an open-addressed table from a token's bytes to its rank. About 4 MB
// live, where tiktoken-go's maps of strings (encoder, decoder, sorted bytes) hold ~25 MB that
// every garbage collection marks. It encodes exactly as tiktoken-go's EncodeOrdinary does
// (TestBPEMatchesTiktokenGo): the same pre-tokenizer, on runes, and the same merge order.
type bpe struct {
	blob []byte
	off  []uint32 // token r is blob[off[r]:off[r+1]]
	// table holds rank+1 at the slot the token's hash leads to (0: empty); its length is a
	// power of two.
	table []uint32
	seed  maphash.Seed
}

// o200kPattern is tiktoken's o200k_base pre-tokenizer, as github.com/pkoukk/tiktoken-go v0.1.8
// (encoding.go, o200k_base) joins it; TestBPEMatchesTiktokenGo holds the two together. split
// (pretok.go) makes its splits by hand; the tests run the pattern as the oracle.
const o200kPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*` +
	`[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
	`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
	`|\p{N}{1,3}` +
	`| ?[^\s\p{L}\p{N}]+[\r\n/]*` +
	`|\s*[\r\n]+` +
	`|\s+(?!\S)` +
	`|\s+`

// loadBPE reads the BPE file compiled into the binary (tiktoken-go-loader's assets: nothing is
// downloaded), line by line ("base64-token rank", ranks 0, 1, 2, … in order), into the compact
// form.
func loadBPE(file string) (*bpe, error) {
	// Two passes over the file (it is in the binary's data, not read from disk): the first
	// sizes the blob and offsets exactly, so no growing copy raises the peak.
	n, size, err := scanBPE(file, func([]byte, int) error { return nil })
	if err != nil {
		return nil, err
	}
	b := &bpe{seed: maphash.MakeSeed(), blob: make([]byte, 0, size), off: make([]uint32, 1, n+1)}
	var tok [256]byte
	_, _, err = scanBPE(file, func(enc []byte, rank int) error {
		k, err := base64.StdEncoding.Decode(tok[:], enc)
		if err != nil {
			return err
		}
		if rank != len(b.off)-1 {
			return fmt.Errorf("rank %d, want %d (ranks in order from 0)", rank, len(b.off)-1)
		}
		b.blob = append(b.blob, tok[:k]...)
		b.off = append(b.off, uint32(len(b.blob)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	b.index()
	return b, nil
}

// scanBPE calls each for every "base64-token rank" line of the file, and counts the tokens and
// their decoded bytes.
func scanBPE(file string, each func(enc []byte, rank int) error) (n, size int, err error) {
	f, err := assets.Assets.Open(file)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		enc, rank, ok := bytes.Cut(sc.Bytes(), []byte(" "))
		if !ok {
			continue
		}
		r, err := strconv.Atoi(string(rank))
		if err == nil {
			err = each(enc, r)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("%s line %d: %v", file, line, err)
		}
		n++
		size += base64.StdEncoding.DecodedLen(len(enc)) - bytes.Count(enc, []byte("="))
	}
	if err := sc.Err(); err != nil {
		return 0, 0, fmt.Errorf("%s: %v", file, err)
	}
	return n, size, nil
}

// index fills the table, at most half full.
func (b *bpe) index() {
	size := 1
	for size < 2*(len(b.off)-1) {
		size <<= 1
	}
	b.table = make([]uint32, size)
	mask := uint64(size - 1)
	for r := 0; r < len(b.off)-1; r++ {
		i := maphash.Bytes(b.seed, b.token(r)) & mask
		for b.table[i] != 0 {
			i = (i + 1) & mask
		}
		b.table[i] = uint32(r + 1)
	}
}

func (b *bpe) token(r int) []byte { return b.blob[b.off[r]:b.off[r+1]] }

// rank is the token of exactly these bytes, or -1.
func (b *bpe) rank(p []byte) int {
	mask := uint64(len(b.table) - 1)
	for i := maphash.Bytes(b.seed, p) & mask; ; i = (i + 1) & mask {
		v := b.table[i]
		if v == 0 {
			return -1
		}
		if r := int(v - 1); bytes.Equal(b.token(r), p) {
			return r
		}
	}
}

// EncodeOrdinary tokenizes text with no special tokens, as tiktoken-go's does: the text is
// split by the pre-tokenizer (on its runes: bytes that are not UTF-8 read as U+FFFD), each
// piece is a token or is merged pair by pair, lowest rank first.
func (b *bpe) EncodeOrdinary(text string) []int {
	out := []int{}
	var piece []byte
	split(text, func(p string) {
		piece = append(piece[:0], p...)
		if r := b.rank(piece); r >= 0 {
			out = append(out, r)
		} else if len(piece) >= longPiece {
			out = b.mergeLong(piece, out)
		} else {
			out = b.merge(piece, out)
		}
	})
	return out
}

// part is a merge's state: where a part starts and the rank of it joined with the next one.
type part struct{ start, rank int }

// merge is tiktoken's byte-pair merge of a piece that is no token itself: from single bytes,
// the adjacent pair of the lowest rank is joined (the first of equals), until no pair is a
// token; the parts' ranks are appended to out.
func (b *bpe) merge(piece []byte, out []int) []int {
	parts := make([]part, len(piece)+1)
	for i := range parts {
		parts[i] = part{i, math.MaxInt}
	}
	// pair is the rank of parts i … i+skip+1 joined, or MaxInt.
	pair := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r := b.rank(piece[parts[i].start:parts[i+skip+2].start]); r >= 0 {
				return r
			}
		}
		return math.MaxInt
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = pair(i, 0)
	}
	for len(parts) > 1 {
		minRank, i := math.MaxInt, -1
		for j := 0; j < len(parts)-1; j++ {
			if parts[j].rank < minRank {
				minRank, i = parts[j].rank, j
			}
		}
		if i < 0 {
			break
		}
		parts[i].rank = pair(i, 1)
		if i > 0 {
			parts[i-1].rank = pair(i-1, 1)
		}
		parts = append(parts[:i+1], parts[i+2:]...)
	}
	for i := 0; i+1 < len(parts); i++ {
		// Every part left is a token: single bytes are, and joins are made only of tokens.
		out = append(out, max(b.rank(piece[parts[i].start:parts[i+1].start]), 0))
	}
	return out
}
