package conformance

import (
	"github.com/LLeMbas/lembas-check/harness/chunk"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Chunk is conformance/chunk.json, the character splitter. The spec's file is not in the seed
// beyond its about, so the cases are lembas-check's own (cases/chunk.json), written from it.
var Chunk = Define("chunk", "lembas-check",
	"the pieces a knowledge document is cut into for search, measured in characters (conformance/chunk.json's "+
		"about)", answerChunk).WithSteps(steps.Chunk)

type chunkCase struct {
	About   string  `json:"about,omitempty"`
	Size    *int    `json:"size"`
	Overlap *int    `json:"overlap"`
	Text    *string `json:"text"`
}

func (c chunkCase) Validate() error { return validateSplit(c.Size, c.Overlap, c.Text, "characters") }

func answerChunk(c chunkCase) (piecesAnswer, error) {
	return piecesAnswer(chunk.Chars(*c.Text, *c.Size, *c.Overlap)), nil
}
