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
	fields := func(b *B) map[string]any { return b.fields }
	// piece is the Thens' item: the piece a Then names by its place, from 1.
	piece := func(b *B, a *args) (int, error) { return a.counted(0, "pieces") }
	one := func(w want) want {
		return func(a *args) (any, error) {
			v, err := w(a)
			return []any{v}, err
		}
	}
	steps := []stepDef{
		step(Given, "pieces of at most {int:size} "+unit+", {int:overlap} repeated", noArg,
			"the case's size and overlap, as given (the implementation raises and holds them)",
			func(b *B, a *args) error { b.fields["size"], b.fields["overlap"] = a.num(0), a.num(1); return nil }),
		step(Given, "the text {text:text}", noArg, "the text to cut, on one line",
			setFrom(fields, "text", holeText(0))),
		step(Given, "the text:", docArg, "the text to cut: the docstring as it is (no final line break)",
			setFrom(fields, "text", (*args).text)),
		step(When, "the text is cut", noArg,
			"marks the end of the setup (optional: the case is sent at the first Then)",
			func(b *B, a *args) error { return nil }),
		thenPart[B]("the pieces are:", tableArg,
			"every piece in order, one a row (a cell writes a line break as \\n): the whole answer",
			nil, tableWant(1, cell), "piece"),
		thenPart[B]("there are no pieces", noArg, "the answer is []", nil, is([]string{})),
		thenPart[B]("the only piece is {text:piece}", noArg, "the answer is this one piece", nil, one(valWant(0))),
		thenPart[B]("the only piece is:", docArg, "the answer is the docstring as one piece", nil, one(docWant)),
		thenPart[B]("there are {int:n} pieces", noArg, "how many pieces", path{length}, valWant(0)),
		thenOf("piece {int:n} is {text:piece}", noArg, "one piece, counting from 1", piece, nil, valWant(1)),
		thenOf("piece {int:n} is:", docArg, "one piece, counting from 1: the docstring", piece, nil, docWant),
	}
	if unit == "tokens" {
		steps = append([]stepDef{step(Given, "the words tokenizer", noArg,
			"a token is a run of non-whitespace characters (the spec's stand-in)",
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
