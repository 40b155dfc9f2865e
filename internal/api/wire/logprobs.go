package wire

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Log probabilities, as a model sure of every token it sends would give them: the chosen token
// at chosenLogprob (a probability of 0.9999), each alternative far below it, in descending
// order. Always the same for the same text.
const (
	chosenLogprob = -0.0001
	altLogprob    = -10.0
)

// textPieces are the stream deltas of the answer's text: a token each when log probabilities
// are sent (as the API streams them), else Pieces'.
func textPieces(a Answer) []string {
	if a.Logprobs != nil && len(a.Logprobs.Tokens) > 0 {
		return a.Logprobs.Tokens
	}
	return Pieces(a.Text, a.Chunk, false)
}

// one is the log probabilities of the i-th token alone, for its stream delta.
func (lp *Logprobs) one(i int) *Logprobs {
	if lp == nil || i >= len(lp.Tokens) {
		return nil
	}
	return &Logprobs{Tokens: lp.Tokens[i : i+1], Top: lp.Top}
}

// logprobList writes [{token, logprob, bytes, top_logprobs}…]; [] when none were asked for.
func logprobList(e *enc, lp *Logprobs) {
	e.arr()
	if lp != nil {
		for _, t := range lp.Tokens {
			e.obj()
			tokenLogprob(e, t, chosenLogprob)
			e.key("top_logprobs")
			e.arr()
			for k, alt := range topTokens(t, lp.Top) {
				e.obj()
				lv := chosenLogprob
				if k > 0 {
					lv = altLogprob - float64(k-1)
				}
				tokenLogprob(e, alt, lv)
				e.end()
			}
			e.endArr()
			e.end()
		}
	}
	e.endArr()
}

func tokenLogprob(e *enc, t string, lv float64) {
	e.kstr("token", t)
	e.kfloat("logprob", lv)
	e.key("bytes")
	e.arr()
	for i := 0; i < len(t); i++ {
		e.int(int64(t[i]))
	}
	e.endArr()
}

// topTokens are n distinct candidates for a position, the chosen token first: it with its case
// or its leading space changed, then numbered variants.
func topTokens(t string, n int) []string {
	if n <= 0 {
		return nil
	}
	out := []string{t}
	seen := map[string]bool{t: true}
	add := func(s string) {
		if len(out) < n && s != "" && utf8.ValidString(s) && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	trimmed := strings.TrimLeft(t, " ")
	add(swapCase(t))
	if trimmed != t {
		add(trimmed)
	} else {
		add(" " + t)
	}
	add(strings.ToUpper(t))
	add(strings.ToLower(t))
	for i := 2; len(out) < n; i++ {
		add(t + strconv.Itoa(i))
	}
	return out
}

func swapCase(s string) string {
	for i, r := range s {
		if unicode.IsLetter(r) {
			sw := unicode.ToUpper(r)
			if unicode.IsUpper(r) {
				sw = unicode.ToLower(r)
			}
			return s[:i] + string(sw) + s[i+utf8.RuneLen(r):]
		}
	}
	return s
}
