package conformance

import "errors"

// ChunkTokens is a placeholder until the reference for chunk_tokens lands.
var ChunkTokens = Define("chunk_tokens", "spec", "(not implemented yet)", func(c map[string]any) (any, error) {
	return nil, errors.New("chunk_tokens: the reference is not written yet")
})
