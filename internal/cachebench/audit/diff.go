package audit

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
)

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// commonSuffix is the length of the longest common suffix of a and b not reaching into their
// first p bytes.
func commonSuffix(a, b []byte, p int) int {
	n := 0
	for n < len(a)-p && n < len(b)-p && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// Change is where two values first differ: the middle that differs on each side, with a little
// context before and after.
type Change struct {
	// Old and New are short excerpts: context, the differing middle in ⟦ ⟧, context.
	Old string `json:"old"`
	New string `json:"new"`
	// OldMid and NewMid are the differing middles (cut to a few hundred bytes).
	OldMid string `json:"-"`
	NewMid string `json:"-"`
	// Wide are the middles with some context, for the clock heuristic.
	OldWide, NewWide string `json:"-"`
}

const (
	ctxBytes  = 24
	midBytes  = 60
	wideBytes = 32
)

// change describes how cur differs from prev, from the first differing byte p.
func change(prev, cur []byte, p int) Change {
	s := commonSuffix(prev, cur, p)
	om, nm := prev[p:len(prev)-s], cur[p:len(cur)-s]
	return Change{
		Old:     excerpt(prev, p, len(prev)-s),
		New:     excerpt(cur, p, len(cur)-s),
		OldMid:  clip(om, 400),
		NewMid:  clip(nm, 400),
		OldWide: window(prev, p-wideBytes, len(prev)-s+wideBytes),
		NewWide: window(cur, p-wideBytes, len(cur)-s+wideBytes),
	}
}

// excerpt shows b[from:to] marked, with context, every piece cut at a character boundary.
func excerpt(b []byte, from, to int) string {
	var sb strings.Builder
	start := runeStart(b, max(0, from-ctxBytes))
	if start > 0 {
		sb.WriteString("…")
	}
	sb.Write(b[start:from])
	sb.WriteString("⟦")
	mid := b[from:to]
	if len(mid) > midBytes {
		cutAt := runeStart(mid, midBytes)
		sb.Write(mid[:cutAt])
		sb.WriteString("…")
	} else {
		sb.Write(mid)
	}
	sb.WriteString("⟧")
	end := runeStart(b, min(len(b), to+ctxBytes))
	sb.Write(b[to:max(to, end)])
	if end < len(b) {
		sb.WriteString("…")
	}
	return strings.ToValidUTF8(sb.String(), "�")
}

func window(b []byte, from, to int) string {
	from, to = max(0, from), min(len(b), to)
	if from >= to {
		return ""
	}
	return string(b[runeStart(b, from):runeStart(b, to)])
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:runeStart(b, n)]) + "…"
	}
	return string(b)
}

// runeStart moves i back to the start of the character holding it.
func runeStart(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	for i > 0 && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

// clockRE finds what reads as a date or a time of day, in the forms harnesses write: ISO
// (2026-11-30, with a time and a zone), JavaScript's Date.toDateString (Mon Nov 30 2026), US
// (11/30/2026, Nov 30, 2026, Monday, November 30, 2026), day first (30 November 2026), a time
// (23:59:10, 11:30 pm), a weekday, a Unix timestamp; every month, whole or abbreviated. Longer
// forms come first, so a whole date is one match. A bare "10:21" is left out: it is as often a
// file's line and column (main.go:10:21) as a time. Compiled on first use: at init it cost every
// lembas-check start most of a millisecond.
var clockRE = lazyre.New(`(?i)` + strings.Join(append(append([]string(nil), dateForms...),
	`\b\d{1,2}:\d{2}:\d{2}\b`,
	`\b\d{1,2}:\d{2}\s?[ap]\.?m\b`,
	`\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`,
	`\b1\d{9}(?:\d{3})?\b`,
), "|"))

// dateForms are clockRE's whole dates: ISO, a weekday and a month, a month and a day, a day and
// a month, US numbers.
var dateForms = []string{
	`\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b`,
	`\b(?:` + weekdayRE + `),?\s+(?:` + monthRE + `)\.?\s+\d{1,2}(?:st|nd|rd|th)?,?(?:\s+\d{4})?\b`,
	`\b(?:` + weekdayRE + `),?\s+\d{1,2}(?:st|nd|rd|th)?\s+(?:` + monthRE + `)\.?(?:,?\s+\d{4})?\b`,
	`\b(?:` + monthRE + `)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b`,
	`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:` + monthRE + `)\.?(?:,?\s+\d{4})?\b`,
	`\b\d{1,2}/\d{1,2}/\d{2,4}\b`,
}

// dateRE finds a whole date with a year (where a request carries its date).
var dateRE = lazyre.New(`(?i)` + strings.Join([]string{dateForms[0], dateForms[1], dateForms[5]}, "|"))

// The months and weekdays as harnesses write them, whole or abbreviated ("Sept", "Thurs").
const (
	monthRE = `january|february|march|april|may|june|july|august|september|october|november|december|` +
		`jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec`
	weekdayRE = `monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thu|fri|sat|sun`
)

// clockChange says whether a change looks like a clock — a date or a time that one side has and
// the other has not, or has otherwise — and shows it ("2026-11-05 → 2026-11-06").
func clockChange(c Change) (string, bool) {
	o := clockRE().FindAllString(c.OldWide, -1)
	n := clockRE().FindAllString(c.NewWide, -1)
	on, nn := strings.Join(o, ", "), strings.Join(n, ", ")
	if on == nn || len(n) == 0 && len(o) == 0 {
		return "", false
	}
	switch {
	case len(o) == 0:
		return "added " + nn, true
	case len(n) == 0:
		return "removed " + on, true
	}
	return on + " → " + nn, true
}

// toolName is a tool's name: `function.name` (OpenAI chat), `name` (Responses, Anthropic).
func toolName(raw []byte) string {
	var t struct {
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	json.Unmarshal(raw, &t)
	if t.Function.Name != "" {
		return t.Function.Name
	}
	if t.Name != "" {
		return t.Name
	}
	return "?"
}

// toolsDiff says which tools were added, removed, changed or moved between two lists.
func toolsDiff(prev, cur [][]byte) string {
	pn, cn := map[string][]byte{}, map[string][]byte{}
	var porder, corder []string
	for _, t := range prev {
		n := toolName(t)
		pn[n] = t
		porder = append(porder, n)
	}
	for _, t := range cur {
		n := toolName(t)
		cn[n] = t
		corder = append(corder, n)
	}
	var added, removed, changed []string
	for _, n := range corder {
		if p, ok := pn[n]; !ok {
			added = append(added, n)
		} else if string(p) != string(cn[n]) {
			changed = append(changed, n)
		}
	}
	for _, n := range porder {
		if _, ok := cn[n]; !ok {
			removed = append(removed, n)
		}
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed "+strings.Join(removed, ", "))
	}
	if len(changed) > 0 {
		parts = append(parts, "changed "+strings.Join(changed, ", "))
	}
	if len(parts) == 0 {
		return "the same tools in another order"
	}
	return strings.Join(parts, "; ")
}

// messageLabel names a message for a person: its role, and the call it answers.
func messageLabel(p chat.Part, raw []byte) string {
	var m struct {
		Role       string `json:"role"`
		Type       string `json:"type"`
		ToolCallID string `json:"tool_call_id"`
		CallID     string `json:"call_id"`
	}
	json.Unmarshal(raw, &m)
	id := m.ToolCallID
	if id == "" {
		id = m.CallID // Responses' function_call_output
	}
	result := chat.IsToolResult(raw) // Anthropic's and Responses' results too, as prune-results finds them
	switch {
	case result && id != "":
		return fmt.Sprintf("the tool result for %s", id)
	case result:
		return "a tool result"
	case m.Role != "":
		return a(m.Role) + " message"
	case m.Type != "":
		return a(m.Type) + " item"
	}
	return "a message"
}

// a is a word with its indefinite article: "an assistant", "an input_image", "a user" (a u
// that sounds "you", as the roles' and items' names do).
func a(word string) string {
	if strings.ContainsRune("aeio", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Difference is where two parts' bytes first differ, as the audit shows a break: the offset in
// cur, the change, and the clock it looks like ("" when none). The live judge compares a known
// session's requests part by part and names each break with it, in the audit's words.
func Difference(prev, cur []byte) (off int, c Change, clock string) {
	off = commonPrefix(prev, cur)
	c = change(prev, cur, off)
	clock, _ = clockChange(c)
	return off, c, clock
}

// FirstPath is the JSON path of the first byte where cur differs from prev, below base (the
// path of the values compared, such as $.messages[3], or $ for whole bodies), and the change
// there: the path and the change the audit names a break by. The cassette names a request that
// matched no recorded one with it.
func FirstPath(base string, prev, cur []byte) (string, Change) {
	off := commonPrefix(prev, cur)
	return base + chat.PathAt(cur, off), change(prev, cur, off)
}

// ToolsDiff says which tools were added, removed, changed or moved between two lists of tools'
// bytes, as the audit's detail does.
func ToolsDiff(prev, cur [][]byte) string { return toolsDiff(prev, cur) }

// MessageLabel names a message for a person (its role, the call it answers), as the audit's
// detail does.
func MessageLabel(p chat.Part, raw []byte) string { return messageLabel(p, raw) }

// firstDate is where dateRE's first match in b starts, or -1: the same answer as
// dateRE().FindIndex(b)[0], found faster. Every match starts at a word's first byte with four
// digits and a dash (ISO), one or two digits and a slash (US), or a weekday's first three
// letters (\b and \d are ASCII in Go, and of those letters only s has a fold outside ASCII, ſ);
// the regexp runs, anchored, only where one of those is. Searching the whole text with
// it ran at a few MB/s: the audit's second-largest cost on a long session.
func firstDate(b []byte) int {
	for i := 0; i < len(b); i++ {
		if b[i] == 0xc5 && i > 0 && isWordByte(b[i-1]) && i+1 < len(b) && b[i+1] == 0xbf {
			// ſ folds to s and is no word character: after a word character, \b holds before it ("2026ſun").
			if afterWordDateRE().Match(b[i-1:]) {
				return i
			}
			continue
		}
		c := b[i] | 0x20
		digit := b[i] >= '0' && b[i] <= '9'
		if !digit && (c < 'a' || c > 'z') {
			continue
		}
		if i > 0 && isWordByte(b[i-1]) {
			continue
		}
		if digit && !dateDigits(b[i:]) || !digit && !weekdayStart(b[i:]) {
			continue
		}
		if loc := anchoredDateRE().FindIndex(b[i:]); loc != nil {
			return i
		}
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// dateDigits: b starts with \d{4}- or \d{1,2}/.
func dateDigits(b []byte) bool {
	n := 0
	for n < len(b) && n < 5 && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	return n == 4 && n < len(b) && b[n] == '-' || (n == 1 || n == 2) && n < len(b) && b[n] == '/'
}

// weekdayStart: b starts with a weekday's first three letters, in any case.
func weekdayStart(b []byte) bool {
	if len(b) < 3 {
		return false
	}
	w := string([]byte{b[0] | 0x20, b[1] | 0x20, b[2] | 0x20})
	switch w {
	case "mon", "tue", "wed", "thu", "fri", "sat", "sun":
		return true
	}
	return false
}

// afterWordDateRE is dateRE matching just after the word character its text starts with.
var afterWordDateRE = lazyre.New(`^\w(?i:` + strings.Join([]string{dateForms[0], dateForms[1], dateForms[5]}, "|") +
	`)`)

// anchoredDateRE is dateRE matching only at the start of its text (firstDate has checked the
// word boundary before it).
var anchoredDateRE = lazyre.New(`^(?i:` + strings.Join([]string{dateForms[0], dateForms[1], dateForms[5]}, "|") + `)`)
