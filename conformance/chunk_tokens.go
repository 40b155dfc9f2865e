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

// chunkTokensCase is the spec's case; `tokenizer: "estimate"` and `limit` are lembas-check's own
// (cases/chunk_tokens.json): the stand-in count where no tokenizer is given, and the most tokens
// the embedder takes, a piece above it being split (filesystem.md, Indexing, by tokens).
type chunkTokensCase struct {
	About     string  `json:"about,omitempty"`
	Tokenizer *string `json:"tokenizer"`
	Size      *int    `json:"size"`
	Overlap   *int    `json:"overlap"`
	Text      *string `json:"text"`
	Limit     *int    `json:"limit"`
}

// noTokenizer is the tokenizer a case names for filesystem.md's stand-in count.
const noTokenizer = "estimate"

func (c chunkTokensCase) Validate() error {
	if c.Tokenizer == nil {
		return Fieldf("tokenizer", "missing: a chunk_tokens case names its tokenizer, one of %s", tokenizerNames())
	}
	if _, ok := chunk.Tokenizers[*c.Tokenizer]; !ok && *c.Tokenizer != noTokenizer {
		return Fieldf("tokenizer", "%q is not a tokenizer lembas-check has; want one of %s", *c.Tokenizer,
			tokenizerNames())
	}
	if c.Limit != nil && *c.Limit < 1 {
		return Fieldf("limit",
			"is %d; the embedder takes at least 1 token (leave limit out for an embedder that refuses "+
				"nothing)", *c.Limit)
	}
	return validateSplit(c.Size, c.Overlap, c.Text, "tokens")
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
		", ") + ", or " + noTokenizer + " (no tokenizer: the stand-in count, ceil(UTF-8 bytes " +
		"/ " + strconv.Itoa(chunk.EstimateBytes()) + "))"
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
	tok := chunk.Tokenizers[*c.Tokenizer]
	out, err := chunk.Tokens(*c.Text, tok, *c.Size, *c.Overlap)
	if err == nil && c.Limit != nil {
		out, err = chunk.SplitRefused(out, tok, *c.Limit)
	}
	return piecesAnswer(out), err
}
