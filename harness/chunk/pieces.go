package chunk

import (
	"fmt"
	"unicode/utf8"
)

// filesystem.md, Indexing, by tokens: "Tokens are counted with the embedder's own tokenizer where
// the server says how (llama.cpp's `/tokenize`, for one)." A server lists each token's bytes
// (llama.cpp's `POST /tokenize` with `with_pieces`); Pieces counts those.

// Pieces is the token splitter counting an embedder's own tokens, as its server listed them for
// the normalized text: each token's bytes, in order. They spell the text, or the text after one
// space (a SentencePiece vocabulary's prefix, which no piece may keep). A token that ends inside
// a character (a byte-fallback token) is taken together with the tokens up to the character's
// end: a window holds whole characters, each counting all of its tokens. The answer is never
// nil; the error is pieces that do not spell the text.
func Pieces(text string, toks [][]byte, size, overlap int) ([]string, error) {
	size, overlap = limits(TokenRule(), size, overlap)
	t := Normalize(text)
	m, err := serverTokens(t, toks)
	if err != nil {
		return nil, err
	}
	return pieces(t, spans(t, m, size, overlap), TokenRule().MinPiece), nil
}

// serverTokens lays the tokens' bytes over t: spans on character boundaries, and how many
// tokens the spans before each hold.
func serverTokens(t string, toks [][]byte) (tokens, error) {
	n := 0
	for _, p := range toks {
		n += len(p)
	}
	pos := 0 // where the next token's bytes begin in t; -1 while the prefix space is read
	switch {
	case n == len(t)+1 && len(toks) > 0 && len(toks[0]) > 0 && toks[0][0] == ' ':
		pos = -1
	case n != len(t):
		return tokens{}, fmt.Errorf("chunk: the %d tokens spell %d bytes, not the %d of the text (or the text "+
			"after one space): were they the server's answer for this text, normalized?", len(toks), n, len(t))
	}
	m := tokens{len: len(t), sum: []int{0}}
	start, count := -1, 0
	for i, p := range toks {
		from := pos
		pos += len(p)
		if from < 0 {
			from, p = 0, p[1:] // the prefix space
		}
		if string(p) != t[from:pos] {
			return tokens{}, fmt.Errorf("chunk: token %d is %q, but the text has %q there: were the tokens the "+
				"server's answer for this text, normalized?", i, p, t[from:pos])
		}
		count++
		if len(p) == 0 { // the prefix space alone, a token of its own: counted with the next
			continue
		}
		if start < 0 {
			start = from
		}
		if pos == len(t) || utf8.RuneStart(t[pos]) {
			m.ts = append(m.ts, Span{start, pos})
			m.sum = append(m.sum, m.sum[len(m.sum)-1]+count)
			start, count = -1, 0
		}
	}
	return m, nil
}
