package recdiff

import (
	"context"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

// Settings are diff-recordings' settings as a person gives them (its flags; docs/audit.md), all
// but how its report is written.
type Settings struct {
	// Tokenizer is a llama.cpp server's URL ("": tiktoken, offline).
	Tokenizer string
	// Prices is --prices' file ("": the built-in table).
	Prices string
}

// Run compares the recordings (or request logs) a and b. Its error — a file that cannot be read,
// damaged at a line, or holding a request no reader can cut into parts — names the file and line:
// the comparison is not made.
func (s Settings) Run(ctx context.Context, a, b string) (*Report, error) {
	table, err := prices.Open(s.Prices)
	if err != nil {
		return nil, err
	}
	tk, err := tokens.New(s.Tokenizer)
	if err != nil {
		return nil, err
	}
	o := audit.Options{Tokenizer: tk, Prices: table}
	sa, ra, err := read(ctx, a, tk, o)
	if err != nil {
		return nil, err
	}
	sb, rb, err := read(ctx, b, tk, o)
	if err != nil {
		return nil, err
	}
	rep := compareSides(ra, rb, tk, table)
	rep.A, rep.B = sa, sb
	return rep, nil
}

// compareSides pairs the two sides' requests and compares each pair.
func compareSides(a, b []*request, tk tokens.Tokenizer, table *prices.Table) *Report {
	c := comparer{}
	c.tik, _ = tk.(*tokens.Tiktoken)
	rep := &Report{Tokenizer: tk.Name()}
	idx, how := pairUp(a, b)
	rep.Pairing = how
	for _, ij := range idx {
		switch {
		case ij[0] < 0:
			rep.Unpaired = append(rep.Unpaired, Unpaired{Side: "b", Ref: b[ij[1]].ref, Why: "no request of a answers " +
				"the same message"})
			continue
		case ij[1] < 0:
			rep.Unpaired = append(rep.Unpaired, Unpaired{Side: "a", Ref: a[ij[0]].ref, Why: "no request of b answers " +
				"the same message"})
			continue
		}
		p := c.compare(a[ij[0]], b[ij[1]])
		p.N = len(rep.Pairs) + 1
		if pr, ok := table.For(b[ij[1]].r.Model); ok && p.LostTokens > 0 {
			v := table.Lost(pr, p.LostTokens)
			p.LostCost = &v
			rep.Currency = table.Currency
		}
		rep.Pairs = append(rep.Pairs, p)
	}
	rep.total()
	return rep
}

// total sums the pairs and groups their differences.
func (r *Report) total() {
	t := &r.Totals
	t.Pairs, t.Unpaired = len(r.Pairs), len(r.Unpaired)
	byKey := map[string]int{}
	for _, p := range r.Pairs {
		switch p.Verdict {
		case Same:
			t.Same++
		case Cosmetic:
			t.Cosmetic++
		case Differs:
			t.Differs++
		case Breaks:
			t.Breaks++
		}
		t.PromptTokens += int64(p.PromptTokens)
		t.SharedTokens += int64(p.SharedTokens)
		t.LostTokens += int64(p.LostTokens)
		if p.LostCost != nil {
			t.LostCost = addCost(t.LostCost, *p.LostCost)
		}
		for _, d := range p.Differences {
			k := d.Kind + "\x00" + d.Path + "\x00" + d.Detail
			i, ok := byKey[k]
			if !ok {
				i = len(r.Changes)
				byKey[k] = i
				r.Changes = append(r.Changes, Change{Kind: d.Kind, Path: d.Path, Detail: d.Detail, Prefix: d.Prefix})
			}
			ch := &r.Changes[i]
			ch.Pairs = append(ch.Pairs, p.N)
			if d.First {
				ch.LostTokens += p.LostTokens
				if p.LostCost != nil {
					ch.LostCost = addCost(ch.LostCost, *p.LostCost)
				}
			}
		}
	}
	if t.PromptTokens > 0 {
		t.SharedShare = float64(t.SharedTokens) / float64(t.PromptTokens)
	}
}

func addCost(sum *float64, v float64) *float64 {
	if sum == nil {
		return &v
	}
	s := *sum + v
	return &s
}
