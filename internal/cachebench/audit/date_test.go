package audit

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// firstDate finds what dateRE finds, where it finds it: on the dates harnesses write, the near
// misses around them, and random mixtures of both.
func TestFirstDateIsDateRE(t *testing.T) {
	bits := []string{"2026-11-30", "2026-11-30T10:21:00Z", "Mon Nov 30 2026", "monday, November 30th, 2026",
		"Tue, 1 Dec", "Thurs Sept 3", "11/30/2026", "1/2/26", "12026-11-30", "x2026-11-30", "_11/30/2026",
		"Sat", "Sunday", "SUN DEC 1", "sunday  dec. 1st", "tueſday nov 3", "ſun nov 3", "2026-1-30", "10:21",
		"2026-11", "11/30", "wed\ndecember\n9", "fri jan 99", "Mo", "Th", "\u00e9Mon Nov 3", "9999-99-99",
		" ", "\n", ", ", "\"", "\\n", "é", "word", "_", "7", "-", "/", "Wednesday,\tMarch 4, 2027"}
	rng := rand.New(rand.NewPCG(1, 2))
	var cases []string
	for _, b := range bits {
		cases = append(cases, b, "a "+b+" z", b+b)
	}
	for range 5000 {
		var sb strings.Builder
		for range 1 + rng.IntN(8) {
			sb.WriteString(bits[rng.IntN(len(bits))])
		}
		cases = append(cases, sb.String())
	}
	for _, c := range cases {
		want := -1
		if loc := dateRE().FindIndex([]byte(c)); loc != nil {
			want = loc[0]
		}
		if got := firstDate([]byte(c)); got != want {
			t.Errorf("firstDate(%q) = %d, dateRE finds %d", c, got, want)
		}
	}
}

func FuzzFirstDate(f *testing.F) {
	f.Add("Mon Nov 30 2026, 11/30/2026 and 2026-11-30")
	f.Fuzz(func(t *testing.T, s string) {
		want := -1
		if loc := dateRE().FindIndex([]byte(s)); loc != nil {
			want = loc[0]
		}
		if got := firstDate([]byte(s)); got != want {
			t.Errorf("firstDate(%q) = %d, dateRE finds %d", s, got, want)
		}
	})
}
