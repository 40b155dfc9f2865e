package chunk

import (
	"strings"
	"unicode/utf8"
)

// filesystem.md, Indexing, by tokens: "A piece the embedder still refuses for its length is split
// in two at the best cut and both are embedded; nothing is dropped." The embedder's limit is the
// most tokens it takes, counted as the splitter counted them.

// SplitRefused is what is embedded of pieces (the token splitter's, with tok) when the embedder
// refuses a piece of more than limit tokens: each refused piece is split in two at its best cut,
// and each half again while it is refused. A piece of one token cannot be split and is sent as
// it is. The error is a tokenizer whose spans break Tokenizer's rules.
func SplitRefused(pieces []string, tok Tokenizer, limit int) ([]string, error) {
	out := []string{}
	for _, p := range pieces {
		parts, err := splitRefused(p, func(p string) ([]int, bool, error) {
			ts := tok.Tokens(p)
			if err := checkSpans(ts, p); err != nil {
				return nil, false, err
			}
			starts := make([]int, len(ts))
			for i, s := range ts {
				starts[i] = s.Start
			}
			return starts, len(ts) > limit, nil
		})
		if err != nil {
			return nil, err
		}
		out = append(out, parts...)
	}
	return out, nil
}

// SplitRefusedEstimated is SplitRefused for pieces the stand-in count measured (Estimated): a
// piece is refused when its estimate is above limit, and the cut of last resort may fall between
// any two characters.
func SplitRefusedEstimated(pieces []string, limit int) []string {
	out := []string{}
	for _, p := range pieces {
		parts, _ := splitRefused(p, func(p string) ([]int, bool, error) {
			if Estimate(p) <= limit {
				return nil, false, nil
			}
			var starts []int
			for i := range p {
				starts = append(starts, i)
			}
			return starts, true, nil
		})
		out = append(out, parts...)
	}
	return out
}

// splitRefused splits p in two while it is refused. measure says where p's units begin (tokens,
// or characters for the estimate) and whether the embedder refuses p.
func splitRefused(p string, measure func(string) (starts []int, refused bool, err error)) ([]string, error) {
	starts, refused, err := measure(p)
	if err != nil {
		return nil, err
	}
	if !refused || len(starts) < 2 {
		return []string{p}, nil
	}
	cut, ok := bestCut(p, starts[1:])
	if !ok {
		return []string{p}, nil
	}
	var out []string
	for _, half := range []string{strings.TrimSpace(p[:cut]), strings.TrimSpace(p[cut:])} {
		parts, err := splitRefused(half, measure)
		if err != nil {
			return nil, err
		}
		out = append(out, parts...)
	}
	return out, nil
}

// bestCut is where a refused piece is split in two: just after a paragraph break, else a line
// break, else a sentence's ". " — of the best kind there is, the one nearest the piece's middle by
// characters, the earlier of two as near — else at the start of the unit nearest the middle
// (inner: where the units after the first begin). Both halves keep something: a cut that leaves
// a half of white space only does not count.
func bestCut(p string, inner []int) (int, bool) {
	n := utf8.RuneCountInString(p)
	nearest := func(cands []int) (int, bool) {
		best, bestD := 0, -1
		for _, c := range cands {
			if strings.TrimSpace(p[:c]) == "" || strings.TrimSpace(p[c:]) == "" {
				continue
			}
			d := 2*utf8.RuneCountInString(p[:c]) - n
			if d < 0 {
				d = -d
			}
			if bestD < 0 || d < bestD {
				best, bestD = c, d
			}
		}
		return best, bestD >= 0
	}
	for _, b := range breaks {
		var cands []int
		for i := 0; ; {
			j := strings.Index(p[i:], b)
			if j < 0 {
				break
			}
			cands = append(cands, i+j+len(b))
			i += j + 1
		}
		if c, ok := nearest(cands); ok {
			return c, true
		}
	}
	return nearest(inner)
}
