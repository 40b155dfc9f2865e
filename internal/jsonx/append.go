package jsonx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Append appends v's JSON to b, the same bytes as Marshal writes. It is Marshal without its
// costs for plain data (structs, pointers, slices, maps with string keys, strings, numbers):
// encoding/json's buffer and state are not allocated, and a value whose type has an
// AppendJSON method is written by it, not marshalled, checked and compacted again. Anything
// else (a json.Marshaler or encoding.TextMarshaler, []byte, non-string map keys, `string` and
// `omitzero` options, NaN, a cycle) goes to encoding/json, so the bytes stay Marshal's;
// TestAppendIsMarshal and FuzzAppendIsMarshal hold the two together.
func Append(b []byte, v any) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	rv := reflect.ValueOf(v)
	return encoderOf(rv.Type())(b, rv, 0)
}

// Appender is a type that writes its own JSON: compact, valid, and without HTML escaping, as
// Append writes. Its MarshalJSON, if it has one, should return AppendJSON(nil).
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// encodeFunc appends v's JSON; depth counts the pointers and interfaces followed, so that a
// cycle ends in encoding/json's error, not a stack overflow.
type encodeFunc func(b []byte, v reflect.Value, depth int) ([]byte, error)

// deepest is the depth past which a value goes to encoding/json, which detects cycles there.
const deepest = 1000

var encoders sync.Map // reflect.Type → encodeFunc

var (
	appenderType      = reflect.TypeFor[Appender]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func encoderOf(t reflect.Type) encodeFunc {
	if f, ok := encoders.Load(t); ok {
		return f.(encodeFunc)
	}
	// A recursive type reaches itself while its encoder is made: it finds this indirection,
	// which calls the real encoder once it is stored.
	var (
		wg sync.WaitGroup
		f  encodeFunc
	)
	wg.Add(1)
	fi, loaded := encoders.LoadOrStore(t, encodeFunc(func(b []byte, v reflect.Value, depth int) ([]byte, error) {
		wg.Wait()
		return f(b, v, depth)
	}))
	if loaded {
		return fi.(encodeFunc)
	}
	f = newEncoder(t)
	wg.Done()
	encoders.Store(t, f)
	return f
}

func newEncoder(t reflect.Type) encodeFunc {
	if t.Implements(appenderType) {
		return appendOwn
	}
	if marshalsItself(t) {
		return byEncodingJSON
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, v reflect.Value, _ int) ([]byte, error) { return strconv.AppendBool(b, v.Bool()), nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value, _ int) ([]byte, error) { return strconv.AppendInt(b, v.Int(), 10), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(b []byte, v reflect.Value, _ int) ([]byte, error) {
			return strconv.AppendUint(b, v.Uint(), 10), nil
		}
	case reflect.Float32:
		return floatEncoder(32)
	case reflect.Float64:
		return floatEncoder(64)
	case reflect.String:
		if t == reflect.TypeFor[json.Number]() {
			return byEncodingJSON
		}
		return func(b []byte, v reflect.Value, _ int) ([]byte, error) { return AppendString(b, v.String()), nil }
	case reflect.Interface:
		return interfaceEncoder
	case reflect.Pointer:
		return pointerEncoder(t)
	case reflect.Slice:
		return sliceEncoder(t)
	case reflect.Array:
		enc := encoderOf(t.Elem())
		return func(b []byte, v reflect.Value, depth int) ([]byte, error) { return appendList(b, v, enc, depth) }
	case reflect.Map:
		if t.Key().Kind() != reflect.String || t.Key().Implements(textMarshalerType) {
			return byEncodingJSON
		}
		return mapEncoder(t)
	case reflect.Struct:
		return structEncoder(t)
	}
	return byEncodingJSON // chan, func, complex: encoding/json's own error
}

// marshalsItself says whether t, or a pointer to it, has its own JSON or text form, which
// encoding/json then calls; Append leaves those to it rather than copy its addressability rules.
func marshalsItself(t reflect.Type) bool {
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	if t.Kind() == reflect.Pointer {
		return false
	}
	p := reflect.PointerTo(t)
	return p.Implements(appenderType) || p.Implements(marshalerType) || p.Implements(textMarshalerType)
}

func interfaceEncoder(b []byte, v reflect.Value, depth int) ([]byte, error) {
	if v.IsNil() {
		return append(b, "null"...), nil
	}
	if depth > deepest {
		return byEncodingJSON(b, v, depth)
	}
	e := v.Elem()
	return encoderOf(e.Type())(b, e, depth+1)
}

func pointerEncoder(t reflect.Type) encodeFunc {
	enc := encoderOf(t.Elem())
	return func(b []byte, v reflect.Value, depth int) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if depth > deepest {
			return byEncodingJSON(b, v, depth)
		}
		return enc(b, v.Elem(), depth+1)
	}
}

func sliceEncoder(t reflect.Type) encodeFunc {
	if t.Elem().Kind() == reflect.Uint8 {
		return byEncodingJSON
	}
	enc := encoderOf(t.Elem())
	if t == reflect.TypeFor[[]string]() {
		return func(b []byte, v reflect.Value, depth int) ([]byte, error) {
			if v.CanInterface() {
				return appendStrings(b, v.Interface().([]string)), nil
			}
			if v.IsNil() {
				return append(b, "null"...), nil
			}
			return appendList(b, v, enc, depth)
		}
	}
	return func(b []byte, v reflect.Value, depth int) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		return appendList(b, v, enc, depth)
	}
}

func appendOwn(b []byte, v reflect.Value, _ int) ([]byte, error) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return append(b, "null"...), nil
	}
	return v.Interface().(Appender).AppendJSON(b)
}

// byEncodingJSON is encoding/json's answer for v, taken by address where v has one, as
// encoding/json takes a pointer method's marshaller.
func byEncodingJSON(b []byte, v reflect.Value, _ int) ([]byte, error) {
	x := v.Interface()
	if v.CanAddr() && v.Kind() != reflect.Pointer {
		x = v.Addr().Interface()
	}
	buf := bytes.NewBuffer(b)
	if err := NewEncoder(buf).Encode(x); err != nil {
		return b, err
	}
	out := buf.Bytes()
	return out[:len(out)-1], nil // Encode's newline
}

func appendList(b []byte, v reflect.Value, enc encodeFunc, depth int) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i := range v.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = enc(b, v.Index(i), depth); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

func mapEncoder(t reflect.Type) encodeFunc {
	enc := encoderOf(t.Elem())
	generic := func(b []byte, v reflect.Value, depth int) ([]byte, error) {
		type entry struct {
			key string
			v   reflect.Value
		}
		entries := make([]entry, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, entry{it.Key().String(), it.Value()})
		}
		slices.SortFunc(entries, func(x, y entry) int { return strings.Compare(x.key, y.key) })
		b = append(b, '{')
		var err error
		for i, e := range entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(AppendString(b, e.key), ':')
			if b, err = enc(b, e.v, depth); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
	// The maps answers hold most are read as Go maps, without reflect's copies.
	var direct func(b []byte, m any) []byte
	switch t {
	case reflect.TypeFor[map[string]string]():
		direct = func(b []byte, m any) []byte {
			return appendMap(b, m.(map[string]string), AppendString)
		}
	case reflect.TypeFor[map[string][]string]():
		direct = func(b []byte, m any) []byte {
			return appendMap(b, m.(map[string][]string), appendStrings)
		}
	case reflect.TypeFor[map[string]*string]():
		direct = func(b []byte, m any) []byte {
			return appendMap(b, m.(map[string]*string), func(b []byte, s *string) []byte {
				if s == nil {
					return append(b, "null"...)
				}
				return AppendString(b, *s)
			})
		}
	}
	return func(b []byte, v reflect.Value, depth int) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if direct != nil && v.CanInterface() {
			return direct(b, v.Interface()), nil
		}
		return generic(b, v, depth)
	}
}

func appendMap[V any](b []byte, m map[string]V, value func([]byte, V) []byte) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(AppendString(b, k), ':')
		b = value(b, m[k])
	}
	return append(b, '}')
}

func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, s)
	}
	return append(b, ']')
}

// field is a struct field as encoding/json writes it: its name (quoted, with the colon), where
// it is (the index path through embedded structs) and whether an empty value is left out.
type field struct {
	key       string
	index     []int
	omitEmpty bool
	typ       reflect.Type
}

func structEncoder(t reflect.Type) encodeFunc {
	fields, ok := structFields(t)
	if !ok {
		return byEncodingJSON
	}
	encs := make([]encodeFunc, len(fields))
	for i, f := range fields {
		encs[i] = encoderOf(f.typ)
	}
	return func(b []byte, v reflect.Value, depth int) ([]byte, error) {
		b = append(b, '{')
		first := true
		var err error
	next:
		for i := range fields {
			f := &fields[i]
			fv := v
			for _, x := range f.index[:len(f.index)-1] {
				fv = fv.Field(x)
				if fv.Kind() == reflect.Pointer {
					if fv.IsNil() {
						continue next
					}
					fv = fv.Elem()
				}
			}
			fv = fv.Field(f.index[len(f.index)-1])
			if f.omitEmpty && isEmpty(fv) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, f.key...)
			if b, err = encs[i](b, fv, depth); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
}

// structFields lists t's fields as encoding/json finds them: exported ones and those of
// embedded structs, a name's shallowest field winning. A struct where two fields share a
// name or an option Append leaves to encoding/json (`string`, `omitzero`) says !ok.
func structFields(t reflect.Type) ([]field, bool) {
	var out []field
	seen := map[string]bool{}
	var walk func(t reflect.Type, index []int) bool
	walk = func(t reflect.Type, index []int) bool {
		for i := range t.NumField() {
			sf := t.Field(i)
			if sf.Anonymous {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if !validTag(name) {
				name = ""
			}
			at := append(append([]int(nil), index...), i)
			ft := sf.Type
			if ft.Name() == "" && ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
				if !walk(ft, at) {
					return false
				}
				continue
			}
			if name == "" {
				name = sf.Name
			}
			omit := false
			for opt := range strings.SplitSeq(opts, ",") {
				switch opt {
				case "omitempty":
					omit = true
				case "string", "omitzero":
					return false
				}
			}
			if seen[name] {
				return false // encoding/json's dominance rules: not needed here, so not copied
			}
			seen[name] = true
			key := string(AppendString(nil, name)) + ":"
			out = append(out, field{key: key, index: at, omitEmpty: omit, typ: sf.Type})
		}
		return true
	}
	if !walk(t, nil) {
		return nil, false
	}
	// encoding/json writes fields in index order, embedded ones where they are embedded.
	slices.SortStableFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	return out, true
}

// validTag is encoding/json's test of a tag's name; one it refuses leaves the Go name.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0 // -0 too, as encoding/json
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

func floatEncoder(bits int) encodeFunc {
	return func(b []byte, v reflect.Value, depth int) ([]byte, error) {
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return byEncodingJSON(b, v, depth) // encoding/json's UnsupportedValueError
		}
		// encoding/json's format: ES6's, 'f' but for very small and very large numbers, and
		// an exponent without a leading zero (1e-07 → 1e-7).
		format := byte('f')
		if a := math.Abs(f); a != 0 {
			if bits == 64 && (a < 1e-6 || a >= 1e21) || bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21) {
				format = 'e'
			}
		}
		b = strconv.AppendFloat(b, f, format, -1, bits)
		if format == 'e' {
			if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
				b[n-2] = b[n-1]
				b = b[:n-1]
			}
		}
		return b, nil
	}
}

// AppendString appends s as a JSON string as Marshal writes it: no HTML escaping, control
// characters escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
