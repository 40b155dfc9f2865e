package conformance

import (
	"slices"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// canonWriter writes the RFC 8785 form of a text json.Valid accepts in one pass over its bytes,
// with no value decoded into Go's maps and interfaces: Canonical runs on every case's input when
// a suite loads and on both sides of every comparison (Diff), where the decoder's way cost more
// than the rest of a comparison. Where it would have to choose what the decoder chooses (two
// members of one object with the same name), it gives up (ok false) and Canonical decodes.
type canonWriter struct {
	in, out []byte
}

// member is an object's member as written into out: its name decoded, and where it is in out.
type member struct {
	name       string
	start, end int
}

// value writes the value starting at in[i] and returns the index after it.
func (w *canonWriter) value(i int) (int, bool) {
	switch c := w.in[i]; {
	case c == '{':
		return w.object(i)
	case c == '[':
		w.out = append(w.out, '[')
		i = jsonx.SkipSpace(w.in, i+1)
		for first := true; w.in[i] != ']'; first = false {
			if !first {
				w.out = append(w.out, ',')
				i = jsonx.SkipSpace(w.in, i+1) // past ','
			}
			var ok bool
			if i, ok = w.value(i); !ok {
				return i, false
			}
			i = jsonx.SkipSpace(w.in, i)
		}
		w.out = append(w.out, ']')
		return i + 1, true
	case c == '"':
		s, end, ok := w.str(i)
		if ok {
			w.out = appendCanonicalString(w.out, s)
		}
		return end, ok
	case c == 't':
		w.out = append(w.out, "true"...)
		return i + 4, true
	case c == 'f':
		w.out = append(w.out, "false"...)
		return i + 5, true
	case c == 'n':
		w.out = append(w.out, "null"...)
		return i + 4, true
	}
	return w.number(i)
}

// object writes an object's members sorted by their names' UTF-16 code units: as they come
// when they come sorted (Go structs' fields often do not), else rewritten in order.
func (w *canonWriter) object(i int) (int, bool) {
	w.out = append(w.out, '{')
	at := len(w.out)
	var members []member
	i = jsonx.SkipSpace(w.in, i+1)
	for w.in[i] != '}' {
		if w.in[i] == ',' {
			i = jsonx.SkipSpace(w.in, i+1)
			w.out = append(w.out, ',')
		}
		name, end, ok := w.str(i)
		if !ok {
			return i, false
		}
		start := len(w.out)
		w.out = appendCanonicalString(w.out, name)
		w.out = append(w.out, ':')
		i = jsonx.SkipSpace(w.in, jsonx.SkipSpace(w.in, end)+1) // past ':'
		if i, ok = w.value(i); !ok {
			return i, false
		}
		members = append(members, member{name, start, len(w.out)})
		i = jsonx.SkipSpace(w.in, i)
	}
	if !slices.IsSortedFunc(members, compareNames) {
		slices.SortStableFunc(members, compareNames)
		written := append([]byte(nil), w.out[at:]...)
		w.out = w.out[:at]
		for k, m := range members {
			if k > 0 {
				w.out = append(w.out, ',')
			}
			w.out = append(w.out, written[m.start-at:m.end-at]...)
		}
	}
	for k := 1; k < len(members); k++ {
		if members[k].name == members[k-1].name {
			return i, false // the decoder keeps the last: leave the choice to it
		}
	}
	w.out = append(w.out, '}')
	return i + 1, true
}

func compareNames(a, b member) int {
	switch {
	case a.name == b.name:
		return 0
	case utf16Less(a.name, b.name):
		return -1
	}
	return 1
}

// str decodes the string starting at in[i] (its opening quote) as encoding/json does: escapes
// read, an invalid UTF-8 byte or a lone surrogate made U+FFFD. end is the index after it.
func (w *canonWriter) str(i int) (s string, end int, ok bool) {
	j := i + 1
	plain := true
	for ; w.in[j] != '"'; j++ {
		switch c := w.in[j]; {
		case c == '\\':
			plain = false
			j++
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	raw := w.in[i+1 : j]
	if plain || (utf8.Valid(raw) && !hasByte(raw, '\\')) {
		return string(raw), j + 1, true
	}
	return unquote(raw), j + 1, true
}

func hasByte(b []byte, c byte) bool { return slices.Contains(b, c) }

// unquote is a JSON string's contents (without its quotes, json.Valid's) decoded as
// encoding/json decodes them.
func unquote(raw []byte) string {
	out := make([]byte, 0, len(raw))
	for k := 0; k < len(raw); {
		c := raw[k]
		if c != '\\' {
			r, size := utf8.DecodeRune(raw[k:])
			out = utf8.AppendRune(out, r) // an invalid byte is RuneError, U+FFFD
			k += size
			continue
		}
		k++
		switch raw[k] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(raw[k+1:])
			k += 4 // at the last digit
			if utf16.IsSurrogate(r) {
				r1 := rune(-1)
				if k+7 <= len(raw) && raw[k+1] == '\\' && raw[k+2] == 'u' {
					r1 = hex4(raw[k+3:])
				}
				if d := utf16.DecodeRune(r, r1); d != unicode.ReplacementChar {
					out = utf8.AppendRune(out, d)
					k += 6 + 1
					continue
				}
				r = unicode.ReplacementChar
			}
			out = utf8.AppendRune(out, r)
		default: // '"', '\\', '/'
			out = append(out, raw[k])
		}
		k++
	}
	return string(out)
}

// hex4 is the rune four hex digits spell (json.Valid has checked they are there).
func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n)
}

// number writes the number starting at in[i] in ECMAScript's form; a short integer is already
// in it (but -0).
func (w *canonWriter) number(i int) (int, bool) {
	j := i
	integer := true
	for j < len(w.in) && isNumberByte(w.in[j]) {
		if c := w.in[j]; c == '.' || c == 'e' || c == 'E' {
			integer = false
		}
		j++
	}
	tok := w.in[i:j]
	if integer && len(tok) <= 15 && string(tok) != "-0" {
		w.out = append(w.out, tok...)
		return j, true
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		return j, false // out of range: the decoder's way says so
	}
	w.out = append(w.out, ESNumber(f)...)
	return j, true
}

func isNumberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
