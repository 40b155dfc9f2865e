// Package golit writes values as Go expressions of their own types, for the tables `go generate`
// writes into the binary (conformance's embedded cases, the spec's decoded files): a value built
// from a literal costs no decoding when the program runs. It knows the kinds JSON decodes into
// (structs, pointers, slices, maps with string keys, strings, numbers, booleans, and interfaces
// holding those) and refuses the
// rest, so a type that grows another kind fails `go generate` rather than being written wrong. A
// zero field is left out; nil and empty slices and maps stay apart.
//
// A pointer to a number or a string points into an array per type (p0, p1, …: Vars declares
// them), so that a value of 2,000 tokens is made with one allocation per type, not two per token.
package golit

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Writer writes literals as package Pkg spells their types (its own types unqualified).
type Writer struct {
	Pkg    string
	pools  []pool
	byType map[string]int
}

type pool struct {
	typ   string
	elems []string
}

// Vars declares the arrays the pointers written so far point into.
func (l *Writer) Vars() string {
	var b strings.Builder
	for i, p := range l.pools {
		fmt.Fprintf(&b, "p%d := [...]%s{%s}\n", i, p.typ, strings.Join(p.elems, ", "))
	}
	return b.String()
}

// pointTo is an expression for a pointer to a new variable holding the value elem writes.
func (l *Writer) pointTo(t reflect.Type, elem string) string {
	name := l.TypeName(t)
	i, ok := l.byType[name]
	if !ok {
		if l.byType == nil {
			l.byType = map[string]int{}
		}
		i = len(l.pools)
		l.byType[name] = i
		l.pools = append(l.pools, pool{typ: name})
	}
	l.pools[i].elems = append(l.pools[i].elems, elem)
	return fmt.Sprintf("&p%d[%d]", i, len(l.pools[i].elems)-1)
}

// Write writes v as a Go expression.
func (l *Writer) Write(b *bytes.Buffer, v reflect.Value) error {
	goLiteral := l.Write
	t := v.Type()
	switch t.Kind() {
	case reflect.String:
		if t.PkgPath() != "" {
			fmt.Fprintf(b, "%s(%s)", l.TypeName(t), String(v.String()))
		} else {
			b.WriteString(String(v.String()))
		}
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int64:
		fmt.Fprintf(b, "%s(%d)", l.TypeName(t), v.Int())
	case reflect.Float64:
		fmt.Fprintf(b, "%s(%s)", l.TypeName(t), strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		return goLiteral(b, v.Elem()) // a JSON value: map[string]any, []any, string, float64, bool
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
		return l.writeSlice(b, v)
	case reflect.Map:
		return l.writeMap(b, v)
	case reflect.Struct:
		return l.writeStruct(b, v)
	default:
		return fmt.Errorf("%s: a %s is not a kind JSON decodes into", t, t.Kind())
	}
	return nil
}

func (l *Writer) writeSlice(b *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	if v.IsNil() {
		fmt.Fprintf(b, "%s(nil)", l.TypeName(t))
		return nil
	}
	if t.Elem().Kind() == reflect.Uint8 {
		fmt.Fprintf(b, "%s(%s)", l.TypeName(t), String(string(v.Bytes())))
		return nil
	}
	fmt.Fprintf(b, "%s{", l.TypeName(t))
	for i := range v.Len() {
		if err := l.Write(b, v.Index(i)); err != nil {
			return err
		}
		b.WriteString(",")
	}
	b.WriteString("}")
	return nil
}

// writeMap writes a map with its keys sorted, so that a table is written the same every time.
func (l *Writer) writeMap(b *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	if t.Key().Kind() != reflect.String {
		return fmt.Errorf("%s: a map's keys are strings in JSON", t)
	}
	if v.IsNil() {
		fmt.Fprintf(b, "%s(nil)", l.TypeName(t))
		return nil
	}
	keys := v.MapKeys()
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	fmt.Fprintf(b, "%s{", l.TypeName(t))
	for _, k := range keys {
		b.WriteString(String(k.String()) + ":")
		if err := l.Write(b, v.MapIndex(k)); err != nil {
			return err
		}
		b.WriteString(",")
	}
	b.WriteString("}")
	return nil
}

func (l *Writer) writeStruct(b *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	fmt.Fprintf(b, "%s{", l.TypeName(t))
	for i := range t.NumField() {
		if v.Field(i).IsZero() {
			continue
		}
		b.WriteString(t.Field(i).Name + ":")
		if err := l.Write(b, v.Field(i)); err != nil {
			return err
		}
		b.WriteString(",")
	}
	b.WriteString("}")
	return nil
}

// TypeName is t as written in package Pkg.
func (l *Writer) TypeName(t reflect.Type) string {
	if l.Pkg == "" {
		return t.String()
	}
	return strings.ReplaceAll(t.String(), l.Pkg+".", "")
}

// String is s as a Go literal: raw (backquoted) where it can be, so a table reads as the files it
// was made of do, else quoted.
func String(s string) string {
	raw := utf8.ValidString(s) && !strings.ContainsAny(s, "`\r\ufeff")
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			raw = false
		}
	}
	if raw && s != "" {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// GoFile is a generated file of package pkg: the header that tells go vet, linters and reviewers
// not to edit it (generator says how it is made again), then body, formatted.
func GoFile(pkg, generator string, body []byte) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by " + generator + "; DO NOT EDIT.\n\npackage " + pkg + "\n\n")
	b.Write(body)
	return format.Source(b.Bytes())
}

// WriteGoFile writes GoFile(pkg, generator, body) at path.
func WriteGoFile(path, pkg, generator string, body []byte) error {
	src, err := GoFile(pkg, generator, body)
	if err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o644)
}
