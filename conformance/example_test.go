package conformance_test

import (
	"fmt"

	"github.com/LLeMbas/lembas-check/conformance"
)

// A case's id is its area and the start of the SHA-256 of its canonical form (RFC 8785), so
// the same case written with other spacing or key order has the same id.
func ExampleCaseID() {
	a, _ := conformance.Canonical([]byte(`{"b": 1, "a": "x"}`))
	b, _ := conformance.Canonical([]byte(`{"a":"x","b":1}`))
	fmt.Println(string(a), conformance.CaseID("jobs", a) == conformance.CaseID("jobs", b))
	// Output: {"a":"x","b":1} true
}
