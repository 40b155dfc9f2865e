package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Canonical returns the RFC 8785 (JSON Canonicalization Scheme) form of a JSON text: object keys
// sorted by their UTF-16 code units, no insignificant whitespace, strings escaped as ECMAScript's
// JSON.stringify does, numbers in ECMAScript's shortest form. Case ids hash this form, so an id
// does not change when a case file is re-indented or its keys are reordered.
func Canonical(raw []byte) ([]byte, error) {
	if json.Valid(raw) {
		w := canonWriter{in: raw, out: make([]byte, 0, len(raw))}
		if _, ok := w.value(jsonx.SkipSpace(raw, 0)); ok {
			return w.out, nil
		}
	}
	return canonicalDecoded(raw)
}

// canonicalDecoded is Canonical by way of encoding/json's decoder: the way for a text that is not
// JSON (its error is the decoder's), or one canonWriter leaves to it.
func canonicalDecoded(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("canonical JSON: more than one value")
	}
	var b bytes.Buffer
	if err := writeCanonical(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeCanonical(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("canonical JSON: number %s is not an IEEE 754 double", x)
		}
		b.WriteString(ESNumber(f))
	case string:
		writeCanonicalString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeCanonical(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return utf16Less(keys[i], keys[j]) })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonicalString(b, k)
			b.WriteByte(':')
			if err := writeCanonical(b, x[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("canonical JSON: unexpected %T", v)
	}
	return nil
}

// utf16Less orders names by their UTF-16 code units. UTF-8's byte order is the code points'
// order, which is UTF-16's but where a name holds U+E000 or above (a lead byte 0xEE or more):
// only those are converted.
func utf16Less(a, b string) bool {
	if !hasHigh(a) && !hasHigh(b) {
		return a < b
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

func hasHigh(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xEE {
			return true
		}
	}
	return false
}

func writeCanonicalString(b *bytes.Buffer, s string) {
	b.Write(appendCanonicalString(b.AvailableBuffer(), s))
}

// appendCanonicalString appends s as ECMAScript's JSON.stringify writes it.
func appendCanonicalString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch r {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			if r < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
			} else {
				b = utf8.AppendRune(b, r)
			}
		}
	}
	return append(b, '"')
}

// ESNumber formats a double as ECMAScript's Number.prototype.toString does (RFC 8785 §3.2.2.3).
func ESNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	neg := f < 0
	if neg {
		f = -f
	}
	// The shortest digits that round-trip, and the decimal exponent n with value = 0.digits × 10^n.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k := len(digits)
	n := x + 1
	var s string
	switch {
	case k <= n && n <= 21:
		s = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		s = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		s = "0." + strings.Repeat("0", -n) + digits
	default:
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		m := digits[:1]
		if k > 1 {
			m += "." + digits[1:]
		}
		s = m + "e" + sign + strconv.Itoa(abs(n-1))
	}
	if neg {
		return "-" + s
	}
	return s
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
