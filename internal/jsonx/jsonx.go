// Package jsonx is JSON as lembas-check writes and reads it. Written: without HTML escaping, so
// `<`, `>` and `&` stay as they are — the spec's texts hold them (<session-note>), the APIs send
// them so, a recording's bodies must keep their bytes to match their SHA-256, and a report shows
// them as written (encoding/json's default, \u003c and friends, is meant for HTML pages). Read:
// strictly, for the data files lembas-check is given (agent profiles, price tables): one value, no
// field the Go type has no place for, nothing after it.
package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// NewEncoder is json.NewEncoder without HTML escaping: each Encode writes one value and a newline
// (JSON lines).
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// Marshal is json.Marshal without HTML escaping, written by Append: the answer is allocated
// once at its size, the growing done in a reused buffer.
func Marshal(v any) ([]byte, error) {
	p := scratch.Get().(*[]byte)
	b, err := Append((*p)[:0], v)
	var out []byte
	if err == nil {
		out = bytes.Clone(b)
	}
	if cap(b) <= 1<<20 { // a huge value's buffer is not kept
		*p = b[:0]
		scratch.Put(p)
	}
	return out, err
}

var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// String is s as a JSON string, without HTML escaping (<, > and & as written).
func String(s string) []byte {
	b, _ := Marshal(s) // a string always marshals
	return b
}

// Decode decodes b, which must hold one JSON value, into v strictly: an object member v has no
// field for, or anything but white space after the value, is an error (encoding/json's own
// errors otherwise, so errors.As finds its types).
func Decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if err == io.EOF {
			return fmt.Errorf("no JSON value: the input is empty")
		}
		return err
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		rest := b[end:]
		at := len(b) - len(bytes.TrimLeft(rest, " \t\r\n"))
		return fmt.Errorf("line %d: more follows the JSON value; want one value only", 1+bytes.Count(b[:at],
			[]byte{'\n'}))
	}
	return nil
}

// SkipSpace is the index of the first byte at or after i that is not JSON whitespace (space,
// tab, newline, carriage return): the hand-written scanners of request bodies and of case
// canonical forms step over it the same way.
func SkipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
