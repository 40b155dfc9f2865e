package tokens

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// texts is what the compact BPE is held to: the repo's own docs and code, whitespace and
// punctuation runs, scripts other than Latin, numbers, bytes that are not UTF-8, and random
// strings over all of them.
func texts(t *testing.T) []string {
	out := []string{"", " ", "\n\n\n", "  \t \r\n  x", "Hello, world!", "I'm here; they'll've gone.", "12345678901", "naïve café — ☕ 東京 😀👍🏽",
		"Привет, мир", "\xff\xfe bad \xc3 utf-8", "func main() {\n\tfmt.Println(\"hi\")\n}\n", strings.Repeat("a", 3000), strings.Repeat("🙂", 50)}
	for _, glob := range []string{"../../../docs/*.md", "*.go"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	alphabet := []rune(" \n\t\r.,;:'\"!?()[]{}<>/\\-_=+*&^%$#@~`0123456789aAbBzZéßøЖж中文日本語한국어😀\u0301\u200b")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		r := make([]rune, rng.IntN(80))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		out = append(out, string(r))
	}
	return out
}

// The compact tables encode every text exactly as tiktoken-go's o200k_base does.
func TestBPEMatchesTiktokenGo(t *testing.T) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	ref, err := tiktoken.GetEncoding(Encoding)
	if err != nil {
		t.Fatal(err)
	}
	b, err := encoding()
	if err != nil {
		t.Fatal(err)
	}
	all := texts(t)
	if len(all) < 520 {
		t.Fatalf("only %d texts: the docs were not found", len(all))
	}
	for _, s := range all {
		if got, want := b.EncodeOrdinary(s), ref.EncodeOrdinary(s); !slices.Equal(got, want) {
			t.Errorf("%.60q:\n got %v\nwant %v", s, got, want)
		}
	}
}

// Every token of the table is found by its bytes, as itself.
func TestBPETable(t *testing.T) {
	b, err := encoding()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(b.off) - 1; n != 199998 {
		t.Errorf("%d tokens, want o200k_base's 199998", n)
	}
	for r := 0; r < len(b.off)-1; r++ {
		if got := b.rank(b.token(r)); got != r {
			t.Fatalf("token %d (%q) found as %d", r, b.token(r), got)
		}
	}
	if b.rank([]byte("no such token, surely")) != -1 {
		t.Error("a text that is no token found a rank")
	}
}

// BenchmarkEncode: the compact tables beside tiktoken-go's maps, on the repo's docs.
func BenchmarkEncode(b *testing.B) {
	files, _ := filepath.Glob("../../../docs/*.md")
	var text strings.Builder
	for _, f := range files {
		s, _ := os.ReadFile(f)
		text.Write(s)
	}
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	ref, err := tiktoken.GetEncoding(Encoding)
	if err != nil {
		b.Fatal(err)
	}
	compact, err := encoding()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		enc  func(string) []int
	}{{"tiktoken-go", ref.EncodeOrdinary}, {"compact", compact.EncodeOrdinary}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(text.Len()))
			for b.Loop() {
				c.enc(text.String())
			}
		})
	}
}

// A long piece is merged with a heap, to the very tokens the pair-by-pair scan makes: runs of
// one letter (a padded module), of a few, of bytes that are not UTF-8, and random text.
func TestMergeLongIsMerge(t *testing.T) {
	b, err := encoding()
	if err != nil {
		t.Fatal(err)
	}
	pieces := []string{strings.Repeat("a", 5000), strings.Repeat("ab", 700), strings.Repeat("\xff", 300),
		strings.Repeat("aaab", 333), strings.Repeat("😀", 100)}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		const alphabet = "aaabbcde xyz\xc3\xa9\xff"
		p := make([]byte, 1+rng.IntN(1200))
		for i := range p {
			p[i] = alphabet[rng.IntN(len(alphabet))]
		}
		pieces = append(pieces, string(p))
	}
	for _, p := range pieces {
		if got, want := b.mergeLong([]byte(p), nil), b.merge([]byte(p), nil); !slices.Equal(got, want) {
			t.Errorf("%.40q (%d bytes):\n got %v\nwant %v", p, len(p), got, want)
		}
	}
}

// BenchmarkMergeLong: a 64 KiB run of one letter, merged with the heap and by the scan.
func BenchmarkMergeLong(b *testing.B) {
	e, err := encoding()
	if err != nil {
		b.Fatal(err)
	}
	piece := []byte(strings.Repeat("a", 64<<10))
	b.Run("heap", func(b *testing.B) {
		for b.Loop() {
			e.mergeLong(piece, nil)
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			e.merge(piece, nil)
		}
	})
}
