package term

import (
	"strings"
	"testing"
)

// Words wraps at spaces within the width, the later lines indented, a word too long alone.
func TestWordsWrapsAtSpaces(t *testing.T) {
	got := Words("date-in-system:3: 62.2 % → 50.5 % cached, −267 cached tokens", 24, "  ")
	want := "date-in-system:3: 62.2 %\n  → 50.5 % cached, −267\n  cached tokens"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if DisplayWidth(l) > 24 {
			t.Errorf("%d columns: %q", DisplayWidth(l), l)
		}
	}
	if got := Words("  abcdefghij xy", 4, " "); got != "  abcdefghij\n xy" {
		t.Errorf("a long word: %q", got)
	}
}
