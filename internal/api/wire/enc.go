package wire

import (
	"math"
	"strconv"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// enc appends JSON in the order it is told, so each server's field order is reproduced exactly
// (encoding/json would sort map keys or follow one struct's order for every dialect).
type enc struct {
	b     []byte
	first bool // the next value or key opens a container or follows a key: no comma
}

func (e *enc) sep() {
	if !e.first {
		e.b = append(e.b, ',')
	}
	e.first = false
}

func (e *enc) obj()    { e.sep(); e.b = append(e.b, '{'); e.first = true }
func (e *enc) arr()    { e.sep(); e.b = append(e.b, '['); e.first = true }
func (e *enc) end()    { e.b = append(e.b, '}'); e.first = false }
func (e *enc) endArr() { e.b = append(e.b, ']'); e.first = false }

func (e *enc) key(k string) {
	e.sep()
	e.b = appendString(e.b, k)
	e.b = append(e.b, ':')
	e.first = true
}

func (e *enc) str(v string) { e.sep(); e.b = appendString(e.b, v) }
func (e *enc) null()        { e.sep(); e.b = append(e.b, "null"...) }
func (e *enc) int(v int64)  { e.sep(); e.b = strconv.AppendInt(e.b, v, 10) }
func (e *enc) bool(v bool)  { e.sep(); e.b = strconv.AppendBool(e.b, v) }
func (e *enc) raw(v []byte) { e.sep(); e.b = append(e.b, v...) }
func (e *enc) float(v float64) {
	e.sep()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0 // JSON has neither; a rate over zero tokens is reported as 0
	}
	f := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		f = 'e'
	}
	e.b = strconv.AppendFloat(e.b, v, f, -1, 64)
}

func (e *enc) kstr(k, v string) { e.key(k); e.str(v) }
func (e *enc) kint(k string, v int64) {
	e.key(k)
	e.int(v)
}
func (e *enc) kfloat(k string, v float64) { e.key(k); e.float(v) }
func (e *enc) knull(k string)             { e.key(k); e.null() }
func (e *enc) kbool(k string, v bool)     { e.key(k); e.bool(v) }

// kstrs writes k with an array of strings ([] for none).
func (e *enc) kstrs(k string, vs ...string) {
	e.key(k)
	e.arr()
	for _, v := range vs {
		e.str(v)
	}
	e.endArr()
}

// kobjs writes k with an array of objects, one for each item, whose members members writes.
func kobjs[T any](e *enc, k string, items []T, members func(T)) {
	e.key(k)
	e.arr()
	for _, it := range items {
		e.obj()
		members(it)
		e.end()
	}
	e.endArr()
}

// kstrOrNull writes null for an empty string.
func (e *enc) kstrOrNull(k, v string) {
	e.key(k)
	if v == "" {
		e.null()
	} else {
		e.str(v)
	}
}

// appendString appends s as a JSON string as encoding/json writes it (\b and \f too, as Python's
// json.dumps does): one writer for every JSON string lembas-check makes.
func appendString(b []byte, s string) []byte { return jsonx.AppendString(b, s) }

// Object is a JSON object whose members are written in the order given (as the API orders
// them), without HTML escaping.
type Object []Member

// Member is one member of an Object.
type Member struct {
	Key   string
	Value any
}

// Obj is an Object of keys and values in turn: Obj("id", id, "deleted", true).
func Obj(kv ...any) Object {
	o := make(Object, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		o = append(o, Member{Key: kv[i].(string), Value: kv[i+1]})
	}
	return o
}

func (o Object) MarshalJSON() ([]byte, error) {
	e := enc{first: true}
	e.obj()
	for _, m := range o {
		v, err := jsonx.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		e.key(m.Key)
		e.raw(v)
	}
	e.end()
	return e.b, nil
}
