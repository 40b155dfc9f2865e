package chunk

import (
	"slices"
	"strings"
	"testing"
)

// spm spells text as a SentencePiece server lists it: a space before the text, each word with
// the space before it.
func spm(text string) [][]byte {
	var out [][]byte
	for _, w := range strings.Split(text, " ") {
		out = append(out, []byte(" "+w))
	}
	return out
}

// A server's tokens that are the words, each with its space, cut as the words tokenizer cuts.
func TestPiecesOfWordsAreTheWordsSplitters(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("tok" + itoa(i))
		if i%7 == 6 {
			b.WriteString(".")
		}
	}
	text := b.String()
	for _, c := range [][2]int{{16, 4}, {20, 0}, {33, 16}, {480, 64}} {
		want, err := Tokens(text, Words, c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		got, err := Pieces(text, spm(text), c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("size %d, overlap %d: %q, want the words splitter's %q", c[0], c[1], got, want)
		}
	}
}

// A character spelled in bytes counts each byte's token, and no window ends inside it: 15 words,
// a space and a 4-token emoji are 20 tokens, so with size 16 (or 19) the first window ends before
// the emoji.
func TestPiecesCountEveryByteToken(t *testing.T) {
	words := strings.Repeat("w ", 15)
	text := words + "😀" + strings.Repeat(" w", 5)
	toks := spm(strings.TrimSuffix(words, " "))
	toks = append(toks, []byte(" "))
	for _, c := range []byte("😀") {
		toks = append(toks, []byte{c})
	}
	toks = append(toks, spm(strings.Repeat("w ", 4)+"w")...)
	m, err := serverTokens(Normalize(text), toks)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.upTo(len(m.ts)); got != 25 || len(m.ts) != 22 {
		t.Fatalf("%d spans holding %d tokens, want 22 holding 25 (the emoji's 4 bytes one span)", len(m.ts), got)
	}
	emoji := len(words)
	for _, size := range []int{16, 19} {
		if end, last := m.window(0, size); last || end != emoji {
			t.Errorf("window(0, %d) = %d, %v; want %d (before the emoji), false", size, end, last, emoji)
		}
	}
	if end, last := m.window(0, 20); last || end != emoji+4 {
		t.Errorf("window(0, 20) = %d, %v; want %d (after the emoji), false", end, last, emoji+4)
	}
	// Overlap 3 after the emoji: its 4 tokens do not fit in 3, so the next piece begins after the
	// character, not inside it; overlap 5 takes it and the space before it.
	if s := m.back(0, emoji+4, 3); s != emoji+4 {
		t.Errorf("back 3 over the emoji = %d, want %d (past it: a character is taken whole)", s, emoji+4)
	}
	if s := m.back(0, emoji+4, 5); s != emoji-1 {
		t.Errorf("back 5 = %d, want %d (the space's token and the emoji's 4)", s, emoji-1)
	}
}

func TestPiecesRefuseTokensThatDoNotSpellTheText(t *testing.T) {
	for _, c := range []struct {
		name, text string
		toks       [][]byte
		want       string
	}{
		{"too few", "a b c", spm("a b"), "spell 4 bytes, not the 5 of the text"},
		{"other bytes", "a b c", spm("a x c"), `token 1 is " x", but the text has " b" there`},
		{"the prefix space on another token", "a b", [][]byte{[]byte("a"), []byte(" b"), []byte(" ")}, "spell 4 bytes, not the 3"},
		{"the text not normalized", "a\r\nb", [][]byte{[]byte("a\r\nb")}, "spell 4 bytes, not the 3"},
		{"a special token", "a", [][]byte{[]byte("<s>"), []byte(" a")}, "spell 5 bytes"},
	} {
		_, err := Pieces(c.text, c.toks, 16, 4)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if got, err := Pieces("", nil, 16, 4); err != nil || got == nil || len(got) != 0 {
		t.Errorf("no text, no tokens: %#v, %v; want an empty list", got, err)
	}
	if got, err := Pieces("abc", [][]byte{[]byte("abc")}, 16, 4); err != nil || !slices.Equal(got, []string{"abc"}) {
		t.Errorf("tokens without the prefix space: %q, %v", got, err)
	}
}

// FuzzPieces: any cut of a text into tokens, with or without the prefix space, keeps the
// splitter's properties and never panics.
func FuzzPieces(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		norm := Normalize(text)
		toks := [][]byte{}
		if size%2 == 0 {
			toks = append(toks, []byte(" "))
		}
		for i := 0; i < len(norm); {
			n := 1 + (i*7+size)%5
			n = min(n, len(norm)-i)
			toks = append(toks, []byte(norm[i:i+n]))
			i += n
		}
		got, err := Pieces(text, toks, size%300, overlap%300)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range got {
			if !strings.Contains(norm, p) {
				t.Fatalf("piece %q is not in the text", p)
			}
		}
	})
}
