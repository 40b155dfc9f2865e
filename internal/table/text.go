package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Millis is a duration as a report shows a case's or a run's time: milliseconds, one decimal
// ("12.3ms").
func Millis(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
}

// Indent puts prefix before every line of s and ends it with one newline: a block under a
// heading, as `go test` shows a failure's lines.
func Indent(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(prefix + l)
	}
	b.WriteString("\n")
	return b.String()
}

// JSON is a JSON text indented for a person, its lines after the first starting with prefix, and
// `<`, `>` and `&` as they are (the spec's texts hold them). Text that is not JSON is returned as
// it is.
func JSON(raw []byte, prefix string) string {
	var v any
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&v); err != nil {
		return string(raw)
	}
	var b strings.Builder
	enc := jsonx.NewEncoder(&b)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimRight(b.String(), "\n")
}

// NoFinalNewline ends the last line of a text that has no newline at its end, in Text's view
// of a string of several lines (textdiff.Visible marks the other whitespace; its Legend says
// what this mark means).
const NoFinalNewline = "∎"

// Text is a JSON value as a person reads it, one field a line in the value's own order: strings
// as their text (a string of several lines as an indented block under its key), arrays as "- "
// items, other values as JSON; a block without its final newline ends with NoFinalNewline.
// Text that is not JSON is returned as it is. (Any value laid out
// for reading, not a message's text, which is chat.ContentText.)
func Text(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	if err := textValue(&b, dec, "", "  "); err != nil {
		return string(raw)
	}
	if _, err := dec.Token(); err == nil {
		return string(raw) // more than one value
	}
	return strings.TrimRight(b.String(), "\n")
}

// textValue writes the next value of dec after lead (what its line starts with: "key:", "-"),
// the lines inside it indented by indent.
func textValue(b *strings.Builder, dec *json.Decoder, lead, indent string) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	sep := ""
	if lead != "" {
		sep = " "
	}
	switch v := t.(type) {
	case json.Delim:
		empty, closing := "{}", json.Delim('}')
		if v == '[' {
			empty, closing = "[]", ']'
		}
		if !dec.More() {
			dec.Token()
			b.WriteString(lead + sep + empty + "\n")
			return nil
		}
		// A top-level value's fields start at the margin; a nested one's under its key.
		inner := indent
		if lead == "" {
			inner = ""
		} else {
			b.WriteString(lead + "\n")
		}
		for dec.More() {
			if v == '[' {
				if err := textValue(b, dec, inner+"-", inner+"  "); err != nil {
					return err
				}
				continue
			}
			k, err := dec.Token()
			if err != nil {
				return err
			}
			if err := textValue(b, dec, inner+k.(string)+":", inner+"  "); err != nil {
				return err
			}
		}
		if t, err := dec.Token(); err != nil || t != closing {
			return fmt.Errorf("unbalanced")
		}
	case string:
		switch {
		case v == "":
			b.WriteString(lead + sep + `""` + "\n")
		case strings.Contains(v, "\n"):
			// As YAML writes a block: "|" keeps the text's last newline, "|-" says it had none.
			mark, body := "|-", v
			if strings.HasSuffix(v, "\n") {
				mark, body = "|", v[:len(v)-1]
			}
			b.WriteString(lead + sep + mark + "\n")
			lines := strings.Split(body, "\n")
			for i, l := range lines {
				if i == len(lines)-1 && mark == "|-" {
					l += NoFinalNewline // issue 27: the "|-" alone is easily missed
				}
				if l == "" {
					b.WriteString("\n")
					continue
				}
				b.WriteString(indent + l + "\n")
			}
		case ambiguous(v):
			b.WriteString(lead + sep + strconv.Quote(v) + "\n")
		default:
			b.WriteString(lead + sep + v + "\n")
		}
	case nil:
		b.WriteString(lead + sep + "null\n")
	default:
		b.WriteString(lead + sep + fmt.Sprint(v) + "\n")
	}
	return nil
}

// ambiguous says whether a one-line string would read as something else unquoted: another JSON
// value, a block mark, or text whose edges are spaces or which holds what cannot be seen.
func ambiguous(s string) bool {
	if json.Valid([]byte(s)) || s == "|" || s == "|-" || strings.TrimSpace(s) != s {
		return true
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}

// Cut shortens a text for a cell or a line to at most n characters (n ≥ 1), the last an ellipsis
// when it was cut, never inside a character: "HTTP 503: {"error":"busy"} and m…".
func Cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
