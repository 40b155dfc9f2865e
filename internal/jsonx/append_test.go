package jsonx

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"time"
)

// std is encoding/json's answer, the bytes Append must write.
func std(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

type inner struct {
	A string `json:"a"`
	B *int   `json:"b,omitempty"`
}

type hidden struct{ Deep string }

type shapes struct {
	inner
	*hidden
	Name string `json:"name"`
	Skip string `json:"-"`
	//lint:ignore SA5008 encoding/json names this field "-"; Append must too
	Dash  string          `json:"-,"`
	Empty []string        `json:"empty,omitempty"`
	Nil   []string        `json:"nil"`
	Map   map[string]*int `json:"map"`
	Any   any             `json:"any"`
	F32   float32         `json:"f32"`
	F64   float64         `json:"f64,omitempty"`
	U     uint8           `json:"u"`
	Arr   [2]bool         `json:"arr"`
	Raw   json.RawMessage `json:"raw,omitempty"`
	Bytes []byte          `json:"bytes"`
	When  time.Time       `json:"when"`
	Num   json.Number     `json:"num,omitempty"`
	Str   int             `json:"str,string"`
	//lint:ignore SA5008 a name encoding/json refuses leaves the Go name; Append must too
	Bad     string           `json:"a\"b"`
	Named   map[myKey]string `json:"named"`
	IntKeys map[int]string   `json:"int_keys,omitempty"`
	Ptrs    []*inner         `json:"ptrs"`
	Own     own              `json:"own"`
	Nested  map[string][]any `json:"nested"`
	Text    textual          `json:"text"`
	PtrText ptrTextual       `json:"ptr_text"`
	//lint:ignore U1000 encoding/json leaves it out; so must Append
	unexport string
	Iface    json.Marshaler    `json:"iface"`
	Deep2    map[string]shapes `json:"deep2,omitempty"`
}

type myKey string

type own struct{ X int }

func (o own) AppendJSON(b []byte) ([]byte, error) {
	return append(strconv.AppendInt(append(b, `{"x":`...), int64(o.X), 10), '}'), nil
}

func (o own) MarshalJSON() ([]byte, error) {
	b, err := o.AppendJSON(nil)
	return append(b, ' '), err // encoding/json compacts it
}

type textual struct{ v string }

func (t textual) MarshalText() ([]byte, error) { return []byte("<" + t.v + ">"), nil }

type ptrTextual struct{ v string }

func (t *ptrTextual) MarshalText() ([]byte, error) { return []byte("p:" + t.v), nil }

type list struct {
	Next *list `json:"next,omitempty"`
	V    int   `json:"v"`
}

func TestAppendIsMarshal(t *testing.T) {
	one := 1
	zero := 0
	values := []any{
		nil, true, 0, -12, uint64(math.MaxUint64), 1.5, math.Copysign(0, -1), 1e21, 1e-7, 123456789.0, float32(0.1),
		float32(1e-7), math.SmallestNonzeroFloat64, math.MaxFloat64,
		"", "plain", "<a> & \"b\" \\ \n\r\t\b\f\x00\x1f\x7f", "é\u2028\u2029\xff\xfe", "\xed\xa0\x80",
		[]string(nil), []string{}, []int{1, 2}, map[string]int(nil), map[string]int{"b": 2, "a": 1, "": 0},
		&one, (*int)(nil), []any{nil, "x", 2.5, map[string]any{"k": []any{}}},
		shapes{}, &shapes{inner: inner{A: "a", B: &zero}, hidden: &hidden{Deep: "d"}, Name: "<n>",
			Empty: []string{"e"}, Nil: nil, Map: map[string]*int{"z": &one, "y": nil}, Any: &inner{A: "p"},
			F32: 3.25, F64: math.Copysign(0, -1), U: 7, Arr: [2]bool{true}, Raw: json.RawMessage(` { "r" : [ 1 , 2 ] } `),
			Bytes: []byte("bytes"), Num: "12.50", Str: 42, Bad: "b", Named: map[myKey]string{"q": "Q"},
			IntKeys: map[int]string{2: "two", 10: "ten"}, Ptrs: []*inner{nil, {A: "i"}}, Own: own{X: 3},
			Nested: map[string][]any{"n": {true, nil}}, Text: textual{"t"}, PtrText: ptrTextual{"pt"},
			Iface: own{X: 9}, Deep2: map[string]shapes{"s": {Name: "inside"}}},
		[]shapes{{PtrText: ptrTextual{"addressable"}}},
		&list{V: 1, Next: &list{V: 2}},
		map[string]any{"f": math.Inf(1)}, []any{math.NaN()}, make(chan int), func() {},
	}
	for i, v := range values {
		want, werr := std(v)
		got, gerr := Append([]byte("prefix"), v)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("value %d (%T): error %v, encoding/json's %v", i, v, gerr, werr)
			continue
		}
		if werr != nil {
			if gerr.Error() != werr.Error() {
				t.Errorf("value %d (%T): error %q, encoding/json's %q", i, v, gerr, werr)
			}
			continue
		}
		if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[6:], want) {
			t.Errorf("value %d (%T):\n got %s\nwant prefix%s", i, v, got, want)
		}
	}
}

// A cycle ends in encoding/json's error, not a stack overflow.
func TestAppendCycle(t *testing.T) {
	l := &list{V: 1}
	l.Next = l
	_, werr := std(l)
	_, gerr := Append(nil, l)
	if werr == nil || gerr == nil || gerr.Error() != werr.Error() {
		t.Fatalf("a cycle: error %v, encoding/json's %v", gerr, werr)
	}
}

func FuzzAppendIsMarshal(f *testing.F) {
	for _, s := range []string{`{"a":"<x>","b":[1,2.5,-0,1e300]}`, `["\u2028",null,true]`, `"\ud800"`, `{"name":"n","map":{"k":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var plain any
		var typed shapes
		for _, v := range []any{&plain, &typed} {
			if json.Unmarshal(data, v) != nil {
				continue
			}
			want, werr := std(v)
			got, gerr := Append(nil, v)
			if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) && werr == nil {
				t.Fatalf("%s into %T:\n got %s (%v)\nwant %s (%v)", data, v, got, gerr, want, werr)
			}
		}
		s := string(data)
		want, _ := std(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("string %q:\n got %s\nwant %s", s, got, want)
		}
	})
}

// answerLike is the shape of a conformance answer: steps of pointers, lists and small maps.
type answerLike struct {
	Steps []struct {
		OK      *bool             `json:"ok,omitempty"`
		Entries *[]string         `json:"entries,omitempty"`
		Text    *string           `json:"text,omitempty"`
		View    map[string]string `json:"view,omitempty"`
	} `json:"steps"`
	Tools []inner `json:"tools"`
}

func BenchmarkAppend(b *testing.B) {
	var v answerLike
	yes, text, entries := true, "const a = 1\nexport { a }\n", []string{"src/", "README.md", "go.mod"}
	for i := range 32 {
		v.Steps = append(v.Steps, v.Steps[:0:0]...)
		v.Steps = append(v.Steps, struct {
			OK      *bool             `json:"ok,omitempty"`
			Entries *[]string         `json:"entries,omitempty"`
			Text    *string           `json:"text,omitempty"`
			View    map[string]string `json:"view,omitempty"`
		}{OK: &yes, Entries: &entries, Text: &text, View: map[string]string{"/": "rw", "/src": "r", "/tmp": strconv.Itoa(i)}})
		v.Tools = append(v.Tools, inner{A: "tool " + strconv.Itoa(i), B: &i})
	}
	b.Run("std", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := std(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Append(nil, v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
