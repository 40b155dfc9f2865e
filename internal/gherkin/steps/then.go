package steps

import "fmt"

// A Then says one thing: this part of the answer is this value. An area's Thens differ in where
// the part is (a field, the item of the step or result the phrase names) and in where the value
// comes from (the phrase, its docstring, a hole); thenOf and the wants below put the two
// together, so each Then is one line of its vocabulary.

// want is what a Then says its part of the answer is, read from the step.
type want func(a *args) (any, error)

// docWant is the step's docstring, whole.
func docWant(a *args) (any, error) { return a.text() }

// valWant is the step's i-th hole, as read (a string, a number, a list).
func valWant(i int) want { return func(a *args) (any, error) { return a.vals[i], nil } }

// is is a value the phrase itself says: null, [], "".
func is(v any) want { return func(*args) (any, error) { return v, nil } }

// A text is a text a step gives: a hole's, or its docstring (whole, or as lines).
type text func(a *args) (string, error)

// holeText is the step's i-th hole, a string.
func holeText(i int) text { return func(a *args) (string, error) { return a.str(i), nil } }

// check adds the Then's check of part, with what w reads from the step.
func (a *args) check(part path, w want) error {
	v, err := w(a)
	if err != nil {
		return err
	}
	return a.expect(part, v)
}

// thenOf defines a Then about one item of the answer, which find locates from the step and what
// the scenario built so far (the step named by its place, the result by its id): below is the
// path under the item, w what the spec says is there.
func thenOf[B any](phrase string, arg argForm, doc string, find func(b *B, a *args) (int, error), below path, w want,
	columns ...string) stepDef {
	return step(Then, phrase, arg, doc, func(b *B, a *args) error {
		i, err := find(b, a)
		if err != nil {
			return err
		}
		return a.check(append(path{i}, below...), w)
	}, columns...)
}

// counted is the list index of the step's i-th hole, a number that counts things from 1.
func (a *args) counted(i int, things string) (int, error) {
	if a.num(i) < 1 {
		return 0, fmt.Errorf("%s count from 1", things)
	}
	return a.num(i) - 1, nil
}

// mapRows reads a table of n columns into one value a row.
func mapRows[T any](a *args, n int, f func(r []string) T) ([]T, error) {
	rows, err := a.rows(n)
	if err != nil {
		return nil, err
	}
	out := []T{}
	for _, r := range rows {
		out = append(out, f(r))
	}
	return out, nil
}

// tableWant is the step's table, one value a row, made by f from the row's n cells.
func tableWant[T any](n int, f func(r []string) T) want {
	return func(a *args) (any, error) { return mapRows(a, n, f) }
}

// cell is a one-column row's cell, as written.
func cell(r []string) string { return r[0] }

// field is w's value as the one field of an object {key: …}: an answer that is such an object.
func field(key string, w want) want {
	return func(a *args) (any, error) {
		v, err := w(a)
		return map[string]any{key: v}, err
	}
}

// thenPart defines a Then about a part of the answer the phrase alone names (no step, no result).
func thenPart[B any](phrase string, arg argForm, doc string, part path, w want, columns ...string) stepDef {
	return step(Then, phrase, arg, doc, func(b *B, a *args) error { return a.check(part, w) }, columns...)
}

// failsWith is the Then of an area whose answer is {"error": …} when the operation fails.
func failsWith[B any]() stepDef {
	return thenPart[B]("it fails with {text:error}", noArg, `the answer is {"error": …}, the error's exact text`, nil,
		field("error", valWant(0)))
}
