package conformance

import "errors"

// Context is a placeholder until the reference for context lands.
var Context = Define("context", "spec", "(not implemented yet)", func(c map[string]any) (any, error) {
	return nil, errors.New("context: the reference is not written yet")
})
