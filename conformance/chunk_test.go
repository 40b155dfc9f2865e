package conformance

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

func TestChunkAreasRefuseMalformedCases(t *testing.T) {
	for _, c := range []struct {
		area                    Area
		name, json, field, want string
	}{
		{ChunkTokens, "no tokenizer", `{"size": 16, "overlap": 4, "text": "a"}`, "tokenizer", "missing"},
		{ChunkTokens, "unknown tokenizer", `{"tokenizer": "bpe", "size": 16, "overlap": 4, "text": "a"}`, "tokenizer", `"bpe" is not a tokenizer lembas-check has; want one of words`},
		{ChunkTokens, "tokenizer not a string", `{"tokenizer": 1, "size": 16, "overlap": 4, "text": "a"}`, "tokenizer", "want a string"},
		{ChunkTokens, "no size", `{"tokenizer": "words", "overlap": 4, "text": "a"}`, "size", "missing"},
		{ChunkTokens, "no overlap", `{"tokenizer": "words", "size": 16, "text": "a"}`, "overlap", "missing"},
		{ChunkTokens, "negative overlap", `{"tokenizer": "words", "size": 16, "overlap": -1, "text": "a"}`, "overlap", "want 0 or more"},
		{ChunkTokens, "no text", `{"tokenizer": "words", "size": 16, "overlap": 4}`, "text", "missing"},
		{ChunkTokens, "null text", `{"tokenizer": "words", "size": 16, "overlap": 4, "text": null}`, "text", "missing"},
		{ChunkTokens, "a limit of 0", `{"tokenizer": "words", "size": 16, "overlap": 4, "text": "a", "limit": 0}`, "limit", "at least 1 token"},
		{ChunkTokens, "a limit not a number", `{"tokenizer": "estimate", "size": 16, "overlap": 4, "text": "a", "limit": "8"}`, "limit", "want an integer"},
		{ChunkTokens, "server without its answer", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "a"}`, "tokenize", "missing: tokenizer \"server\" counts the tokens a llama.cpp server answered"},
		{ChunkTokens, "an answer for the words", `{"tokenizer": "words", "size": 16, "overlap": 4, "text": "a", "tokenize": {"tokens": []}}`, "tokenize", `for tokenizer "server" only (this case's is "words")`},
		{ChunkTokens, "server with a limit", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "a", "limit": 8, "tokenize": {"tokens": [{"id": 264, "piece": " a"}]}}`, "limit", "only the whole text's tokens are recorded"},
		{ChunkTokens, "server tokens of another text", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "ab", "tokenize": {"tokens": [{"id": 264, "piece": " a"}, {"id": 29890, "piece": "c"}]}}`, "tokenize", `token 1 is "c", but the text has "b" there`},
		{ChunkTokens, "server tokens too few", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "ab", "tokenize": {"tokens": [{"id": 29874, "piece": "a"}]}}`, "tokenize", "the 1 tokens spell 1 bytes, not the 2 of the text"},
		{ChunkTokens, "a piece not a string nor bytes", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "a", "tokenize": {"tokens": [{"id": 264, "piece": 7}]}}`, "tokenize.tokens.piece", "is number, want a string"},
		{ChunkTokens, "a byte over 255", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "a", "tokenize": {"tokens": [{"id": 264, "piece": [256]}]}}`, "tokenize.tokens.piece", "is array, want a string"},
		{ChunkTokens, "a token without its id", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "a", "tokenize": {"tokens": [{"piece": " a"}]}}`, "tokenize.tokens[0].id", "missing"},
		{ChunkTokens, "a token without its piece", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "a", "tokenize": {"tokens": [{"id": 264}]}}`, "tokenize.tokens[0].piece", "missing"},
		{ChunkTokens, "a token with more", `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "a", "tokenize": {"tokens": [{"id": 264, "piece": " a", "n": 1}]}}`, "n", "unknown field"},
		{Chunk, "a limit in the character splitter", `{"size": 200, "overlap": 4, "text": "a", "limit": 8}`, "limit", "unknown field"},
		{ChunkTokens, "fractional size", `{"tokenizer": "words", "size": 16.5, "overlap": 4, "text": "a"}`, "size", "want an integer"},
		{ChunkTokens, "unknown field", `{"tokenizer": "words", "size": 16, "overlap": 4, "text": "a", "model": "x"}`, "model", "unknown field"},
		{Chunk, "no size", `{"overlap": 4, "text": "a"}`, "size", "missing"},
		{Chunk, "size a string", `{"size": "200", "overlap": 4, "text": "a"}`, "size", "want an integer"},
		{Chunk, "no overlap", `{"size": 200, "text": "a"}`, "overlap", "missing"},
		{Chunk, "negative overlap", `{"size": 200, "overlap": -20, "text": "a"}`, "overlap", "want 0 or more"},
		{Chunk, "no text", `{"size": 200, "overlap": 0}`, "text", "missing"},
		{Chunk, "text a list", `{"size": 200, "overlap": 0, "text": ["a"]}`, "text", "want a string"},
		{Chunk, "a tokenizer is not the character splitter's", `{"tokenizer": "words", "size": 200, "overlap": 0, "text": "a"}`, "tokenizer", "unknown field"},
	} {
		_, err := c.area.Decode(json.RawMessage(c.json))
		wantField(t, c.area.Name+": "+c.name, err, c.field, c.want)
	}
}

func TestChunkAnswerShape(t *testing.T) {
	for _, a := range []Area{Chunk, ChunkTokens} {
		for _, c := range []struct{ name, json, field, want string }{
			{"null", `null`, "", "is null; want the list of pieces ([] when there are none)"},
			{"an object", `{"pieces": []}`, "(top)", "want a list"},
			{"a string", `"one piece"`, "(top)", "want a list"},
			{"a null piece", `["a", null]`, "[1]", "is null, want a string"},
			{"a number piece", `["a", "b", 3]`, "[2]", "is number, want a string"},
			{"a list piece", `[["a"]]`, "[0]", "is array, want a string"},
		} {
			_, err := a.DecodeAnswer(json.RawMessage(c.json))
			wantField(t, a.Name+": answer "+c.name, err, c.field, c.want)
		}
		for _, ok := range []string{`[]`, `["a"]`, `["a", "b\n\nc"]`} {
			if _, err := a.DecodeAnswer(json.RawMessage(ok)); err != nil {
				t.Errorf("%s: answer %s: %v", a.Name, ok, err)
			}
		}
	}
}

// No pieces is [], never null: the answer marshals to the expect's shape.
func TestChunkAnswersMarshalAsLists(t *testing.T) {
	for _, c := range []struct {
		area Area
		in   string
		want string
	}{
		{Chunk, `{"size": 200, "overlap": 0, "text": " \r\n "}`, `[]`},
		{Chunk, `{"size": 200, "overlap": 0, "text": ""}`, `[]`},
		{Chunk, `{"size": 200, "overlap": 0, "text": "one\r\npiece"}`, `["one\npiece"]`},
		{ChunkTokens, `{"tokenizer": "words", "size": 16, "overlap": 4, "text": "\t"}`, `[]`},
		{ChunkTokens, `{"tokenizer": "words", "size": 16, "overlap": 4, "text": " a b "}`, `["a b"]`},
		{ChunkTokens, `{"tokenizer": "server", "size": 16, "overlap": 4, "text": "é", "tokenize": {"tokens": [{"id": 29871, "piece": " "}, {"id": 232, "piece": [195]}, {"id": 172, "piece": [169]}]}}`, `["é"]`},
	} {
		if got := referenceJSON(t, c.area, c.in); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.area.Name, c.in, got, c.want)
		}
	}
}

// cases/chunk.json stands for the spec's chunk.json: its about is the spec's (extra/chunk.json,
// from the seed), then what lembas-check adds; every case says what rule it checks.
func TestOwnChunkCasesAreWrittenFromTheSpecsAbout(t *testing.T) {
	b, err := fs.ReadFile(ownCasesFS(t), "chunk.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		About string `json:"about"`
		Cases []struct {
			About string `json:"about"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(f.About, spec.Text("chunk.about")+" — ") {
		t.Errorf("cases/chunk.json's about does not begin with the spec's chunk.json about (extra/chunk.json)")
	}
	if len(f.Cases) < 12 {
		t.Errorf("%d cases, want at least 12", len(f.Cases))
	}
	for i, c := range f.Cases {
		if c.About == "" || !strings.Contains(c.About, `"`) {
			t.Errorf("case %d: its about does not quote the rule it checks: %q", i, c.About)
		}
	}
}
