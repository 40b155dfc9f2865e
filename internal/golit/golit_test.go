package golit

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

type inner struct{ N int }

type sample struct {
	Name  string
	Note  *string
	Count *int
	Tags  []string
	None  []string
	Empty []string
	Kids  map[string]inner
	Anon  struct{ A string }
	Any   map[string]any
}

func TestWriteSpellsTheValue(t *testing.T) {
	note, count := "a`b", 3
	v := sample{Name: "x\ny", Note: &note, Count: &count, Tags: []string{"t"}, Empty: []string{},
		Kids: map[string]inner{"b": {2}, "a": {1}}, Anon: struct{ A string }{"z"},
		Any: map[string]any{"n": 1.5, "l": []any{"s", true, nil}}}
	w := Writer{Pkg: "golit"}
	var b bytes.Buffer
	if err := w.Write(&b, reflect.ValueOf(v)); err != nil {
		t.Fatal(err)
	}
	got := w.Vars() + b.String()
	want := "p0 := [...]string{\"a`b\"}\np1 := [...]int{int(3)}\n" +
		"sample{Name:`x\ny`,Note:&p0[0],Count:&p1[0],Tags:[]string{`t`,},Empty:[]string{}," +
		"Kids:map[string]inner{`a`:inner{N:int(1),},`b`:inner{N:int(2),},},Anon:struct { A string }{A:`z`,}," +
		"Any:map[string]interface {}{`l`:[]interface {}{`s`,true,nil,},`n`:float64(1.5),},}"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteRefusesWhatJSONDoesNotMake(t *testing.T) {
	var w Writer
	var b bytes.Buffer
	err := w.Write(&b, reflect.ValueOf(struct{ C chan int }{make(chan int)}))
	if err == nil || !strings.Contains(err.Error(), "chan") {
		t.Errorf("a channel: err %v, want one naming the kind", err)
	}
}

func TestStringIsRawWhereItCanBe(t *testing.T) {
	for in, want := range map[string]string{"": `""`, "a\tb": "`a\tb`", "a`b": "\"a`b\"", "a\rb": `"a\rb"`,
		"\xff": `"\xff"`} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %s, want %s", in, got, want)
		}
	}
}
