package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

func TestTextsAreTheSpecs(t *testing.T) {
	tx := SpecTexts()
	if tx.Result != "{{path}}:{{start}}-{{end}}\n{{passage}}" {
		t.Errorf("Result = %q", tx.Result)
	}
	if tx.DefaultLimit != 10 || tx.MinLimit != 1 || tx.MaxLimit != 50 {
		t.Errorf("limits %d (%d..%d), want 10 (1..50) as tools/search.json says", tx.DefaultLimit, tx.MinLimit, tx.MaxLimit)
	}
	md, _ := spec.ReadFile("filesystem.md")
	if got := Result(Passage{Path: "/Notes/setup.md", Start: 12, End: 30, Text: "<the passage>"}); !strings.Contains(string(md), "```\n"+got+"\n```") {
		t.Errorf("the example result %q is not filesystem.md's block", got)
	}
}

func TestParseTextsRefusesOtherShapes(t *testing.T) {
	md, _ := spec.ReadFile("filesystem.md")
	tool, _ := spec.ReadFile("tools/search.json")
	for name, c := range map[string]struct{ md, tool string }{
		"no section":        {strings.Replace(string(md), "## A search", "## Searching", 1), string(tool)},
		"head not a range":  {strings.Replace(string(md), "/Notes/setup.md:12-30", "/Notes/setup.md (12 to 30)", 1), string(tool)},
		"three lines":       {strings.Replace(string(md), "<the passage>\n", "<the passage>\nmore\n", 1), string(tool)},
		"no default":        {string(md), strings.Replace(string(tool), "(default 10)", "", 1)},
		"default above max": {string(md), strings.Replace(string(tool), "(default 10)", "(default 99)", 1)},
		"no maximum":        {string(md), strings.Replace(string(tool), `"maximum": 50,`, "", 1)},
		"not JSON":          {string(md), "{"},
	} {
		if _, err := ParseTexts([]byte(c.md), []byte(c.tool)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func f(x float64) *float64 { return &x }

func TestRanksShareTheBetterRankOnATie(t *testing.T) {
	ps := []Passage{{Meaning: f(0.5)}, {Meaning: f(0.9)}, {Meaning: f(0.5)}, {}, {Meaning: f(0.1)}, {Meaning: f(0.5)}}
	got := ranks(ps, []int{0, 1, 2, 3, 4, 5}, func(p Passage) *float64 { return p.Meaning })
	want := map[int]int{1: 1, 0: 2, 2: 2, 5: 2, 4: 5}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ranks = %v, want %v", got, want)
	}
	if got := ranks(ps, []int{4, 0}, func(p Passage) *float64 { return p.Meaning }); fmt.Sprint(got) != "map[0:1 4:2]" {
		t.Errorf("ranks among the kept only: %v", got)
	}
}

func TestFractionsAreExact(t *testing.T) {
	var zero fraction
	a := zero.add(1).add(2) // 1/61 + 1/62
	b := zero.add(2).add(1)
	if a.cmp(b) != 0 {
		t.Error("the same two ranks in either order differ")
	}
	if c := zero.add(2).add(2); a.cmp(c) <= 0 || c.cmp(a) >= 0 {
		t.Errorf("1/61 + 1/62 should be above 2/62: %v %v", a, c)
	}
	if zero.add(1).cmp(zero.add(2).add(1000000)) <= 0 {
		t.Error("1/61 should be above 1/62 + 1/1000060")
	}
	big := zero.add(MaxPassages).add(MaxPassages)
	if big.cmp(zero.add(MaxPassages-1).add(MaxPassages+1)) >= 0 {
		t.Error("at the bound: 2/(K+n) should be below 1/(K+n-1) + 1/(K+n+1)")
	}
}

func view(t testing.TB, tree []string, grants map[string]fsaccess.Level) *fsaccess.View {
	t.Helper()
	v, err := fsaccess.New(fsaccess.Config{Tree: tree, Grants: grants})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSearchRules(t *testing.T) {
	v := view(t, []string{"/a/x.md", "/a/y.md", "/b/z.md", "/h/s.md"}, map[string]fsaccess.Level{"/": fsaccess.RO, "/h": fsaccess.None})
	ps := []Passage{
		{Path: "/a/x.md", Start: 1, End: 2, Text: "x", Meaning: f(0.4)},
		{Path: "/a/y.md", Start: 1, End: 2, Text: "{{path}}", Words: f(1)},
		{Path: "/b/z.md", Start: 3, End: 4, Text: "z", Meaning: f(0.9), Words: f(0.1)},
		{Path: "/h/s.md", Start: 1, End: 1, Text: "s", Meaning: f(1), Words: f(9)},
	}
	got := func(q Query) string {
		r, err := Search(v, ps, q)
		if err != nil {
			return "error: " + err.Error()
		}
		var out []string
		for _, p := range r {
			out = append(out, fmt.Sprintf("%s:%d", p.Path, p.Start))
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		q    Query
		want string
	}{
		{Query{}, "/b/z.md:3 /a/y.md:1 /a/x.md:1"}, // z 1/61 + 1/62, y 1/61 (words), x 1/62 (meaning)
		{Query{Limit: 2}, "/b/z.md:3 /a/y.md:1"},
		{Query{Path: "/a"}, "/a/x.md:1 /a/y.md:1"}, // ranked within /a: x 1/61, y 1/61
		{Query{Path: "a/../b"}, "/b/z.md:3"},
		{Query{Path: "/"}, "/b/z.md:3 /a/y.md:1 /a/x.md:1"},
		{Query{Path: "/h"}, "error: No such file or directory: /h"},
		{Query{Path: "/a/x.md"}, "error: Not a directory: /a/x.md"},
		{Query{Limit: 51}, "error: search: limit 51 is outside 1..50"},
		{Query{Limit: -1}, "error: search: limit -1 is outside 1..50"},
	} {
		if g := got(c.q); g != c.want {
			t.Errorf("Search(%+v) = %q, want %q", c.q, g, c.want)
		}
	}
	if r := Result(ps[1]); r != "/a/y.md:1-2\n{{path}}" {
		t.Errorf("a passage holding braces is written as it is: %q", r)
	}
}

// TestHiddenPassagesChangeNothing is the spec's sentence as a property: on random indexes,
// searching with the hidden passages gives what searching without them gives.
func TestHiddenPassagesChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tree := []string{"/v/a.md", "/v/b.md", "/v/c.md", "/h/d.md", "/h/e.md"}
	v := view(t, tree, map[string]fsaccess.Level{"/v": fsaccess.RO})
	for round := range 500 {
		var all, visible []Passage
		for i := range 2 + rng.IntN(20) {
			p := Passage{Path: tree[rng.IntN(len(tree))], Start: i + 1, End: i + 1}
			if rng.IntN(4) > 0 {
				p.Meaning = f(float64(rng.IntN(10)) / 10)
			}
			if rng.IntN(3) > 0 {
				p.Words = f(float64(rng.IntN(5)))
			}
			all = append(all, p)
			if strings.HasPrefix(p.Path, "/v/") {
				visible = append(visible, p)
			}
		}
		q := Query{Limit: 1 + rng.IntN(5)}
		a, err1 := Search(v, all, q)
		b, err2 := Search(v, visible, q)
		if err1 != nil || err2 != nil || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("round %d: with the hidden %v, without %v (%v %v)", round, a, b, err1, err2)
		}
	}
}

// FuzzSearch drives Search with passages made of the fuzzer's bytes: it never panics, every
// result is visible, none repeats, there are at most limit of them, and dropping the hidden
// passages changes nothing.
func FuzzSearch(f *testing.F) {
	f.Add([]byte{3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(3))
	f.Add([]byte{0, 0, 0, 0, 255, 255, 255}, uint8(0))
	tree := []string{"/v/a.md", "/v/b.md", "/h/c.md", "/v/s/d.md"}
	v := view(f, tree, map[string]fsaccess.Level{"/v": fsaccess.RO, "/v/s": fsaccess.None})
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		var all, visible []Passage
		for i := 0; i+2 < len(data); i += 3 {
			p := Passage{Path: tree[int(data[i])%len(tree)], Start: i + 1, End: i + 1 + int(data[i]>>4)}
			if data[i+1] != 0 {
				p.Meaning = f64(float64(data[i+1] % 7))
			}
			if data[i+2] != 0 {
				p.Words = f64(float64(data[i+2] % 5))
			}
			all = append(all, p)
			if v.Visible(p.Path) {
				visible = append(visible, p)
			}
		}
		q := Query{Limit: int(limit % 51)}
		got, err := Search(v, all, q)
		if err != nil {
			t.Fatal(err)
		}
		want := q.Limit
		if want == 0 {
			want = SpecTexts().DefaultLimit
		}
		if len(got) > want {
			t.Fatalf("%d results, limit %d", len(got), want)
		}
		seen := map[string]bool{}
		for _, p := range got {
			k := Result(p)
			if !v.Visible(p.Path) || seen[k] || (p.Meaning == nil && p.Words == nil) {
				t.Fatalf("result %q: hidden, repeated or unscored", k)
			}
			seen[k] = true
		}
		again, _ := Search(v, visible, q)
		if fmt.Sprint(got) != fmt.Sprint(again) {
			t.Fatalf("the hidden passages changed the results: %v, without them %v", got, again)
		}
	})
}

func f64(x float64) *float64 { return &x }

// BenchmarkSearch is the hot path: 10,000 passages over 1,000 files, a tenth of them hidden,
// ranked by both scores and fused, the default limit kept.
func BenchmarkSearch(b *testing.B) {
	var tree []string
	for i := range 1000 {
		tree = append(tree, fmt.Sprintf("/d%d/f%d.md", i%10, i))
	}
	v := view(b, tree, map[string]fsaccess.Level{"/": fsaccess.RO, "/d3": fsaccess.None})
	rng := rand.New(rand.NewPCG(3, 4))
	ps := make([]Passage, 10000)
	for i := range ps {
		ps[i] = Passage{Path: tree[i%1000], Start: i/1000*20 + 1, End: i/1000*20 + 20, Text: "passage", Meaning: f(rng.Float64())}
		if i%3 == 0 {
			ps[i].Words = f(rng.Float64() * 10)
		}
	}
	for b.Loop() {
		r, err := Search(v, ps, Query{})
		if err != nil || len(r) != 10 {
			b.Fatal(len(r), err)
		}
	}
}
