//go:build !unix && !windows

package term

// fdWidth is not known here (plan9, wasm): Width falls back to COLUMNS.
func fdWidth(uintptr) int { return 0 }
