package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Marshal says what encoding/json cannot write.
func TestMarshalError(t *testing.T) {
	if b, err := Marshal(func() {}); err == nil {
		t.Fatalf("Marshal(func) = %s, want an error", b)
	}
}

// Marshal writes `<`, `>` and `&` as they are, and everything else as json.Marshal does.
func TestMarshalKeepsHTMLCharacters(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{"<session-note> a & b </session-note>", `"<session-note> a & b </session-note>"`},
		{map[string]any{"b": "<x>", "a": 1}, `{"a":1,"b":"<x>"}`},
		// encoding/json still escapes U+2028 and U+2029 (JavaScript line ends) and control bytes.
		{"a\u2028b\u2029\x01\n", `"a\u2028b\u2029\u0001\n"`},
		{json.RawMessage(`{"k":"<&>"}`), `{"k":"<&>"}`},
		{nil, `null`},
	} {
		got, err := Marshal(c.v)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", c.v, err)
		}
		if string(got) != c.want {
			t.Errorf("Marshal(%#v) = %s, want %s", c.v, got, c.want)
		}
		if s, ok := c.v.(string); ok && string(String(s)) != c.want {
			t.Errorf("String(%q) = %s, want %s", s, String(s), c.want)
		}
	}
}

func TestNewEncoderWritesLines(t *testing.T) {
	var b bytes.Buffer
	enc := NewEncoder(&b)
	for _, v := range []string{"<a>", "&"} {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	if want := "\"<a>\"\n\"&\"\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestDecode(t *testing.T) {
	type T struct {
		A int    `json:"a"`
		B string `json:"b"`
	}
	var v T
	if err := Decode([]byte(" {\"a\":1,\"b\":\"<x>\"}\n\n"), &v); err != nil || v != (T{1, "<x>"}) {
		t.Fatalf("Decode = %+v, %v; want {1 <x>}, nil", v, err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"c":2}`, `unknown field "c"`},
		{`{"a":1}` + "\n\n" + `{"a":2}`, "line 3: more follows the JSON value"},
		{`{"a":1}]`, "line 1: more follows the JSON value"},
		{`{"a":1} x`, "line 1: more follows the JSON value"},
		{" \n", "no JSON value"},
		{`{"a":`, "unexpected EOF"},
		{`{"a":"1"}`, "cannot unmarshal string"},
	} {
		var v T
		err := Decode([]byte(c.in), &v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(%q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
	var te *json.UnmarshalTypeError
	if err := Decode([]byte(`{"a":"1"}`), &v); !errors.As(err, &te) {
		t.Errorf("Decode's type error is %T, want *json.UnmarshalTypeError", err)
	}
}

// FuzzDecode checks Decode against json.Valid: it takes exactly the inputs that are one JSON
// value (but a number too large for a float64, 1e700, a type error), and what it reads writes
// back (Marshal) as a value that decodes to the same.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,"<x>",null]}`, `1 2`, `{}]`, `[1,]`, " \"\\u2028\" ", ``, `{"a":1}{`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v any
		err := Decode(b, &v)
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && strings.HasPrefix(te.Value, "number") && json.Valid(b) {
			return
		}
		if valid := json.Valid(b); (err == nil) != valid {
			t.Fatalf("Decode(%q) = %v, but json.Valid = %v", b, err, valid)
		}
		if err != nil {
			return
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(Decode(%q)): %v", b, err)
		}
		var w any
		if err := Decode(out, &w); err != nil || !reflect.DeepEqual(v, w) {
			t.Fatalf("Decode(Marshal(Decode(%q))) = %#v, %v; want %#v", b, w, err, v)
		}
	})
}

func TestSkipSpace(t *testing.T) {
	for _, c := range []struct {
		in      string
		at, end int
	}{{"", 0, 0}, {" \t\r\n{", 0, 4}, {"a ", 0, 0}, {"a  b", 1, 3}, {"   ", 1, 3}, {"\v", 0, 0}} {
		if got := SkipSpace([]byte(c.in), c.at); got != c.end {
			t.Errorf("SkipSpace(%q, %d) = %d, want %d", c.in, c.at, got, c.end)
		}
	}
}
