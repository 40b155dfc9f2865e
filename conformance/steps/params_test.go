package steps

import "testing"

// A quoted string in a step may hold a raw line break, tab or CR: an Examples cell's \n is one.
func TestUnquoteRawControls(t *testing.T) {
	got, err := unquote("\"a\nb\tc\rd\"")
	if err != nil || got != "a\nb\tc\rd" {
		t.Errorf("unquote = %q, %v", got, err)
	}
}
