package table

import (
	"strings"
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 16912: "16,912", 40270469: "40,270,469", -1000: "-1,000", -999: "-999", -123456: "-123,456"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestNewAlignsLabelsLeftAndNumbersRight(t *testing.T) {
	var b strings.Builder
	tb := New(&b, 1)
	tb.Header("Area", "Cases")
	tb.Append("jobs", 10)
	tb.Append("fs_access", 7)
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, " Area ") || strings.Contains(out, "AREA") {
		t.Fatalf("header rewritten:\n%s", out)
	}
	if !strings.Contains(out, "│ jobs      │    10 │") || !strings.Contains(out, "│ fs_access │     7 │") {
		t.Fatalf("want labels left, numbers right:\n%s", out)
	}
}

// An answer reads as text: a string's newlines as lines, not "\n" escapes (issue 16).
func TestText(t *testing.T) {
	got := Text([]byte(`{"text":"line one\nline two\n","ids":["a","-e"],"n":3,"empty":"","obj":{},"k":"true","s":" x"}`))
	want := "text: |\n  line one\n  line two\nids:\n  - a\n  - -e\nn: 3\nempty: \"\"\nobj: {}\nk: \"true\"\ns: \" x\""
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := Text([]byte(`"a\nb"`)); got != "|-\n  a\n  b∎" {
		t.Errorf("%q", got)
	}
	if got := Text([]byte(`not json`)); got != "not json" {
		t.Errorf("%q", got)
	}
}

// A small share that is not nothing is not "0.0 %" (issue 16: 18,320 lost tokens read 0.0 %).
func TestPercent(t *testing.T) {
	for f, want := range map[float64]string{0: "0.0 %", 18320.0 / 39829757: "<0.1 %", 0.0005: "0.1 %", 0.979: "97.9 %", 0.9999: ">99.9 %", 1: "100.0 %"} {
		if got := Percent(f); got != want {
			t.Errorf("Percent(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		v    float64
		p    int
		want string
	}{{212885.4, 1, "212,885.4"}, {6.7, 1, "6.7"}, {1000, 0, "1,000"}, {-1234.56, 2, "-1,234.56"}, {-0.04, 1, "-0.0"}} {
		if got := Decimal(c.v, c.p); got != c.want {
			t.Errorf("Decimal(%v, %d) = %q, want %q", c.v, c.p, got, c.want)
		}
	}
}

// A case's or a run's time as reports show it: milliseconds, one decimal.
func TestMillis(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0.0ms", 1234 * time.Microsecond: "1.2ms", 3 * time.Second: "3000.0ms", 999: "0.0ms"} {
		if got := Millis(d); got != want {
			t.Errorf("Millis(%v) = %q, want %q", d, got, want)
		}
	}
}

// Cut is the one shortening of a text for a cell or a line that replay's table note, the bench's
// note cell and the audit chart's break path each wrote (at most n characters, an ellipsis
// last), and replay's error quotes now use too (they cut at a byte, inside a character).
func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 60, "short"},
		{"exactly", 7, "exactly"},
		{"one more", 7, "one mo…"},
		{"été à Paris", 5, "été …"},
		{"日本語のテキスト", 4, "日本語…"},
		{"", 3, ""},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// A table wider than its width has its widest column wrapped; one that cannot fit even so is
// one block per row; none passes the width (issue 27).
func TestTableFitsItsWidth(t *testing.T) {
	var b strings.Builder
	tb := NewWidth(&b, 1, 40)
	tb.Header("Name", "Count", "Note")
	tb.Append("a", 1, "a long note that needs more room than the table has")
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	if n := widest(b.String()); n > 40 || !strings.Contains(b.String(), "room") {
		t.Errorf("%d columns:\n%s", n, b.String())
	}
	b.Reset()
	tb = NewWidth(&b, 1, 20)
	tb.Header("N", "first column", "second column", "third column")
	tb.Append(1, "alpha", "beta", "gamma")
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	if want := "N 1\n  first column: alpha\n  second column: beta\n  third column: gamma\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
