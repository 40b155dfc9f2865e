package steps

import "fmt"

// chunk and chunk_tokens: the pieces a text is cut into for search. Givens say the tokenizer (for
// tokens), the size and overlap, and the text; Thens say the pieces.

type chunkBuilder struct {
	unit   string // "tokens" or "characters"
	fields map[string]any
}

func (b *chunkBuilder) Case() (map[string]any, error) {
	if _, ok := b.fields["size"]; !ok {
		return nil, fmt.Errorf("no size: say it with `Given pieces of at most N %s, M repeated`", b.unit)
	}
	if _, ok := b.fields["text"]; !ok {
		return nil, fmt.Errorf("no text: say it with `Given the text \"…\"` or `Given the text:`")
	}
	if b.unit == "tokens" {
		if _, ok := b.fields["tokenizer"]; !ok {
			return nil, fmt.Errorf("no tokenizer: say it with `Given the words tokenizer`")
		}
	}
	return b.fields, nil
}

func chunkSteps(unit string) []stepDef {
	type B = chunkBuilder
	steps := []stepDef{
		step(Given, "pieces of at most {int:size} "+unit+", {int:overlap} repeated", noArg,
			"the case's size and overlap, as given (the implementation raises and holds them)",
			func(b *B, a *args) error { b.fields["size"], b.fields["overlap"] = a.num(0), a.num(1); return nil }),
		step(Given, "the text {text:text}", noArg, "the text to cut, on one line",
			func(b *B, a *args) error { b.fields["text"] = a.str(0); return nil }),
		step(Given, "the text:", docArg, "the text to cut: the docstring as it is (no final line break)",
			func(b *B, a *args) error {
				t, err := a.text()
				b.fields["text"] = t
				return err
			}),
		step(When, "the text is cut", noArg, "marks the end of the setup (optional: the case is sent at the first Then)",
			func(b *B, a *args) error { return nil }),
		step(Then, "the pieces are:", tableArg, "every piece in order, one a row (a cell writes a line break as \\n): the whole answer",
			func(b *B, a *args) error {
				rows, err := a.rows(1)
				if err != nil {
					return err
				}
				ps := []string{}
				for _, r := range rows {
					ps = append(ps, r[0])
				}
				return a.expect(nil, ps)
			}, "piece"),
		step(Then, "there are no pieces", noArg, "the answer is []",
			func(b *B, a *args) error { return a.expect(nil, []string{}) }),
		step(Then, "the only piece is {text:piece}", noArg, "the answer is this one piece",
			func(b *B, a *args) error { return a.expect(nil, []string{a.str(0)}) }),
		step(Then, "the only piece is:", docArg, "the answer is the docstring as one piece",
			func(b *B, a *args) error {
				t, err := a.text()
				if err != nil {
					return err
				}
				return a.expect(nil, []string{t})
			}),
		step(Then, "there are {int:n} pieces", noArg, "how many pieces",
			func(b *B, a *args) error { return a.expect(path{length}, a.num(0)) }),
		step(Then, "piece {int:n} is {text:piece}", noArg, "one piece, counting from 1",
			func(b *B, a *args) error {
				if a.num(0) < 1 {
					return fmt.Errorf("pieces count from 1")
				}
				return a.expect(path{a.num(0) - 1}, a.str(1))
			}),
		step(Then, "piece {int:n} is:", docArg, "one piece, counting from 1: the docstring",
			func(b *B, a *args) error {
				if a.num(0) < 1 {
					return fmt.Errorf("pieces count from 1")
				}
				t, err := a.text()
				if err != nil {
					return err
				}
				return a.expect(path{a.num(0) - 1}, t)
			}),
	}
	if unit == "tokens" {
		steps = append([]stepDef{step(Given, "the words tokenizer", noArg, "a token is a run of non-whitespace characters (the spec's stand-in)",
			func(b *B, a *args) error { b.fields["tokenizer"] = "words"; return nil })}, steps...)
	}
	return steps
}

// Chunk is the vocabulary of area chunk, the character splitter.
var Chunk = &Vocabulary{
	newBuilder: func() builder { return &chunkBuilder{unit: "characters", fields: map[string]any{}} },
	define:     func() []stepDef { return chunkSteps("characters") },
}

// ChunkTokens is the vocabulary of area chunk_tokens, the token splitter.
var ChunkTokens = &Vocabulary{
	newBuilder: func() builder { return &chunkBuilder{unit: "tokens", fields: map[string]any{}} },
	define:     func() []stepDef { return chunkSteps("tokens") },
}
