// Package conformance is the area registry: for each area of the harness spec (and lembas-check's
// own), how a case decodes, how the reference answers it, and how two answers compare. A runner
// knows no area by name; it loads suites of `<area>.json` files and asks this package.
package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Area is one conformance area, a plain value: adding an area is adding one Area to All.
type Area struct {
	// Name is the area as the case file is named: `<name>.json`.
	Name string
	// Doc is one line saying what the area checks.
	Doc string
	// Origin is "spec" for the harness spec's own areas, "lembas-check" for this project's.
	Origin string
	// Decode checks a case (its JSON without "expect") and keeps it typed for Reference. A
	// malformed case is a *FieldError naming the field.
	Decode func(raw json.RawMessage) (any, error)
	// DecodeAnswer checks an answer (or an expectation) has the area's answer shape.
	DecodeAnswer func(raw json.RawMessage) (any, error)
	// Reference answers a decoded case with the reference implementation (harness/<area>).
	Reference func(c any) (any, error)
	// Steps is the area's Gherkin step vocabulary (internal/gherkin/steps): the phrases its feature,
	// conformance/features/<name>.feature, is written in. nil: the area has no features yet.
	Steps *steps.Vocabulary
	// caseType and answerType are C and A of Define, for Schema.
	caseType, answerType reflect.Type
}

// WithSteps is the area with its Gherkin step vocabulary.
func (a Area) WithSteps(v *steps.Vocabulary) Area {
	a.Steps = v
	return a
}

// FieldError is a malformed case or answer: which field, and what is wrong with it.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// Fieldf makes a FieldError; reference packages return it from a case's Validate method.
func Fieldf(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// orZero is an optional field's value, its type's zero when the case leaves it out (where the
// harness reads zero as "the default").
func orZero[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// Validator is a decoded case or answer that checks its own fields beyond their JSON types.
type Validator interface{ Validate() error }

// Define makes an Area from a case type C, an answer type A and the reference function. C and A
// decode strictly (an unknown field is an error); when they implement Validator, Validate runs
// after decoding.
func Define[C, A any](name, origin, doc string, ref func(C) (A, error)) Area {
	return Area{
		Name:       name,
		Doc:        doc,
		Origin:     origin,
		caseType:   reflect.TypeFor[C](),
		answerType: reflect.TypeFor[A](),
		Decode: func(raw json.RawMessage) (any, error) {
			var c C
			if err := decodeStrict(raw, &c); err != nil {
				return nil, err
			}
			return c, nil
		},
		DecodeAnswer: func(raw json.RawMessage) (any, error) {
			var a A
			if err := decodeStrict(raw, &a); err != nil {
				return nil, err
			}
			return a, nil
		},
		Reference: func(c any) (any, error) {
			tc, ok := c.(C)
			if !ok {
				return nil, fmt.Errorf("area %s: case of type %T, want %T", name, c, tc)
			}
			return ref(tc)
		},
	}
}

// decodeStrict decodes one JSON value into v, refusing unknown fields and trailing data, and
// turns encoding/json's errors into FieldErrors.
func decodeStrict(raw []byte, v any) error {
	if err := jsonx.Decode(raw, v); err != nil {
		return jsonFieldError(err)
	}
	if val, ok := v.(Validator); ok {
		return val.Validate()
	}
	if rv := reflect.ValueOf(v).Elem(); rv.CanInterface() {
		if val, ok := rv.Interface().(Validator); ok {
			return val.Validate()
		}
	}
	return nil
}

func jsonFieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "(top)"
		}
		return &FieldError{Field: field, Msg: fmt.Sprintf("is %s, want %s", te.Value, goTypeWords(te.Type))}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &FieldError{Msg: fmt.Sprintf("not JSON at byte %d: %v", se.Offset, err)}
	}
	if s := err.Error(); strings.HasPrefix(s, "json: unknown field ") {
		return &FieldError{Field: strings.Trim(strings.TrimPrefix(s, "json: unknown field "), `"`),
			Msg: "unknown field"}
	}
	return &FieldError{Msg: err.Error()}
}

// goTypeWords names a Go type as a JSON type, for messages a case author reads.
func goTypeWords(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}
