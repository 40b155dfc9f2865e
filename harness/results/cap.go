package results

import (
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Cap is how a result over c's limits is inserted (context.md §3, loop.json cap.about): its head —
// as many whole lines as fit head_lines and head_chars — and its tail from what is left — as many
// whole lines as fit tail_lines and tail_chars — with the elided line naming id between. A first
// line longer than head_chars is cut to it and ends ` […cut]`. A text within both limits, or one
// whose head and tail leave nothing out, is inserted whole.
//
// Lines are those of splitLines; characters are code points. A head or tail fits its chars when
// its lines joined by their breaks — the text as it is shown, without the break after its last
// line — have at most that many characters, so a first line fits head_chars exactly when it is
// not "longer than head_chars".
func Cap(text string, c spec.Cap, id string) string {
	if countLines(text) <= c.MaxLines && chars(text) <= c.MaxChars {
		return text
	}
	lines, final := splitLines(text)
	head, used := 0, 0
	for head < len(lines) && head < c.HeadLines {
		cost := chars(lines[head])
		if head > 0 {
			cost++ // the break before it
		}
		if used+cost > c.HeadChars {
			break
		}
		used += cost
		head++
	}
	var b strings.Builder
	taken, cut := head, false
	if head == 0 && c.HeadLines > 0 && len(lines) > 0 {
		// Even the first line does not fit head_chars: it is cut to it.
		cut, taken = true, 1
		b.WriteString(firstChars(lines[0], c.HeadChars))
		b.WriteString(spec.Text("context.cut"))
	} else {
		b.WriteString(strings.Join(lines[:head], "\n"))
	}
	tail := 0
	used = 0
	for tail < len(lines)-taken && tail < c.TailLines {
		cost := chars(lines[len(lines)-1-tail])
		if tail > 0 {
			cost++
		}
		if used+cost > c.TailChars {
			break
		}
		used += cost
		tail++
	}
	elided := len(lines) - taken - tail
	if elided == 0 && !cut {
		return text // nothing left out: the elided line is there only when something was
	}
	if b.Len() > 0 || taken > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(spec.MustRender(spec.LoopJSON().Context.Elided, map[string]string{"n": strconv.Itoa(elided),
		"id": id}))
	if tail > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Join(lines[len(lines)-tail:], "\n"))
		if final {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
