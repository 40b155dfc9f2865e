package conformance

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/chunk"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// ChunkTokens is conformance/chunk_tokens.json: the pieces a file is cut into for search,
// measured in tokens (filesystem.md, Indexing, by tokens).
var ChunkTokens = Define("chunk_tokens", "spec",
	"the pieces a file is cut into for search, measured in a tokenizer's tokens (filesystem.md, Indexing, by "+
		"tokens)", answerChunkTokens).WithSteps(steps.ChunkTokens)

// chunkTokensCase is the spec's case; `tokenizer: "estimate"`, `tokenizer: "server"` with
// `tokenize`, and `limit` are lembas-check's own (cases/chunk_tokens.json): the stand-in count
// where no tokenizer is given, the embedder's own tokens as its server gave them, and the most
// tokens the embedder takes, a piece above it being split (filesystem.md, Indexing, by tokens).
type chunkTokensCase struct {
	About     string          `json:"about,omitempty"`
	Tokenizer *string         `json:"tokenizer"`
	Size      *int            `json:"size"`
	Overlap   *int            `json:"overlap"`
	Text      *string         `json:"text"`
	Limit     *int            `json:"limit"`
	Tokenize  *tokenizeAnswer `json:"tokenize"`
}

// noTokenizer is the tokenizer a case names for filesystem.md's stand-in count; serverTokenizer
// the one for the embedder's own, counted from a recorded answer of its server (tokenize).
const (
	noTokenizer     = "estimate"
	serverTokenizer = "server"
)

// tokenizeAnswer is a llama.cpp server's answer to `POST /tokenize` with `{"content": <the
// normalized text>, "with_pieces": true}`, as recorded (testdata/llamacpp).
type tokenizeAnswer struct {
	Tokens []tokenizeToken `json:"tokens"`
}

type tokenizeToken struct {
	ID    *int        `json:"id"`
	Piece *tokenPiece `json:"piece"`
}

// JSONSchema: both fields are llama.cpp's, and both are there (validateServer says so).
func (tokenizeToken) JSONSchema() map[string]any {
	return map[string]any{"type": "object", "additionalProperties": false, "required": []string{"id", "piece"},
		"properties": map[string]any{"id": map[string]any{"type": "integer"}, "piece": tokenPiece{}.JSONSchema()}}
}

// tokenPiece is a token's bytes: a string, or — llama.cpp's way for a piece that is not UTF-8, a
// byte of a character the vocabulary spells in bytes — the list of its byte values.
type tokenPiece []byte

func (p *tokenPiece) UnmarshalJSON(b []byte) error {
	var s *string
	if json.Unmarshal(b, &s) == nil && s != nil {
		*p = []byte(*s)
		return nil
	}
	var bs []*uint8
	if err := json.Unmarshal(b, &bs); err != nil || bs == nil {
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[string]()}
	}
	out := make(tokenPiece, len(bs))
	for i, c := range bs {
		if c == nil {
			return &json.UnmarshalTypeError{Value: "null", Type: reflect.TypeFor[uint8](),
				Field: "[" + strconv.Itoa(i) + "]"}
		}
		out[i] = *c
	}
	*p = out
	return nil
}

// JSONSchema: a piece is a string, or a list of byte values.
func (tokenPiece) JSONSchema() map[string]any {
	return map[string]any{"type": []string{"string", "array"},
		"items": map[string]any{"type": "integer", "minimum": 0, "maximum": 255}}
}

func (a tokenizeAnswer) bytes() [][]byte {
	out := make([][]byte, len(a.Tokens))
	for i, t := range a.Tokens {
		if t.Piece != nil {
			out[i] = *t.Piece
		}
	}
	return out
}

func (c chunkTokensCase) Validate() error {
	if c.Tokenizer == nil {
		return Fieldf("tokenizer", "missing: a chunk_tokens case names its tokenizer, one of %s", tokenizerNames())
	}
	if _, ok := chunk.Tokenizers[*c.Tokenizer]; !ok && *c.Tokenizer != noTokenizer && *c.Tokenizer != serverTokenizer {
		return Fieldf("tokenizer", "%q is not a tokenizer lembas-check has; want one of %s", *c.Tokenizer,
			tokenizerNames())
	}
	if err := c.validateServer(); err != nil {
		return err
	}
	if c.Limit != nil && *c.Limit < 1 {
		return Fieldf("limit",
			"is %d; the embedder takes at least 1 token (leave limit out for an embedder that refuses "+
				"nothing)", *c.Limit)
	}
	return validateSplit(c.Size, c.Overlap, c.Text, "tokens")
}

// validateServer checks a `tokenizer: server` case: its recorded answer, which spells the text,
// and no limit (a refused piece's own tokens are not recorded: only the text's).
func (c chunkTokensCase) validateServer() error {
	switch server := *c.Tokenizer == serverTokenizer; {
	case !server && c.Tokenize != nil:
		return Fieldf("tokenize", "is the server's tokens, for tokenizer %q only (this case's is %q)", serverTokenizer,
			*c.Tokenizer)
	case !server:
		return nil
	case c.Tokenize == nil:
		return Fieldf("tokenize",
			"missing: tokenizer %q counts the tokens a llama.cpp server answered to POST /tokenize "+
				"{\"content\": <the text, normalized>, \"with_pieces\": true}; give that answer", serverTokenizer)
	case c.Limit != nil:
		return Fieldf("limit", "is for the words tokenizer and the estimate: with tokenizer %q only the whole "+
			"text's tokens are recorded, not a refused piece's", serverTokenizer)
	case c.Text == nil:
		return nil // validateSplit says so
	}
	for i, t := range c.Tokenize.Tokens {
		for _, f := range []struct {
			name  string
			there bool
		}{{"id", t.ID != nil}, {"piece", t.Piece != nil}} {
			if !f.there {
				return Fieldf("tokenize.tokens["+strconv.Itoa(i)+"]."+f.name, "missing: each token of the "+
					"server's answer is {\"id\", \"piece\"} (POST /tokenize with \"with_pieces\": true)")
			}
		}
	}
	if _, err := chunk.Pieces(*c.Text, c.Tokenize.bytes(), 16, 0); err != nil {
		return Fieldf("tokenize", "%s", strings.TrimPrefix(err.Error(), "chunk: "))
	}
	return nil
}

// validateSplit checks the fields both splitters' cases have.
func validateSplit(size, overlap *int, text *string, unit string) error {
	switch {
	case size == nil:
		return Fieldf("size",
			"missing: the most %s a piece holds (an integer; a small one is raised to the rule's minimum)", unit)
	case overlap == nil:
		return Fieldf("overlap",
			"missing: how many %s the next piece repeats (an integer, 0 or more; held to half the size)", unit)
	case *overlap < 0:
		return Fieldf("overlap", "is %d; want 0 or more (%s the next piece repeats)", *overlap, unit)
	case text == nil:
		return Fieldf("text", "missing: the text to cut (a string)")
	}
	return nil
}

func tokenizerNames() string {
	var names []string
	for n := range chunk.Tokenizers {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names,
		", ") + ", " + serverTokenizer + " (the embedder's own: the tokens of tokenize, its server's answer), or " +
		noTokenizer + " (no tokenizer: the stand-in count, ceil(UTF-8 bytes / " +
		strconv.Itoa(chunk.EstimateBytes()) + "))"
}

// piecesAnswer is both splitters' answer: the pieces in order, [] when there are none (never
// null). It decodes strictly: a list whose every item is a string.
type piecesAnswer []string

func (a *piecesAnswer) UnmarshalJSON(b []byte) error {
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return err
	}
	if items == nil {
		*a = nil
		return nil
	}
	out := make(piecesAnswer, len(items))
	for i, item := range items {
		var p *string
		if err := json.Unmarshal(item, &p); err != nil || p == nil {
			return &json.UnmarshalTypeError{Value: jsonKind(item), Type: reflect.TypeFor[string](),
				Field: "[" + strconv.Itoa(i) + "]"}
		}
		out[i] = *p
	}
	*a = out
	return nil
}

func (a piecesAnswer) Validate() error {
	if a == nil {
		return Fieldf("", "is null; want the list of pieces ([] when there are none)")
	}
	return nil
}

// jsonKind names a JSON value's kind the way encoding/json's type errors do.
func jsonKind(v json.RawMessage) string {
	switch b := bytes.TrimSpace(v); {
	case len(b) == 0:
		return "nothing"
	case b[0] == 'n':
		return "null"
	case b[0] == 't' || b[0] == 'f':
		return "bool"
	case b[0] == '[':
		return "array"
	case b[0] == '{':
		return "object"
	case b[0] == '"':
		return "string"
	}
	return "number"
}

func answerChunkTokens(c chunkTokensCase) (piecesAnswer, error) {
	if *c.Tokenizer == noTokenizer {
		out := chunk.Estimated(*c.Text, *c.Size, *c.Overlap)
		if c.Limit != nil {
			out = chunk.SplitRefusedEstimated(out, *c.Limit)
		}
		return piecesAnswer(out), nil
	}
	if *c.Tokenizer == serverTokenizer {
		out, err := chunk.Pieces(*c.Text, c.Tokenize.bytes(), *c.Size, *c.Overlap)
		return piecesAnswer(out), err
	}
	tok := chunk.Tokenizers[*c.Tokenizer]
	out, err := chunk.Tokens(*c.Text, tok, *c.Size, *c.Overlap)
	if err == nil && c.Limit != nil {
		out, err = chunk.SplitRefused(out, tok, *c.Limit)
	}
	return piecesAnswer(out), err
}
