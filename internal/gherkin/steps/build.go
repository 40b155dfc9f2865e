package steps

// The Givens' and Whens' common forms: most set one field of the case to what the step gives, or
// add one step named by its op with the step's holes as its fields.

// setFrom is a step that sets the case's field key (in the map fields gives) to what read takes
// from the step: a docstring, its lines, a table. The field is set even when read fails, to what
// it read so far; the step then fails with read's error.
func setFrom[B, T any](fields func(*B) map[string]any, key string, read func(a *args) (T, error)) func(b *B,
	a *args) error {
	return func(b *B, a *args) error {
		v, err := read(a)
		fields(b)[key] = v
		return err
	}
}

// addOp is a step that adds one step {"op": op, keys[0]: hole 0, keys[1]: hole 1, …} with add.
func addOp[B any](add func(b *B, s map[string]any) error, op string, keys ...string) func(b *B, a *args) error {
	return func(b *B, a *args) error {
		s := map[string]any{"op": op}
		for i, k := range keys {
			s[k] = a.vals[i]
		}
		return add(b, s)
	}
}
