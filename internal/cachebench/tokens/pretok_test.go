package tokens

import (
	"slices"
	"testing"
	"time"

	"github.com/dlclark/regexp2"
)

// oracle is the pattern as tiktoken-go runs it, through regexp2: the splits the hand-written
// pre-tokenizer must make.
func oracle(t testing.TB) func(string) []string {
	re, err := regexp2.Compile(o200kPattern, regexp2.None)
	if err != nil {
		t.Fatal(err)
	}
	return func(text string) []string {
		var out []string
		m, _ := re.FindStringMatch(text)
		for m != nil {
			out = append(out, m.String())
			m, _ = re.FindNextMatch(m)
		}
		return out
	}
}

func splits(text string) []string {
	var out []string
	split(text, func(p string) { out = append(out, p) })
	return out
}

// The hand-written pre-tokenizer splits every text where the pattern does.
func TestSplitMatchesRegexp2(t *testing.T) {
	want := oracle(t)
	extra := []string{"HELLO world", "ǅungla", "ʰʰA", "Aʰ", "x\u0301\u0301", "\u0301", "a\u0301B", "ABCdef'S",
		"it'LL", "it'Re", "'s", "x'", "DON'T", "١٢٣٤", "Ⅻ½", " \u00a0x", "\u2028\n \u3000", "a  \n  b  ", "  ",
		" !!/\n\r//x", " 'quoted'", "\x00\x1f\x7f", "K'ſ", "\ufeffa", "x\r\n\r\n  \ty"}
	for _, s := range append(texts(t), extra...) {
		if got, want := splits(s), want(s); !slices.Equal(got, want) {
			t.Errorf("%.60q:\n got %q\nwant %q", s, got, want)
		}
	}
}

// FuzzSplit: any text, regexp2 the oracle.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"Hello, world!", "I'M  \n\n x", "ǅʰ\u0301Ab12345", "\xff ☕ 東京"} {
		f.Add(s)
	}
	want := oracle(f)
	f.Fuzz(func(t *testing.T, s string) {
		if got, w := splits(s), want(s); !slices.Equal(got, w) {
			t.Errorf("%q:\n got %q\nwant %q", s, got, w)
		}
	})
}

// splitRatio is how many times the hand-written pre-tokenizer must outrun regexp2 running the
// pattern, in CPU time: about 20× measured (2026-12-01, loaded); a third of that leaves room for a
// loaded machine and still fails on a return to a backtracking engine.
const splitRatio = 5

// The hand-written pre-tokenizer is the cheap one: split of the repo's docs against regexp2's
// matches of the same texts, CPU time, best of three.
func TestSplitIsFasterThanRegexp2(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("times the pre-tokenizers (skipped under -short and -race)")
	}
	all := texts(t)
	want := oracle(t)
	best := func(f func(string)) time.Duration {
		lo := time.Duration(1 << 62)
		for range 3 {
			c := cpuTime()
			for _, s := range all {
				f(s)
			}
			lo = min(lo, cpuTime()-c)
		}
		return lo
	}
	hand := best(func(s string) { splits(s) })
	re := best(func(s string) { want(s) })
	if hand == 0 {
		t.Skip("no CPU time to compare on this OS (getrusage)")
	}
	t.Logf("split %v, regexp2 %v of CPU: %.1f×", hand, re, float64(re)/float64(hand))
	if re < splitRatio*hand {
		t.Errorf("split took %v of CPU, regexp2 %v: %.1f×, under %d×", hand, re, float64(re)/float64(hand), splitRatio)
	}
}
