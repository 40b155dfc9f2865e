package conformance

import (
	"encoding/json"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/textdiff"
	"github.com/google/go-cmp/cmp"
)

// Diff's canonical comparison says "same" exactly where go-cmp on the decoded values does, and a
// difference is textdiff.Values' report of them.
func TestDiffIsGoCmpsVerdict(t *testing.T) {
	for _, c := range []struct{ want, got string }{
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`},
		{`{"a": 1.0}`, `{"a":1}`},
		{`{"a": 1e2}`, `{"a":100}`},
		{`-0`, `0`},
		{`"\u00e9\/"`, `"é/"`},
		{`{"a":1,"a":2}`, `{"a":2}`},
		{`[1, 2]`, `[2, 1]`},
		{`{"a":null}`, `{}`},
		{`"a"`, `"a "`},
		{`1 2`, `1`},
		{`1 2`, `1 2`},
		{`1e400`, `1e400`},
		{`{`, `{`},
		{`[]`, `null`},
	} {
		vw, errW := Value([]byte(c.want))
		vg, errG := Value([]byte(c.got))
		same := errW == nil && errG == nil && cmp.Equal(vw, vg)
		d := Diff([]byte(c.want), []byte(c.got))
		if (d == "") != same {
			t.Errorf("Diff(%s, %s) = %q; go-cmp says same: %v", c.want, c.got, d, same)
		}
		if errW == nil && errG == nil && d != textdiff.Values(vw, vg) {
			t.Errorf("Diff(%s, %s) = %q, not textdiff.Values' report", c.want, c.got, d)
		}
	}
}

// A passing case costs a canonical comparison, not go-cmp's report: the baseline is what Diff
// cost before (both decoded, then cmp.Diff).
func BenchmarkDiffSame(b *testing.B) {
	cases := Embedded()
	answers := make([][]byte, len(cases)) // as a target writes them: compact, in its own key order
	for i, c := range cases {
		v, err := Value(c.Expect)
		if err != nil {
			b.Fatal(err)
		}
		answers[i], _ = json.Marshal(v)
	}
	b.Run("canonical", func(b *testing.B) {
		for b.Loop() {
			for i, c := range cases {
				if Diff(c.Expect, answers[i]) != "" {
					b.Fatal(c.ID)
				}
			}
		}
	})
	b.Run("go-cmp", func(b *testing.B) {
		for b.Loop() {
			for i, c := range cases {
				vw, _ := Value(c.Expect)
				vg, _ := Value(answers[i])
				_ = cmp.Diff(vw, vg)
			}
		}
	})
}

// An embedded expectation knows the builtin's answer bytes: those are the same at once, and any
// other answer is still compared, so a wrong one is never taken for the known one.
func TestDiffKnownAnswer(t *testing.T) {
	known := 0
	for _, e := range embeddedCases {
		if e.answer == "" {
			continue
		}
		known++
		if d := Diff([]byte(e.expect), []byte(e.answer)); d != "" {
			t.Errorf("%s: the known answer differs: %s", e.id, d)
		}
		if _, k, _ := canonicalWant([]byte(e.expect)); k == "" {
			t.Errorf("%s: Diff does not know the answer the table holds", e.id)
		}
		if Diff([]byte(e.expect), []byte(`{"not":"it"}`)) == "" {
			t.Errorf("%s: a wrong answer passed", e.id)
		}
	}
	if known < len(embeddedCases)*9/10 {
		t.Errorf("%d of %d embedded cases know their answer, want nearly all", known, len(embeddedCases))
	}
}

// The builtin's own answer to an embedded case is known: no canonical form is made of it. The
// baseline (canonical) is the same answers re-spaced, which Diff must canonicalise.
func BenchmarkDiffKnown(b *testing.B) {
	var spaced [][]byte
	for _, e := range embeddedCases {
		spaced = append(spaced, append([]byte(" "), e.answer...))
	}
	b.Run("known", func(b *testing.B) {
		for b.Loop() {
			for _, e := range embeddedCases {
				if Diff([]byte(e.expect), []byte(e.answer)) != "" {
					b.Fatal(e.id)
				}
			}
		}
	})
	b.Run("canonical", func(b *testing.B) {
		for b.Loop() {
			for i, e := range embeddedCases {
				if Diff([]byte(e.expect), spaced[i]) != "" {
					b.Fatal(e.id)
				}
			}
		}
	})
}
