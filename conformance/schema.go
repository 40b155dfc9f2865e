package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// SchemaDraft is the JSON Schema dialect of Schema's documents.
const SchemaDraft = "https://json-schema.org/draft/2020-12/schema"

// Schema is the area's JSON Schema document: its case (a case file's object without "expect")
// and its answer (the shape of "expect"), as $defs. It is made from the Go types Define was
// given, by reflection, so a field added to an area's type is in its schema: this is the one
// place a schema comes from (the command `schema`, the runner's check of an answer, the kits'
// generated types).
func (a Area) Schema() map[string]any {
	return map[string]any{
		"$schema":     SchemaDraft,
		"$id":         "https://github.com/LLeMbas/lembas-check/schema/" + a.Name + ".json",
		"title":       a.Name,
		"description": a.Doc,
		"$defs": map[string]any{
			"case":   typeSchema(a.caseType, nil),
			"answer": typeSchema(a.answerType, nil),
		},
	}
}

// AnswerSchema is the schema of the area's answer.
func (a Area) AnswerSchema() map[string]any { return typeSchema(a.answerType, nil) }

// schemaAs is a type whose JSON is read by its own UnmarshalJSON and says which type's schema
// describes it (opt[T]: T's, the field optional).
type schemaAs interface{ SchemaAs() reflect.Type }

// schemaOwn is a type that gives its schema outright (exitVal: an integer or null).
type schemaOwn interface{ JSONSchema() map[string]any }

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	rawType         = reflect.TypeFor[json.RawMessage]()
)

// typeSchema is t's schema as encoding/json reads it, with the rule lembas-check's strict decoder
// adds (no unknown field) and two more: a field that is not a pointer, not omitempty, is
// required; null is a value only where a pointer is in a map or slice, or a type says so.
func typeSchema(t reflect.Type, seen map[reflect.Type]bool) map[string]any {
	if t == nil {
		return map[string]any{}
	}
	if s, ok := own(t); ok {
		return s
	}
	if a, ok := reflect.Zero(t).Interface().(schemaAs); ok && t.Kind() != reflect.Pointer {
		return typeSchema(a.SchemaAs(), seen)
	}
	if t == rawType || t.Kind() == reflect.Interface {
		return map[string]any{}
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshalerType) {
		return map[string]any{"description": "read by its own rules (lembas-check docs/areas.md)"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		// A pointer in a map or a slice is null or a value (a field's pointer: see addFields).
		return nullable(typeSchema(t.Elem(), seen))
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem(), seen)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": typeSchema(t.Elem(), seen)}
	case reflect.Struct:
		return structSchema(t, seen)
	}
	return map[string]any{}
}

// nullable is s with null among its types.
func nullable(s map[string]any) map[string]any {
	t, ok := s["type"].(string)
	if !ok {
		return s
	}
	out := map[string]any{}
	for k, v := range s {
		out[k] = v
	}
	out["type"] = []string{t, "null"}
	return out
}

func own(t reflect.Type) (map[string]any, bool) {
	if s, ok := reflect.Zero(t).Interface().(schemaOwn); ok && t.Kind() != reflect.Pointer {
		return s.JSONSchema(), true
	}
	return nil, false
}

// structSchema is an object of the struct's JSON fields (embedded structs' fields in it).
func structSchema(t reflect.Type, seen map[reflect.Type]bool) map[string]any {
	if seen[t] {
		return map[string]any{} // a recursive type: described once, not forever
	}
	inner := map[reflect.Type]bool{t: true}
	for k := range seen {
		inner[k] = true
	}
	props := map[string]any{}
	var required []string
	addFields(t, inner, props, &required)
	sort.Strings(required)
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func addFields(t reflect.Type, seen map[reflect.Type]bool, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			addFields(f.Type, seen, props, required)
			continue
		}
		name := tag
		if name == "" {
			name = f.Name
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem() // a field's pointer says the field may be left out, not that it may be null
		}
		props[name] = typeSchema(ft, seen)
		if optional(f.Type, opts) {
			continue
		}
		*required = append(*required, name)
	}
}

// optional says whether a field may be left out: a pointer, omitempty, a slice or map (absent is
// empty), or a type read by its own rules.
func optional(t reflect.Type, opts string) bool {
	if strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,") {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	if _, ok := reflect.Zero(t).Interface().(schemaAs); ok {
		return true
	}
	return t == rawType || reflect.PointerTo(t).Implements(unmarshalerType)
}

// WriteSchemas writes the schema documents of the areas named (every area's when none is), as
// one JSON object by area name, indented for people and for the kits' generator.
func WriteSchemas(w io.Writer, names ...string) error {
	docs := map[string]any{}
	if len(names) == 0 {
		names = AreaNames()
	}
	for _, n := range names {
		a, ok := ByName(n)
		if !ok {
			return fmt.Errorf("schema: no area %q; the areas are %s", n, strings.Join(AreaNames(), ", "))
		}
		docs[n] = a.Schema()
	}
	var out any = docs
	if len(names) == 1 {
		out = docs[names[0]]
	}
	enc := jsonx.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// AreaNames is every area's name, in order.
func AreaNames() []string {
	var names []string
	for _, a := range All() {
		names = append(names, a.Name)
	}
	return names
}
