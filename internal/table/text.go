package table

import (
	"bytes"
	"encoding/json"
	"strings"
)

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
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimRight(b.String(), "\n")
}
