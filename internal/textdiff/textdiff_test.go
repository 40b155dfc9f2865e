package textdiff

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/table"

	"github.com/google/go-cmp/cmp"
)

// The op is the first column's: an unchanged line whose text starts with "-" is unchanged
// (issue 16: `-e` in context/bf19ebb5 was coloured as removed, the leading spaces trimmed first).
func TestCmpReadsTheFirstColumn(t *testing.T) {
	report := "  []string{\n-\u00a0\t\"a\",\n+ \t\"b\",\n  \t\"-e\",\n  \t\"+x\",\n  }\n"
	got := Cmp(report)
	want := []Line{{Same, "  []string{"}, {Del, "- \t\"a\","}, {Ins, "+ \t\"b\","}, {Same, "  \t\"-e\","}, {Same, "  \t\"+x\","}, {Same, "  }"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
}

// go-cmp's non-breaking spaces do not reach the text a person copies (issue 16); a value's own
// are quoted by go-cmp and stay.
func TestPlainHasNoNonBreakingSpaces(t *testing.T) {
	for _, report := range []string{
		"  map[string]any{\n-\u00a0\t\"text\": string(\"x\"),\n+\u00a0\t\"text\": string(\"y\"),\n \u00a0}\n",
		cmp.Diff(map[string]any{"text": "x\u00a0y"}, map[string]any{"text": "z"}),
	} {
		got := Plain(report)
		if strings.Contains(got, "\u00a0") {
			t.Errorf("%q", got)
		}
		if strings.Count(got, "\n") != strings.Count(report, "\n") {
			t.Errorf("lines lost: %q", got)
		}
	}
	if got := Plain("x\n"); got != "x\n" {
		t.Errorf("%q", got)
	}
}

func TestLines(t *testing.T) {
	a := strings.Split("one two three four five", " ")
	b := strings.Split("one 2 three five six", " ")
	got := Unified(Lines(a, b))
	want := "  one\n- two\n+ 2\n  three\n- four\n  five\n+ six\n"
	if got != want {
		t.Errorf("%q, want %q", got, want)
	}
	rows := SideBySide(Lines(a, b))
	if len(rows) != 6 || rows[1] != (Row{A: "two", B: "2", HasA: true, HasB: true, Op: Changed}) || rows[3] != (Row{A: "four", HasA: true, Op: Del}) || rows[5] != (Row{B: "six", HasB: true, Op: Ins}) {
		t.Errorf("%+v", rows)
	}
	if got := Unified(Lines(nil, []string{"x"})); got != "+ x\n" {
		t.Errorf("%q", got)
	}
}

func FuzzLines(f *testing.F) {
	f.Add("a\nb\nc", "a\nc\nd")
	f.Fuzz(func(t *testing.T, x, y string) {
		a, b := strings.Split(x, "\n"), strings.Split(y, "\n")
		var ra, rb []string
		for _, l := range Lines(a, b) {
			if l.Op != Ins {
				ra = append(ra, l.Text)
			}
			if l.Op != Del {
				rb = append(rb, l.Text)
			}
		}
		if strings.Join(ra, "\n") != x || strings.Join(rb, "\n") != y {
			t.Fatalf("the diff does not give back its two sides")
		}
	})
}

// Ends never counts a shared element twice: the tail is taken from what follows the head.
func TestEnds(t *testing.T) {
	for _, c := range []struct {
		a, b       string
		head, tail int
	}{
		{"", "", 0, 0},
		{"abc", "abc", 3, 0},
		{"aa", "aaa", 2, 0},
		{"xay", "xby", 1, 1},
		{"ab", "ba", 0, 0},
		{"read [x] lines", "read [] lines", 6, 7},
	} {
		head, tail := Ends([]byte(c.a), []byte(c.b))
		if head != c.head || tail != c.tail {
			t.Errorf("Ends(%q, %q) = %d, %d, want %d, %d", c.a, c.b, head, tail, c.head, c.tail)
		}
	}
	if head, tail := Ends([]string{"a", "b", "c"}, []string{"a", "c"}); head != 1 || tail != 1 {
		t.Errorf("lines: %d, %d, want 1, 1", head, tail)
	}
}

// Whitespace a reader cannot see is marked: CR, tab, spaces at a line's end (issue 27).
func TestVisible(t *testing.T) {
	got, marked := VisibleText(" \r\n\t \r\n ")
	if want := "·␍\n→·␍\n·"; got != want || !marked {
		t.Errorf("%q (%v), want %q", got, marked, want)
	}
	// The end of a text without its final newline, as table.Text marks it, with a space before it.
	if table.NoFinalNewline != noFinalNewline {
		t.Fatalf("table marks %q, textdiff knows %q", table.NoFinalNewline, noFinalNewline)
	}
	if got, marked := Visible("  last ∎"); got != "  last·∎" || !marked {
		t.Errorf("%q (%v)", got, marked)
	}
	if got, marked := Visible("plain text"); got != "plain text" || marked {
		t.Errorf("%q (%v)", got, marked)
	}
}

// Values shows the changed lines of the two renderings, marked in the first column as Cmp reads
// them, with their context, and counts the unchanged lines it leaves out.
func TestValues(t *testing.T) {
	long := map[string]any{"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0, "f": 6.0, "g": 7.0, "h": 8.0, "i": 9.0}
	changed := map[string]any{"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0, "f": 6.0, "g": 7.0, "h": 8.0, "i": "<9>"}
	for _, c := range []struct {
		want, got any
		report    string
	}{
		{1.0, 1.0, ""},
		{[]any{}, []any{}, ""},
		{[]any{}, nil, "- []\n+ null\n"},
		{1.0, 1, "- float64(1)\n+ int(1)\n"},
		{long, changed, "  … 6 identical lines\n    \"f\": 6,\n    \"g\": 7,\n    \"h\": 8,\n-   \"i\": 9\n+   \"i\": \"<9>\"\n  }\n"},
		{[]any{1.0, 2.0}, []any{2.0}, "  [\n-   1,\n    2\n  ]\n"},
		{"a\nb 05s.\nc", "a\nb .\nc", "  a\n- b 05s.\n+ b .\n  c\n"},
		{"one line", "one line.", "- \"one line\"\n+ \"one line.\"\n"},
	} {
		got := Values(c.want, c.got)
		if got != c.report {
			t.Errorf("Values(%#v, %#v) =\n%s\nwant\n%s", c.want, c.got, got, c.report)
		}
		for _, l := range Cmp(got) {
			if l.Op != Same && !strings.HasPrefix(l.Text, string(rune(l.Op))+" ") {
				t.Errorf("line %q: its mark is not its first column", l.Text)
			}
		}
	}
}
