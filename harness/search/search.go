package search

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

// K is the constant of reciprocal rank fusion: a passage at rank r of a ranking adds
// 1/(K + r). The spec says "fused by rank" and no constant; 60 is the one rank fusion was
// published with (Cormack, Clarke and Büttcher, 2009) and the usual default.
const K = 60

// MaxPassages bounds one search, so a fused score stays an exact fraction of int64s.
const MaxPassages = 1 << 20

// Passage is one indexed piece of a file, with what the index scored it for the query.
type Passage struct {
	Path       string // absolute, resolved
	Start, End int    // its lines, from 1
	Text       string
	// Meaning is its similarity to the query (higher is nearer), nil when the meaning search
	// did not return it; Words its full-text score (higher is better), nil when no word matched.
	Meaning, Words *float64
}

// Query is a search's parameters besides the query itself, whose work the scores have done.
type Query struct {
	// Path limits the search to a directory, absolute or relative to the start directory;
	// "" is everything the session can see.
	Path string
	// Limit is how many passages; 0 is the tool's default.
	Limit int
}

// Result is one passage found, in the form the model reads.
func Result(p Passage) string {
	return spec.MustRender(SpecTexts().Result, map[string]string{
		"path": p.Path, "start": strconv.Itoa(p.Start), "end": strconv.Itoa(p.End), "passage": p.Text,
	})
}

// Search ranks the passages the view allows under q.Path, best first, at most q.Limit: a
// passage is ranked among them by each score it has, the two rankings fused by reciprocal rank
// (equal scores share the better rank), ties by path, then lines. Hidden passages are dropped
// before ranking — after scoring — so they change neither which results come nor how many. A
// search rooted where a listing is refused is refused with the listing's error.
func Search(v *fsaccess.View, ps []Passage, q Query) ([]Passage, error) {
	t := SpecTexts()
	limit := q.Limit
	if limit == 0 {
		limit = t.DefaultLimit
	}
	if limit < t.MinLimit || limit > t.MaxLimit {
		return nil, fmt.Errorf("search: limit %d is outside %d..%d", limit, t.MinLimit, t.MaxLimit)
	}
	if len(ps) > MaxPassages {
		return nil, fmt.Errorf("search: %d passages; at most %d", len(ps), MaxPassages)
	}
	kept, err := viewed(v, ps, q.Path)
	if err != nil {
		return nil, err
	}
	meaning := ranks(ps, kept, func(p Passage) *float64 { return p.Meaning })
	words := ranks(ps, kept, func(p Passage) *float64 { return p.Words })
	type scored struct {
		i     int
		fused fraction
	}
	var out []scored
	for _, i := range kept {
		var f fraction
		if r, ok := meaning[i]; ok {
			f = f.add(r)
		}
		if r, ok := words[i]; ok {
			f = f.add(r)
		}
		if f.num > 0 {
			out = append(out, scored{i, f})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if c := out[a].fused.cmp(out[b].fused); c != 0 {
			return c > 0
		}
		pa, pb := ps[out[a].i], ps[out[b].i]
		if pa.Path != pb.Path {
			return pa.Path < pb.Path
		}
		if pa.Start != pb.Start {
			return pa.Start < pb.Start
		}
		return pa.End < pb.End
	})
	if len(out) > limit {
		out = out[:limit]
	}
	res := make([]Passage, len(out))
	for j, s := range out {
		res[j] = ps[s.i]
	}
	return res, nil
}

// ranks is each kept passage's rank (from 1) by the score score gives it, highest first; a
// passage without that score is not in the ranking. Equal scores share the best rank of their
// group (1, 2, 2, 4), so the order passages come in never decides a rank.
func ranks(ps []Passage, kept []int, score func(Passage) *float64) map[int]int {
	var in []int
	for _, i := range kept {
		if score(ps[i]) != nil {
			in = append(in, i)
		}
	}
	sort.SliceStable(in, func(a, b int) bool { return *score(ps[in[a]]) > *score(ps[in[b]]) })
	out := make(map[int]int, len(in))
	for j, i := range in {
		if j > 0 && *score(ps[i]) == *score(ps[in[j-1]]) {
			out[i] = out[in[j-1]]
		} else {
			out[i] = j + 1
		}
	}
	return out
}

// fraction is a fused score, num/den, kept exact: two sums of 1/(K+r) that are equal compare
// equal, whatever a float would round them to.
type fraction struct{ num, den int64 }

// add is f + 1/(K+r).
func (f fraction) add(r int) fraction {
	d := int64(K + r)
	if f.den == 0 {
		return fraction{1, d}
	}
	return fraction{f.num*d + f.den, f.den * d}
}

// cmp is -1, 0 or 1 as f is below, equal to or above g (both positive).
func (f fraction) cmp(g fraction) int {
	a, b := f.num*g.den, g.num*f.den
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// viewed is the indices of the passages the view allows under path ("" is everything): the one
// view search and grep both go over. A path where a listing is refused is refused with the
// listing's error.
func viewed(v *fsaccess.View, ps []Passage, path string) ([]int, error) {
	root := "/"
	if path != "" {
		root = v.Resolve(path)
		if _, err := v.List(root); err != nil {
			return nil, err
		}
	}
	var kept []int
	for i, p := range ps {
		if fsaccess.Within(root, p.Path) && v.Visible(p.Path) {
			kept = append(kept, i)
		}
	}
	return kept, nil
}
