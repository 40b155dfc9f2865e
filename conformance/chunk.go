package conformance

import "errors"

// Chunk is a placeholder until the reference for chunk lands.
var Chunk = Define("chunk", "lembas-check", "(not implemented yet)", func(c map[string]any) (any, error) {
	return nil, errors.New("chunk: the reference is not written yet")
})
