package spec_test

import (
	"fmt"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// The vendored spec's version, and whether every file still matches its pinned SHA-256.
func ExampleVerify() {
	fmt.Println(spec.Version(), spec.Verify() == nil)
	// Output: 3.1.0 true
}
