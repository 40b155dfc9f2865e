package lazyre

import "testing"

// The expression is compiled once, on the first call, and a bad one panics there, not at start.
func TestNew(t *testing.T) {
	re := New(`^a+$`)
	if r := re(); r != re() || !r.MatchString("aaa") || r.MatchString("b") {
		t.Error("not one compiled ^a+$")
	}
	bad := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic on first use")
		}
	}()
	bad()
}
