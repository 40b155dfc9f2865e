package conformance

import "errors"

// Prefix is a placeholder until the reference for prefix lands.
var Prefix = Define("prefix", "spec", "(not implemented yet)", func(c map[string]any) (any, error) {
	return nil, errors.New("prefix: the reference is not written yet")
})
