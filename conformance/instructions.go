package conformance

import "errors"

// Instructions is a placeholder until the reference for instructions lands.
var Instructions = Define("instructions", "spec", "(not implemented yet)", func(c map[string]any) (any, error) {
	return nil, errors.New("instructions: the reference is not written yet")
})
