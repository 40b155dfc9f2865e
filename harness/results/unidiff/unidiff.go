// Package unidiff, part of area context's reference, is the diff an edit answers with (harness spec
// context.md §5: "the unified diff of the change (three lines of context, hunks only — the path is
// in the bracket)"): the hunks of a minimal line diff (Myers), written in the unified format POSIX
// `diff -u` and git use. Pure.
package unidiff

import (
	"strconv"
	"strings"
)

// NoNewline is the unified format's own marker after a line that has no line break — the last
// line of a file that does not end in one. It is the format's text (POSIX diff, GNU diffutils
// "Incomplete Lines"), not the harness spec's: the spec says only "the unified diff".
const NoNewline = `\ No newline at end of file`

// Lines splits a text into its lines, each with its "\n" when it has one: only the last line of a
// text can lack it. "" has no lines. A "\r" is part of its line, as any other byte.
func Lines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// Hunk is one hunk: its ranges (Start is 1-based; a range of no lines starts at the line before
// it, as the format says) and its lines, each with its mark (' ', '-', '+') and without its "\n".
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []string
}

// Header is the hunk's `@@ -a,b +c,d @@` line; a range of one line is written as its line number
// alone (`-3`), as POSIX and git write it.
func (h Hunk) Header() string {
	return "@@ -" + rangeText(h.OldStart, h.OldLines) + " +" + rangeText(h.NewStart, h.NewLines) + " @@"
}

func rangeText(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// Unified is the diff of before → after: its hunks, each under its header, with context lines of
// context; "" when the two are the same. A line without a line break is followed by NoNewline.
func Unified(before, after string, context int) string {
	var b strings.Builder
	for i, h := range Hunks(before, after, context) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(h.Header())
		for _, l := range h.Lines {
			b.WriteByte('\n')
			b.WriteString(l)
		}
	}
	return b.String()
}

// Hunks groups a minimal line diff into hunks with context lines of context on each side; two
// changes closer than 2×context+1 unchanged lines share a hunk (POSIX, difflib and git alike).
func Hunks(before, after string, context int) []Hunk {
	if context < 0 {
		context = 0
	}
	a, b := Lines(before), Lines(after)
	ops := opcodes(a, b)
	if len(ops) == 0 || (len(ops) == 1 && ops[0].tag == equal) {
		return nil
	}
	// Trim the leading and trailing unchanged runs to the context they give.
	if first := &ops[0]; first.tag == equal {
		first.i1 = max(first.i1, first.i2-context)
		first.j1 = max(first.j1, first.j2-context)
	}
	if last := &ops[len(ops)-1]; last.tag == equal {
		last.i2 = min(last.i2, last.i1+context)
		last.j2 = min(last.j2, last.j1+context)
	}
	var hunks []Hunk
	var group []opcode
	for _, op := range ops {
		if op.tag == equal && op.i2-op.i1 > 2*context {
			group = append(group, opcode{equal, op.i1, min(op.i2, op.i1+context), op.j1, min(op.j2, op.j1+context)})
			hunks = append(hunks, hunkOf(group, a, b))
			group = nil
			op.i1, op.j1 = max(op.i1, op.i2-context), max(op.j1, op.j2-context)
		}
		group = append(group, op)
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].tag == equal) {
		hunks = append(hunks, hunkOf(group, a, b))
	}
	return hunks
}

func hunkOf(group []opcode, a, b []string) Hunk {
	first, last := group[0], group[len(group)-1]
	h := Hunk{OldStart: first.i1 + 1, OldLines: last.i2 - first.i1, NewStart: first.j1 + 1,
		NewLines: last.j2 - first.j1}
	if h.OldLines == 0 {
		h.OldStart--
	}
	if h.NewLines == 0 {
		h.NewStart--
	}
	add := func(mark byte, line string) {
		text, hadBreak := strings.CutSuffix(line, "\n")
		h.Lines = append(h.Lines, string(mark)+text)
		if !hadBreak {
			h.Lines = append(h.Lines, NoNewline)
		}
	}
	for _, op := range group {
		if op.tag == equal {
			for _, l := range a[op.i1:op.i2] {
				add(' ', l)
			}
			continue
		}
		for _, l := range a[op.i1:op.i2] {
			add('-', l)
		}
		for _, l := range b[op.j1:op.j2] {
			add('+', l)
		}
	}
	return h
}

const (
	equal  = '='
	change = '!'
)

// opcode is a run of a and b: equal lines, or a change (a[i1:i2] replaced by b[j1:j2]; either may
// be empty). Runs alternate.
type opcode struct {
	tag            byte
	i1, i2, j1, j2 int
}

// opcodes is the minimal diff of a and b as alternating equal and changed runs.
func opcodes(a, b []string) []opcode {
	del, ins := Diff(a, b)
	var ops []opcode
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if i < len(a) && j < len(b) && !del[i] && !ins[j] {
			i0, j0 := i, j
			for i < len(a) && j < len(b) && !del[i] && !ins[j] {
				i++
				j++
			}
			ops = append(ops, opcode{equal, i0, i, j0, j})
			continue
		}
		i0, j0 := i, j
		for i < len(a) && del[i] {
			i++
		}
		for j < len(b) && ins[j] {
			j++
		}
		ops = append(ops, opcode{change, i0, i, j0, j})
	}
	return ops
}
