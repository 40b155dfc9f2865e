package conformance

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Diff's canonical comparison says "same" exactly where go-cmp on the decoded values does, and a
// difference is go-cmp's report as before.
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
		if errW == nil && errG == nil && d != cmp.Diff(vw, vg) {
			t.Errorf("Diff(%s, %s) = %q, not go-cmp's report", c.want, c.got, d)
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
