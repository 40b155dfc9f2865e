package spec

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// holeRe is a hole of a FindAll pattern, found apart from the matcher's own reading.
var holeRe = regexp.MustCompile(`\{[tnw]?\}`)

// findRegexp is the regexp FindAll stands for, or nil where the pattern is one FindAll refuses:
// `{}` is `([^c]+)`, c the byte after it; the typed holes their classes.
func findRegexp(pattern string) *regexp.Regexp {
	holes := holeRe.FindAllString(pattern, -1)
	lits := holeRe.Split(pattern, -1)
	var b strings.Builder
	for i, l := range lits {
		if l == "" || i > 0 && l[0] >= 0x80 {
			return nil
		}
		if i > 0 {
			class := map[string]string{"{t}": "[^`]", "{n}": `\d`, "{w}": `\w`}[holes[i-1]]
			if class == "" {
				class = "[^" + regexp.QuoteMeta(l[:1]) + "]"
			} else if regexp.MustCompile(class).MatchString(l[:1]) {
				return nil
			}
			b.WriteString("(" + class + "+)")
		}
		b.WriteString(regexp.QuoteMeta(l))
	}
	return regexp.MustCompile(b.String())
}

var findCases = []struct{ text, pattern string }{
	{"pieces under 50 characters dropped", "pieces under {} characters dropped"},
	{"a (raised to 64 when smaller) b (raised to 9 when smaller)", "(raised to {} when smaller)"},
	{"`list` with a `depth` (default 2, at most 5)", "`list` with a `depth` (default {}, at most {})"},
	{"is `` from `read`, `x` from `list`", "is `{}` from `read`, `{}` from `list`"},
	{"at most 3 lines at most 12 lines", "at most {} lines"},
	{"marked `a`b` marked `c`", "marked `{}`"},
	{"nothing here", "marked `{}`"},
	{"marked ``", "marked `{}`"},
	{"a `list` (default 2, at most 10) and (default 3, at most x)", "(default {n}, at most {n})"},
	{"marked `/` and marked `x` then marked ``", "marked `{t}`"},
	{"by two more spaces, by 3 more spaces, by  more", "by {w} more"},
	{"{x} at {1} and {y} at {2}", "{{w}} at {{n}}"},
	{"x1y2 x3y4", "x{n}y{n}"},
	{"a 15", "a {n}5"},
	{"a b", "{}b"},
	{"a b", "a {}"},
	{"a `x`", "a `{t}x"},
	{"a1", "a{n}{w}"},
}

func TestFindIsItsRegexp(t *testing.T) {
	for _, c := range findCases {
		checkFind(t, c.text, c.pattern)
	}
}

func FuzzFindIsItsRegexp(f *testing.F) {
	for _, c := range findCases {
		f.Add(c.text, c.pattern)
	}
	f.Fuzz(func(t *testing.T, text, pattern string) {
		if !utf8.ValidString(pattern) {
			return
		}
		checkFind(t, text, pattern)
	})
}

// checkFind compares Find and FindAll with the regexp they stand for, and checks that a pattern
// with no such regexp panics.
func checkFind(t *testing.T, text, pattern string) {
	t.Helper()
	re := findRegexp(pattern)
	if re == nil {
		if !panics(func() { FindAll(text, pattern) }) || !panics(func() { Find(text, pattern) }) {
			t.Errorf("FindAll or Find of %q does not panic", pattern)
		}
		return
	}
	got, ok := Find(text, pattern)
	m := re.FindStringSubmatch(text)
	var want []string
	if m != nil {
		want = m[1:]
	}
	if ok != (m != nil) || ok && !reflect.DeepEqual(got, want) {
		t.Errorf("Find(%q, %q) = %q, %v; its regexp finds %q", text, pattern, got, ok, want)
	}
	var wantAll [][]string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		wantAll = append(wantAll, m[1:])
	}
	if all := FindAll(text, pattern); !reflect.DeepEqual(all, wantAll) {
		t.Errorf("FindAll(%q, %q) = %q; its regexp finds %q", text, pattern, all, wantAll)
	}
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

func TestBacktickedIsItsRegexp(t *testing.T) {
	re := regexp.MustCompile("`([^`]+)`")
	for _, s := range []string{"", "a `b` c `d`", "``a`", "`a``b`", "`open", "x ``` y `z`"} {
		var want []string
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			want = append(want, m[1])
		}
		if got := Backticked(s); !reflect.DeepEqual(got, want) {
			t.Errorf("Backticked(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestFindNumber(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int
		ok   bool
	}{{"under 50 chars", 50, true}, {"under x chars", 0, false}, {"under +5 chars", 0, false}, {"none", 0, false}} {
		if n, ok := FindNumber(c.text, "under {} chars"); n != c.n || ok != c.ok {
			t.Errorf("FindNumber(%q) = %d, %v; want %d, %v", c.text, n, ok, c.n, c.ok)
		}
	}
}
