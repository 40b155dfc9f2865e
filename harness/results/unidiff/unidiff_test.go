package unidiff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	for in, want := range map[string][]string{
		"":           nil,
		"a":          {"a"},
		"a\n":        {"a\n"},
		"a\nb":       {"a\n", "b"},
		"\n\n":       {"\n", "\n"},
		"a\r\nb\r\n": {"a\r\n", "b\r\n"},
	} {
		if got := Lines(in); fmt.Sprint(got) != fmt.Sprint(want) || len(got) != len(want) {
			t.Errorf("Lines(%q) = %q, want %q", in, got, want)
		}
	}
}

func numbered(n int, change map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if c, ok := change[i]; ok {
			b.WriteString(c)
			continue
		}
		fmt.Fprintf(&b, "l%d\n", i)
	}
	return b.String()
}

func TestUnified(t *testing.T) {
	for _, c := range []struct {
		name, before, after, want string
	}{
		{"the spec's case", "x = 1\ny = 2\nz = 3\n", "x = 1\ny = 20\nz = 3\n", "@@ -1,3 +1,3 @@\n x = 1\n-y = 2\n+y = 20\n z = 3"},
		{"no change", "a\nb\n", "a\nb\n", ""},
		{"one-line ranges are the line number alone", "x\n", "y\n", "@@ -1 +1 @@\n-x\n+y"},
		{"insertion at the start", "a\nb\nc\nd\ne\n", "z\na\nb\nc\nd\ne\n", "@@ -1,3 +1,4 @@\n+z\n a\n b\n c"},
		{"insertion at the end", "a\nb\nc\nd\ne\n", "a\nb\nc\nd\ne\nf\n", "@@ -3,3 +3,4 @@\n c\n d\n e\n+f"},
		{"into an empty file: the empty range starts at line 0", "", "a\nb\n", "@@ -0,0 +1,2 @@\n+a\n+b"},
		{"everything deleted", "a\nb\n", "", "@@ -1,2 +0,0 @@\n-a\n-b"},
		{"a deletion in the middle: its empty new range starts at the line before", "a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\ne\nf\ng\n", "@@ -1,7 +1,6 @@\n a\n b\n c\n-d\n e\n f\n g"},
		{"a line break added at the end", "a\nb", "a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n" + NoNewline + "\n+b"},
		{"a line break taken away", "a\nb\n", "a\nb", "@@ -1,2 +1,2 @@\n a\n-b\n+b\n" + NoNewline},
		{"an unchanged last line without a break is context with the marker", "a\nb\nc", "A\nb\nc", "@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n" + NoNewline},
		{"the last line deleted from a file without a break", "a\nb\nc\nd\ne", "a\nb\nc\nd\n", "@@ -2,4 +2,3 @@\n b\n c\n d\n-e\n" + NoNewline},
		{"CRLF: a \\r is part of its line", "a\r\nb\r\n", "a\r\nc\r\n", "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r"},
		{"a replaced block: its deletions before its insertions", "a\nb\nc\n", "x\ny\n", "@@ -1,3 +1,2 @@\n-a\n-b\n-c\n+x\n+y"},
	} {
		if got := Unified(c.before, c.after, 3); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
		if got, err := apply(c.before, Unified(c.before, c.after, 3)); err != nil || got != c.after {
			t.Errorf("%s: applying the diff gives %q, %v", c.name, got, err)
		}
	}
}

// Hunks take three lines of context each side; two changes with at most six unchanged lines between
// them share a hunk, with seven they are two.
func TestSeveralHunks(t *testing.T) {
	before := numbered(20, nil)
	after := numbered(20, map[int]string{2: "L2\n", 18: "L18\n"})
	want := "@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n@@ -15,6 +15,6 @@\n l15\n l16\n l17\n-l18\n+L18\n l19\n l20"
	if got := Unified(before, after, 3); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	merged := Unified(before, numbered(20, map[int]string{2: "L2\n", 9: "L9\n"}), 3)
	if want := "@@ -1,12 +1,12 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n l6\n l7\n l8\n-l9\n+L9\n l10\n l11\n l12"; merged != want {
		t.Errorf("changes 6 lines apart:\ngot  %q\nwant %q", merged, want)
	}
	split := Unified(before, numbered(20, map[int]string{2: "L2\n", 10: "L10\n"}), 3)
	if want := "@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13"; split != want {
		t.Errorf("changes 7 lines apart:\ngot  %q\nwant %q", split, want)
	}
}

func TestContextZeroAndOne(t *testing.T) {
	before, after := numbered(9, nil), numbered(9, map[int]string{5: "five\n"})
	if got, want := Unified(before, after, 0), "@@ -5 +5 @@\n-l5\n+five"; got != want {
		t.Errorf("context 0: %q, want %q", got, want)
	}
	if got, want := Unified(before, after, 1), "@@ -4,3 +4,3 @@\n l4\n-l5\n+five\n l6"; got != want {
		t.Errorf("context 1: %q, want %q", got, want)
	}
}

// The diff is minimal: as many lines changed as the longest common subsequence leaves.
func TestDiffIsMinimal(t *testing.T) {
	for _, c := range [][2]string{
		{"abcabba", "cbabac"}, {"abcdef", "fedcba"}, {"aaaa", "aa"}, {"", "abc"}, {"ab", "ba"},
		{"the quick brown fox", "a quick brown dog jumps"}, {"xaxbxcx", "axbxcxa"},
	} {
		a, b := strings.Split(c[0], ""), strings.Split(c[1], "")
		if c[0] == "" {
			a = nil
		}
		del, ins := Diff(a, b)
		if got, want := count(del)+count(ins), len(a)+len(b)-2*lcs(a, b); got != want {
			t.Errorf("%q → %q: %d lines changed, the minimum is %d", c[0], c[1], got, want)
		}
	}
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// lcs is the textbook dynamic programme, to check Diff against.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// apply applies a diff Unified wrote to before, checking every context and deleted line.
func apply(before, diff string) (string, error) {
	a := Lines(before)
	var out []string
	next := 0 // the next line of a not yet copied
	if diff == "" {
		return before, nil
	}
	lines := strings.Split(diff, "\n")
	for k := 0; k < len(lines); {
		m := hunkHeader.FindStringSubmatch(lines[k])
		if m == nil {
			return "", fmt.Errorf("line %d: %q is not a hunk header", k, lines[k])
		}
		num := func(s string, def int) int {
			if s == "" {
				return def
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		oldStart, oldN, newN := num(m[1], 0), num(m[2], 1), num(m[4], 1)
		from := oldStart - 1
		if oldN == 0 {
			from = oldStart
		}
		if from < next || from > len(a) {
			return "", fmt.Errorf("hunk %q starts at line %d, already past %d", lines[k], from+1, next)
		}
		out = append(out, a[next:from]...)
		next = from
		k++
		gotOld, gotNew := 0, 0
		for k < len(lines) && !strings.HasPrefix(lines[k], "@@ ") {
			l := lines[k]
			k++
			text := l[1:] + "\n"
			if k < len(lines) && lines[k] == NoNewline {
				text = l[1:]
				k++
			}
			switch l[0] {
			case ' ', '-':
				if next >= len(a) || a[next] != text {
					return "", fmt.Errorf("line %q does not match line %d of before", l, next+1)
				}
				next++
				gotOld++
				if l[0] == ' ' {
					out = append(out, text)
					gotNew++
				}
			case '+':
				out = append(out, text)
				gotNew++
			default:
				return "", fmt.Errorf("line %q has no mark", l)
			}
		}
		if gotOld != oldN || gotNew != newN {
			return "", fmt.Errorf("hunk says %d/%d lines, has %d/%d", oldN, newN, gotOld, gotNew)
		}
	}
	out = append(out, a[next:]...)
	return strings.Join(out, ""), nil
}

// FuzzDiff: applying the hunks to before gives after, every hunk has at most 3 context lines at
// either end, and the diff is minimal.
func FuzzDiff(f *testing.F) {
	f.Add("x = 1\ny = 2\nz = 3\n", "x = 1\ny = 20\nz = 3\n")
	f.Add("a\nb", "a\nb\n")
	f.Add("", "a\n")
	f.Add("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n", "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk")
	f.Add("a\r\nb\r\n", "b\r\na\r\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		if len(before) > 4000 || len(after) > 4000 {
			return
		}
		diff := Unified(before, after, 3)
		if (diff == "") != (before == after) {
			t.Fatalf("diff %q for before %q after %q", diff, before, after)
		}
		got, err := apply(before, diff)
		if err != nil {
			t.Fatalf("%v\nbefore %q\nafter  %q\ndiff\n%s", err, before, after, diff)
		}
		if got != after {
			t.Fatalf("applying gives %q, want %q\ndiff\n%s", got, after, diff)
		}
		a, b := Lines(before), Lines(after)
		del, ins := Diff(a, b)
		if got, want := count(del)+count(ins), len(a)+len(b)-2*lcs(a, b); got != want {
			t.Fatalf("%d lines changed, the minimum is %d", got, want)
		}
		for _, h := range Hunks(before, after, 3) {
			lead, trail := 0, 0
			for _, l := range h.Lines {
				if l[0] != ' ' {
					break
				}
				lead++
			}
			for i := len(h.Lines) - 1; i >= 0 && (h.Lines[i][0] == ' ' || h.Lines[i] == NoNewline); i-- {
				if h.Lines[i][0] == ' ' {
					trail++
				}
			}
			if lead > 3 || trail > 3 || lead == len(h.Lines) {
				t.Fatalf("hunk %q: %d leading, %d trailing context lines", h.Header(), lead, trail)
			}
		}
	})
}

func fiveThousand(changeEvery int, seed string) string {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		if changeEvery > 0 && i%changeEvery == 0 {
			fmt.Fprintf(&b, "%s changed line %d\n", seed, i)
			continue
		}
		fmt.Fprintf(&b, "\tfunc line%d() { return %d }\n", i, i*7)
	}
	return b.String()
}

// BenchmarkDiff5000 diffs two 5,000-line files that differ in every 50th line (100 hunks).
func BenchmarkDiff5000(b *testing.B) {
	before, after := fiveThousand(0, ""), fiveThousand(50, "x")
	b.SetBytes(int64(len(before) + len(after)))
	for b.Loop() {
		if Unified(before, after, 3) == "" {
			b.Fatal("no diff")
		}
	}
}

// BenchmarkDiff5000Reordered is the hard case: the second half of the file moved to the front.
func BenchmarkDiff5000Reordered(b *testing.B) {
	before := fiveThousand(0, "")
	lines := Lines(before)
	after := strings.Join(append(append([]string{}, lines[2500:]...), lines[:2500]...), "")
	for b.Loop() {
		if Unified(before, after, 3) == "" {
			b.Fatal("no diff")
		}
	}
}
