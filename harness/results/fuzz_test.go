package results

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// FuzzParseID: an id ParseID accepts is exactly what FormatID writes for its number.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"#0001", "#000a", "#10000", "#00001", "#A001", "#", "#ffffffffffffffff", "#0x1", "#-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseID(s)
		if !ok {
			return
		}
		if FormatID(n) != s {
			t.Fatalf("ParseID(%q) = %d, which FormatID writes %q", s, n, FormatID(n))
		}
	})
}

var elidedLine = regexp.MustCompile(`^\[(\d+) lines elided, full output #0001\]$`)

// FuzzCap: a capped text is whole, or its head (whole lines from the start, or the first line cut),
// the elided line and its tail (whole lines from the end), which with the elided count make up
// the text; head and tail keep their limits.
func FuzzCap(f *testing.F) {
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10", 6, 40000, 2, 20000, 2, 10000)
	f.Add(strings.Repeat("x", 100), 400, 50, 200, 20, 100, 10)
	f.Add("first line\n"+strings.Repeat("y", 60)+"\nlast\n", 400, 50, 200, 20, 100, 10)
	f.Add("é\r\n\n\nb", 1, 1, 1, 1, 1, 1)
	f.Fuzz(func(t *testing.T, text string, maxLines, maxChars, headLines, headChars, tailLines, tailChars int) {
		c := spec.Cap{MaxLines: maxLines, MaxChars: maxChars, HeadLines: headLines, HeadChars: headChars, TailLines: tailLines, TailChars: tailChars}
		for _, v := range []int{maxLines, maxChars, headLines, headChars, tailLines, tailChars} {
			if v < 1 || v > 1000 {
				return
			}
		}
		got := Cap(text, c, "#0001")
		if got == text {
			return
		}
		lines, _ := splitLines(text)
		out := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		at := -1
		for i, l := range out {
			if elidedLine.MatchString(l) {
				at = i
				break
			}
		}
		if at < 0 {
			t.Fatalf("capped without an elided line: %q", got)
		}
		n, _ := strconv.Atoi(elidedLine.FindStringSubmatch(out[at])[1])
		head, tail := out[:at], out[at+1:]
		cut := len(head) == 1 && strings.HasSuffix(head[0], spec.Text("context.cut")) && chars(lines[0]) > headChars
		if cut {
			if !strings.HasPrefix(lines[0], strings.TrimSuffix(head[0], spec.Text("context.cut"))) {
				t.Fatalf("cut head %q is not the start of %q", head[0], lines[0])
			}
		} else {
			for i, l := range head {
				if l != lines[i] {
					t.Fatalf("head line %d %q, text has %q", i, l, lines[i])
				}
			}
			if len(head) > headLines || chars(strings.Join(head, "\n")) > headChars {
				t.Fatalf("head %q over %d lines / %d chars", head, headLines, headChars)
			}
		}
		for i, l := range tail {
			if l != lines[len(lines)-len(tail)+i] {
				t.Fatalf("tail line %d %q is not the text's", i, l)
			}
		}
		if len(tail) > tailLines || chars(strings.Join(tail, "\n")) > tailChars {
			t.Fatalf("tail %q over %d lines / %d chars", tail, tailLines, tailChars)
		}
		if len(head)+n+len(tail) != len(lines) || (n == 0 && !cut) {
			t.Fatalf("%d head + %d elided + %d tail lines of %d (cut %v): %q", len(head), n, len(tail), len(lines), cut, got)
		}
	})
}
