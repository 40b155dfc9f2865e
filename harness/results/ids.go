package results

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// FormatID is the id of the session's n-th result (n from 1): `#` and n in lowercase hex, at
// least loop.json ids.digits digits — #0001, #000a, #10000 (context.md §1).
func FormatID(n uint64) string {
	if n < 1 {
		panic("results: result numbers count from 1")
	}
	return fmt.Sprintf("#%0*x", spec.LoopJSON().Context.IDs.Digits, n)
}

// ParseID is the number of a well-formed id: exactly what FormatID writes for it, so #00001,
// #A001 and #0 are not ids.
func ParseID(id string) (uint64, bool) {
	digits, ok := strings.CutPrefix(id, "#")
	if !ok || digits == "" || strings.ToLower(digits) != digits {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 16, 64)
	if err != nil || n < 1 || FormatID(n) != id {
		return 0, false
	}
	return n, true
}
