package chunk

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\r\nb", "a\nb"},
		{"a\r\n\r\nb", "a\n\nb"},
		{"a\r\r\nb", "a\r\nb"}, // one pass, as str.replace and replace(/\r\n/g, …)
		{"a\rb", "a\rb"},       // a lone CR stays
		{"a\n\rb", "a\n\rb"},
		{" \t\r\n a b \r\n\n", "a b"},
		{"\u00a0\u3000a\u2028", "a"}, // Unicode White_Space is trimmed
		{"\ufeffa", "\ufeffa"},       // U+FEFF is not White_Space (JavaScript's trim takes it)
		{"\x1fa", "\x1fa"},           // nor U+001F (Python's strip takes it)
		{"a\xffb\xe2\x82", "a\ufffdb\ufffd"},
		{" \r\n\t ", ""},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []Span
	}{
		{"", nil},
		{"   ", nil},
		{"a", []Span{{0, 1}}},
		{"ab  cd\te\nf", []Span{{0, 2}, {4, 6}, {7, 8}, {9, 10}}},
		{" x ", []Span{{1, 2}}},
		{"x\u00a0y", []Span{{0, 1}, {3, 4}}}, // NBSP parts words
		{"x\ufeffy", []Span{{0, 5}}},         // U+FEFF does not
		{"\u0085x", []Span{{2, 3}}},          // NEL is white space
		{"é😀 z.", []Span{{0, 6}, {7, 9}}},    // spans are bytes
		{"end. Next\n\nline", []Span{{0, 4}, {5, 9}, {11, 15}}},
	} {
		if got := Words.Tokens(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Words(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// cutIn looks for the window's last break of the best kind that lies wholly in its last third,
// the last third of n characters being the positions p with 3p >= 2n.
func TestCutIn(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	é := func(n int) string { return strings.Repeat("é", n) }
	for _, c := range []struct {
		name   string
		text   string
		s, end int // end -1: the text's end
		want   int
	}{
		{"no break: the window's end", x(200), 0, -1, 200},
		{"\\n at 133 of 200 is before the last third", x(133) + "\n" + x(66), 0, -1, 200},
		{"\\n at 134 of 200 is in it", x(134) + "\n" + x(65), 0, -1, 135},
		{"last third of 88 begins at 59", x(58) + "\n" + x(29), 0, -1, 88},
		{"last third of 88 begins at 59, in", x(59) + "\n" + x(28), 0, -1, 60},
		{"a paragraph break straddling the boundary is not in it", x(133) + "\n\n" + x(65), 0, -1, 135},
		{"paragraph over a later line break", x(150) + "\n\n" + x(20) + "\n" + x(27), 0, -1, 152},
		{"line break over a later sentence", x(140) + "\n" + x(40) + ". " + x(17), 0, -1, 141},
		{"the later of two line breaks", x(140) + "\n" + x(40) + "\n" + x(18), 0, -1, 182},
		{"a run of line breaks: after the last", x(150) + "\n\n\n" + x(47), 0, -1, 153},
		{"\". \" ending at the window's end", x(198) + ". ", 0, -1, 200},
		{"\".\" at the end, its space past the window", x(199) + ". more", 0, 200, 200},
		{"\".\\n\" is a line break", x(150) + ".\n" + x(48), 0, -1, 152},
		{"\"? \" is no break", x(150) + "? " + x(48), 0, -1, 200},
		{"a lone CR is no break", x(150) + "\r" + x(49), 0, -1, 200},
		{"counted in code points: é×133 then \\n", é(133) + "\n" + é(66), 0, -1, 2*199 + 1},
		{"counted in code points: é×134 then \\n", é(134) + "\n" + é(65), 0, -1, 2*134 + 1},
		{"the last third is the window's, not the text's", x(100) + "\n" + x(99) + x(100), 100, 300, 300},
		{"… and found there", x(100) + x(140) + "\n" + x(59), 100, 300, 241},
		{"a window of 1 character has no last-third break", "\n", 0, -1, 1},
		{"a window of 3: its last character", "a\n\n", 0, -1, 3},
	} {
		end := c.end
		if end < 0 {
			end = len(c.text)
		}
		if got := cutIn(c.text, c.s, end); got != c.want {
			t.Errorf("%s: cutIn = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestCharsLimits(t *testing.T) {
	text := strings.Repeat("word ", 200) // 1000 characters, no break
	same := func(name string, a, b []string) {
		t.Helper()
		if !slices.Equal(a, b) {
			t.Errorf("%s: %d pieces, want %d", name, len(a), len(b))
		}
	}
	min := CharRule().MinSize
	same("a size under the minimum is the minimum", Chars(text, 1, 0), Chars(text, min, 0))
	same("a negative size is the minimum", Chars(text, -50, 0), Chars(text, min, 0))
	same("an overlap over half the size is half", Chars(text, 300, 1000), Chars(text, 300, 150))
	same("a negative overlap is none", Chars(text, 300, -7), Chars(text, 300, 0))
	if got := Chars(text, math.MaxInt, math.MaxInt); len(got) != 1 || got[0] != strings.TrimSpace(text) {
		t.Errorf("the largest size: %d pieces, want the whole text", len(got))
	}
	if got := Chars(text, 300, 0); len(got) != 4 || utf8.RuneCountInString(got[0]) != 299 {
		t.Errorf("1000 characters by 300: %d pieces, the first %d characters; want 4, 299 (300 trimmed)", len(got), utf8.RuneCountInString(got[0]))
	}
	if got := Chars(" \n ", 200, 0); got == nil || len(got) != 0 {
		t.Errorf("white space: %#v, want an empty non-nil list", got)
	}
}

func TestTokensLimits(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		b.WriteString("tok" + itoa(i) + " ")
	}
	text := b.String()
	split := func(size, overlap int) []string {
		t.Helper()
		got, err := Tokens(text, Words, size, overlap)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	min := TokenRule().MinSize
	if !slices.Equal(split(1, 0), split(min, 0)) || !slices.Equal(split(-3, 0), split(min, 0)) {
		t.Error("a size under the minimum is not the minimum")
	}
	if !slices.Equal(split(20, 15), split(20, 10)) || !slices.Equal(split(21, 15), split(21, 10)) {
		t.Error("an overlap over half the size is not half, rounded down")
	}
	if !slices.Equal(split(20, -1), split(20, 0)) {
		t.Error("a negative overlap is not none")
	}
	if got := split(math.MaxInt, 0); len(got) != 1 {
		t.Errorf("the largest size: %d pieces", len(got))
	}
	// Overlap 0: the next piece begins at the first token after the cut.
	got := split(20, 0)
	if len(got) != 5 || !strings.HasPrefix(got[1], "tok20 ") || !strings.HasSuffix(got[0], " tok19") {
		t.Errorf("100 tokens by 20, no overlap: %q", got)
	}
}

// A cut early in a window of long tokens leaves fewer than overlap tokens before it: the next
// piece begins one token on, so that the splitter moves on.
func TestTokensMoveOnAfterAnEarlyCut(t *testing.T) {
	ab := func(n int) string { return strings.TrimSpace(strings.Repeat("ab ", n)) }
	text := strings.Repeat("x", 1000) + "\n" + ab(30)
	got, err := Tokens(text, Words, 16, 8)
	if err != nil {
		t.Fatal(err)
	}
	// Window 1 (x…x and 15 ab): its last third begins inside x…x, so the \n cuts after 1 token;
	// the next begins at the first ab; then hard cuts after 16 tokens, 8 repeated.
	want := []string{strings.Repeat("x", 1000), ab(16), ab(16), ab(14)}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestTokensRefuseABadTokenizer(t *testing.T) {
	for name, spans := range map[string][]Span{
		"empty token":     {{0, 0}},
		"backwards":       {{2, 1}},
		"out of order":    {{4, 5}, {0, 1}},
		"overlapping":     {{0, 3}, {2, 5}},
		"past the end":    {{0, 99}},
		"negative":        {{-1, 2}},
		"inside an é":     {{0, 2}},
		"ending inside 😀": {{3, 5}},
	} {
		tok := TokenizerFunc(func(string) []Span { return spans })
		if _, err := Tokens("aé😀 bcd", tok, 16, 4); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	none := TokenizerFunc(func(string) []Span { return nil })
	if got, err := Tokens(" a text no token covers ", none, 16, 4); err != nil || !slices.Equal(got, []string{"a text no token covers"}) {
		t.Errorf("no tokens: %q, %v; want the text as one piece", got, err)
	}
}

// filesystem.md: "The cut rules are the character splitter's (`conformance/chunk.json`) measured
// in tokens". With one token per character, the token splitter is the character splitter.
func TestOneTokenPerCharacterIsTheCharacterSplitter(t *testing.T) {
	perChar := TokenizerFunc(func(text string) []Span {
		out := make([]Span, 0, len(text))
		for i, r := range text {
			out = append(out, Span{i, i + utf8.RuneLen(r)})
		}
		return out
	})
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		text := genText(r, r.IntN(3000))
		size := CharRule().MinSize + r.IntN(400)
		overlap := r.IntN(size)
		got, err := Tokens(text, perChar, size, overlap)
		if err != nil {
			t.Fatal(err)
		}
		if want := Chars(text, size, overlap); !slices.Equal(got, want) {
			t.Fatalf("size %d, overlap %d, text %q:\nby tokens     %q\nby characters %q", size, overlap, text, got, want)
		}
	}
}

// Properties of every split, over generated texts: the spans cover the text (but white space
// between them) and move on, no
// window holds more than size units, pieces are trimmed, non-empty, and at least the minimum
// unless the text fits.
func TestSplitProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		text := genText(r, r.IntN(4000))
		size, overlap := r.IntN(600)-10, r.IntN(400)-10
		checkChars(t, text, size, overlap)
		checkTokens(t, text, size, overlap)
	}
}

// checkChars checks the character splitter's properties on one input.
func checkChars(t *testing.T, text string, size, overlap int) {
	t.Helper()
	size, overlap = limits(CharRule(), size, overlap)
	norm := Normalize(text)
	ss := spans(norm, chars(norm), size, overlap)
	checkCover(t, norm, ss, func(a, b int) int { return utf8.RuneCountInString(norm[a:b]) }, size)
	checkPieces(t, norm, ss, Chars(text, size, overlap), CharRule().MinPiece)
}

// checkTokens checks the token splitter's properties on one input, with the words tokenizer.
func checkTokens(t *testing.T, text string, size, overlap int) {
	t.Helper()
	size, overlap = limits(TokenRule(), size, overlap)
	norm := Normalize(text)
	ts := Words.Tokens(norm)
	ss := spans(norm, tokens{ts: ts, len: len(norm)}, size, overlap)
	checkCover(t, norm, ss, func(a, b int) int { return len(Words.Tokens(norm[a:b])) }, size)
	got, err := Tokens(text, Words, size, overlap)
	if err != nil {
		t.Fatal(err)
	}
	checkPieces(t, norm, ss, got, TokenRule().MinPiece)
}

func checkCover(t *testing.T, norm string, ss []span, units func(a, b int) int, size int) {
	t.Helper()
	if len(ss) == 0 || ss[0].start != 0 || ss[len(ss)-1].end != len(norm) {
		t.Fatalf("spans %v do not run from 0 to %d", ss, len(norm))
	}
	for i, sp := range ss {
		if i > 0 && (sp.start <= ss[i-1].start || sp.start > ss[i-1].end && strings.TrimSpace(norm[ss[i-1].end:sp.start]) != "") {
			t.Fatalf("span %d %v does not move on from %v, or leaves out more than white space", i, sp, ss[i-1])
		}
		if (sp.end <= sp.start && norm != "") || units(sp.start, sp.end) > size {
			t.Fatalf("span %d %v holds %d units, more than %d (or none)", i, sp, units(sp.start, sp.end), size)
		}
	}
}

func checkPieces(t *testing.T, norm string, ss []span, got []string, minPiece int) {
	t.Helper()
	if got == nil {
		t.Fatal("nil answer")
	}
	var want []string
	for _, sp := range ss {
		p := strings.TrimSpace(norm[sp.start:sp.end])
		if p != "" && (len(ss) == 1 || utf8.RuneCountInString(p) >= minPiece) {
			want = append(want, p)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("pieces %q are not the spans %v trimmed, those under %d characters dropped", got, ss, minPiece)
	}
}

// genText makes a text of about n bytes with every kind of break, CRLFs, lone CRs, multi-byte
// characters and long tokens.
func genText(r *rand.Rand, n int) string {
	parts := []string{"word", "alpha", "é", "😀", "e\u0301", "x", "longtokenlongtokenlongtoken", " ", " ", " ", "  ", ". ", "\n", "\n\n", "\r\n", "\r", "\t", "\u00a0", "."}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}
