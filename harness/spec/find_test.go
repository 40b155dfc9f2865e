package spec

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// findRegexp is the regexp Find stands for: each hole `([^c]+)`, c the byte after it.
func findRegexp(pattern string) *regexp.Regexp {
	lits := strings.Split(pattern, "{}")
	var b strings.Builder
	for i, l := range lits {
		if i > 0 {
			b.WriteString("([^" + regexp.QuoteMeta(l[:1]) + "]+)")
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
		for _, l := range strings.Split(pattern, "{}") {
			if l == "" || l[0] >= 0x80 || !utf8.ValidString(pattern) {
				return
			}
		}
		checkFind(t, text, pattern)
	})
}

func checkFind(t *testing.T, text, pattern string) {
	t.Helper()
	got, ok := Find(text, pattern)
	m := findRegexp(pattern).FindStringSubmatch(text)
	var want []string
	if m != nil {
		want = m[1:]
	}
	if ok != (m != nil) || ok && !reflect.DeepEqual(got, want) {
		t.Errorf("Find(%q, %q) = %q, %v; its regexp finds %q", text, pattern, got, ok, want)
	}
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
