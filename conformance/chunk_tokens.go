package conformance

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance/steps"
	"github.com/LLeMbas/lembas-check/harness/chunk"
)

// ChunkTokens is conformance/chunk_tokens.json: the pieces a file is cut into for search,
// measured in tokens (filesystem.md, Indexing, by tokens).
var ChunkTokens = Define("chunk_tokens", "spec", "the pieces a file is cut into for search, measured in a tokenizer's tokens (filesystem.md, Indexing, by tokens)", answerChunkTokens).WithSteps(steps.ChunkTokens)

type chunkTokensCase struct {
	About     string  `json:"about,omitempty"`
	Tokenizer *string `json:"tokenizer"`
	Size      *int    `json:"size"`
	Overlap   *int    `json:"overlap"`
	Text      *string `json:"text"`
}

func (c chunkTokensCase) Validate() error {
	if c.Tokenizer == nil {
		return Fieldf("tokenizer", "missing: a chunk_tokens case names its tokenizer, one of %s", tokenizerNames())
	}
	if _, ok := chunk.Tokenizers[*c.Tokenizer]; !ok {
		return Fieldf("tokenizer", "%q is not a tokenizer lembas-check has; want one of %s", *c.Tokenizer, tokenizerNames())
	}
	return validateSplit(c.Size, c.Overlap, c.Text, "tokens")
}

// validateSplit checks the fields both splitters' cases have.
func validateSplit(size, overlap *int, text *string, unit string) error {
	switch {
	case size == nil:
		return Fieldf("size", "missing: the most %s a piece holds (an integer; a small one is raised to the rule's minimum)", unit)
	case overlap == nil:
		return Fieldf("overlap", "missing: how many %s the next piece repeats (an integer, 0 or more; held to half the size)", unit)
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
	return strings.Join(names, ", ")
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
			return &json.UnmarshalTypeError{Value: jsonKind(item), Type: reflect.TypeFor[string](), Field: "[" + strconv.Itoa(i) + "]"}
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
	out, err := chunk.Tokens(*c.Text, chunk.Tokenizers[*c.Tokenizer], *c.Size, *c.Overlap)
	return piecesAnswer(out), err
}
