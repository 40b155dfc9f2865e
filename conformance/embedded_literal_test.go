package conformance

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// literal writes values as Go expressions of their own types, for embedded_decoded.go: the
// embedded cases' inputs decoded when lembas-check was built. It knows the kinds JSON decodes
// into (structs, pointers, slices, maps with string keys, strings, numbers, booleans) and
// refuses the rest, so a case type that grows another kind fails `go generate` rather than
// being written wrong. A zero field is left out; nil and empty slices and maps stay apart.
//
// A pointer to a number or a string points into an array per type (p0, p1, …: Vars declares
// them), so that a case of 2,000 tokens is made with one allocation per type, not two per token.
type literal struct {
	pools  []literalPool
	byType map[string]int
}

type literalPool struct {
	typ   string
	elems []string
}

// Vars declares the arrays the pointers written so far point into.
func (l *literal) Vars() string {
	var b strings.Builder
	for i, p := range l.pools {
		fmt.Fprintf(&b, "p%d := [...]%s{%s}\n", i, p.typ, strings.Join(p.elems, ", "))
	}
	return b.String()
}

// pointTo is an expression for a pointer to a new variable holding the value elem writes.
func (l *literal) pointTo(t reflect.Type, elem string) string {
	name := goTypeName(t)
	i, ok := l.byType[name]
	if !ok {
		if l.byType == nil {
			l.byType = map[string]int{}
		}
		i = len(l.pools)
		l.byType[name] = i
		l.pools = append(l.pools, literalPool{typ: name})
	}
	l.pools[i].elems = append(l.pools[i].elems, elem)
	return fmt.Sprintf("&p%d[%d]", i, len(l.pools[i].elems)-1)
}

func (l *literal) write(b *bytes.Buffer, v reflect.Value) error {
	goLiteral := l.write
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
		var elem bytes.Buffer
		if err := goLiteral(&elem, v.Elem()); err != nil {
			return err
		}
		b.WriteString(l.pointTo(t.Elem(), elem.String()))
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
