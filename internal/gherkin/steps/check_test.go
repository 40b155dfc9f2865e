package steps

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// samePlain's verdict is cmp.Equal's on decoded JSON values, nil and empty lists and objects
// apart as cmp keeps them; another type is left to cmp.
func TestSamePlainIsCmpEqual(t *testing.T) {
	vals := []any{nil, true, false, 1.0, 2.0, "a", "", []any{}, []any(nil), []any{1.0}, []any{1.0, "a"},
		map[string]any{}, map[string]any(nil), map[string]any{"a": 1.0}, map[string]any{"a": []any{nil}},
		map[string]any{"b": 1.0}}
	for _, a := range vals {
		for _, b := range vals {
			eq, ok := samePlain(a, b)
			if !ok || eq != cmp.Equal(a, b) {
				t.Errorf("samePlain(%#v, %#v) = %v, %v; cmp.Equal %v", a, b, eq, ok, cmp.Equal(a, b))
			}
		}
	}
	if _, ok := samePlain(1, 1); ok {
		t.Error("an int is not a decoded JSON value: cmp compares it")
	}
}
