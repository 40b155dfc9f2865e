package conformance

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// goLiteral writes v as a Go expression of its own type, for embedded_decoded.go: the embedded
// cases' inputs decoded when lembas-check was built. It knows the kinds JSON decodes into
// (structs, pointers, slices, maps with string keys, strings, numbers, booleans) and refuses the
// rest, so a case type that grows another kind fails `go generate` rather than being written
// wrong. A zero field is left out; nil and empty slices and maps stay apart.
func goLiteral(b *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	switch t.Kind() {
	case reflect.String:
		if t.PkgPath() != "" {
			fmt.Fprintf(b, "%s(%s)", goTypeName(t), goString(v.String()))
		} else {
			b.WriteString(goString(v.String()))
		}
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int64:
		fmt.Fprintf(b, "%s(%d)", goTypeName(t), v.Int())
	case reflect.Float64:
		fmt.Fprintf(b, "%s(%s)", goTypeName(t), strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if t.Elem().Kind() == reflect.Struct {
			b.WriteString("&")
			return goLiteral(b, v.Elem())
		}
		b.WriteString("new(")
		if err := goLiteral(b, v.Elem()); err != nil {
			return err
		}
		b.WriteString(")")
	case reflect.Slice:
		if v.IsNil() {
			fmt.Fprintf(b, "%s(nil)", goTypeName(t))
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(b, "%s(%s)", goTypeName(t), goString(string(v.Bytes())))
			return nil
		}
		fmt.Fprintf(b, "%s{", goTypeName(t))
		for i := range v.Len() {
			if err := goLiteral(b, v.Index(i)); err != nil {
				return err
			}
			b.WriteString(",")
		}
		b.WriteString("}")
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return fmt.Errorf("%s: a map's keys are strings in JSON", t)
		}
		if v.IsNil() {
			fmt.Fprintf(b, "%s(nil)", goTypeName(t))
			return nil
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		fmt.Fprintf(b, "%s{", goTypeName(t))
		for _, k := range keys {
			b.WriteString(goString(k.String()) + ":")
			if err := goLiteral(b, v.MapIndex(k)); err != nil {
				return err
			}
			b.WriteString(",")
		}
		b.WriteString("}")
	case reflect.Struct:
		fmt.Fprintf(b, "%s{", goTypeName(t))
		for i := range t.NumField() {
			if v.Field(i).IsZero() {
				continue
			}
			b.WriteString(t.Field(i).Name + ":")
			if err := goLiteral(b, v.Field(i)); err != nil {
				return err
			}
			b.WriteString(",")
		}
		b.WriteString("}")
	default:
		return fmt.Errorf("%s: a %s is not a kind a case decodes into", t, t.Kind())
	}
	return nil
}

// goTypeName is t as written in package conformance.
func goTypeName(t reflect.Type) string {
	return strings.ReplaceAll(t.String(), "conformance.", "")
}
