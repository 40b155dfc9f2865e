package conformance

import "errors"

// FSAccess is a placeholder until the reference for fs_access lands.
var FSAccess = Define("fs_access", "spec", "(not implemented yet)", func(c map[string]any) (any, error) {
	return nil, errors.New("fs_access: the reference is not written yet")
})
