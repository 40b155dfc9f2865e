package steps

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// context: what each step of a session inserts into the conversation. Givens say what the files
// hold (kept by the scenario, not sent), the cap and the start directory; each When is one step
// of the session, a result named by its id; Thens say what a result inserts.

type contextBuilder struct {
	limits map[string]any
	cwd    *string
	files  map[string]string // content by the path as a Given wrote it
	steps  []map[string]any
	ids    map[string]int // result id → step index
}

func (b *contextBuilder) Case() (map[string]any, error) {
	if len(b.steps) == 0 {
		return nil, fmt.Errorf("no steps: a When is one step of the session, e.g. `When #0001 reads \"a.md\"`")
	}
	c := map[string]any{"steps": b.steps}
	if b.limits != nil {
		c["limits"] = b.limits
	}
	if b.cwd != nil {
		c["cwd"] = *b.cwd
	}
	return c, nil
}

// abs resolves a path as the session would find its content: against the start directory, as
// filesystem.md's Paths read it (fsaccess.Resolve). It only finds what a Given said a file
// holds; the case carries the path as written.
func (b *contextBuilder) abs(p string) string {
	dir := "/"
	if b.cwd != nil {
		dir = *b.cwd
	}
	return fsaccess.Resolve(dir, p)
}

// content is what a Given said the file at p holds, by any spelling of its path.
func (b *contextBuilder) content(p string) (string, bool) {
	if c, ok := b.files[p]; ok {
		return c, true
	}
	for k, c := range b.files {
		if b.abs(k) == b.abs(p) {
			return c, true
		}
	}
	return "", false
}

func (b *contextBuilder) setContent(p, c string) {
	for k := range b.files {
		if b.abs(k) == b.abs(p) {
			delete(b.files, k)
		}
	}
	b.files[p] = c
}

func (b *contextBuilder) add(id string, s map[string]any) error {
	if id != "" {
		if _, dup := b.ids[id]; dup {
			return fmt.Errorf("%s is already a result of this scenario: an id is never reused in a session", id)
		}
		b.ids[id] = len(b.steps)
		s["id"] = id
	}
	b.steps = append(b.steps, s)
	return nil
}

func (b *contextBuilder) read(a *args, id, p string, offset, limit int) error {
	c, ok := b.content(p)
	if !ok {
		return fmt.Errorf("what does %s hold? say it first: `Given the file %q holds \"…\"`", p, p)
	}
	s := map[string]any{"op": "read", "path": p, "content": c}
	if offset > 0 {
		s["offset"] = offset
	}
	if limit > 0 {
		s["limit"] = limit
	}
	return b.add(id, s)
}

func (b *contextBuilder) write(op, id, p, after string, overwrite bool) error {
	s := map[string]any{"op": op, "path": p, "after": after}
	if overwrite {
		before, ok := b.content(p)
		if !ok {
			return fmt.Errorf("what did %s hold before? say it first: `Given the file %q holds \"…\"`", p, p)
		}
		s["before"] = before
	}
	b.setContent(p, after)
	return b.add(id, s)
}

func (b *contextBuilder) output(id, tool string, args json.RawMessage, text string) error {
	return b.add(id, map[string]any{"op": "output", "tool": tool, "args": args, "text": text})
}

func (b *contextBuilder) recall(id, target string, offset, limit int) error {
	s := map[string]any{"op": "recall", "target": target}
	if offset > 0 {
		s["offset"] = offset
	}
	if limit > 0 {
		s["limit"] = limit
	}
	return b.add(id, s)
}

// result is the answer's item for a result id.
func (b *contextBuilder) result(id string) (int, error) {
	i, ok := b.ids[id]
	if !ok {
		var ids []string
		for k := range b.ids {
			ids = append(ids, k)
		}
		return 0, fmt.Errorf("no When gives the result %s (this scenario's: %s)", id, strings.Join(ids, ", "))
	}
	return i, nil
}

// nth is the step index of the n-th step of an op (from 1), or of the only one when n is 0.
func (b *contextBuilder) nth(op string, n int) (int, error) {
	var at []int
	for i, s := range b.steps {
		if s["op"] == op {
			at = append(at, i)
		}
	}
	switch {
	case n == 0 && len(at) == 1:
		return at[0], nil
	case n == 0:
		return 0, fmt.Errorf("the scenario has %d %s steps: say which, e.g. `%s 1`", len(at), op, op)
	case n < 1 || n > len(at):
		return 0, fmt.Errorf("the scenario has %d %s steps, no %d", len(at), op, n)
	}
	return at[n-1], nil
}

// lines is "word 1\nword 2\n…word n\n".
func lines(word string, n int) string {
	var s strings.Builder
	for i := 1; i <= n; i++ {
		s.WriteString(word + " " + strconv.Itoa(i) + "\n")
	}
	return s.String()
}

// numbers is "1\n2\n…\nn" (no final line break: a command's output as a case gives it).
func numbers(n int) string {
	var parts []string
	for i := 1; i <= n; i++ {
		parts = append(parts, strconv.Itoa(i))
	}
	return strings.Join(parts, "\n")
}

// Context is the vocabulary of area context: what each step of a session inserts.
var Context = &Vocabulary{newBuilder: func() builder {
	return &contextBuilder{files: map[string]string{},
		ids: map[string]int{}}
}, define: contextSteps}

// contextSteps are context's phrases: the Givens of the files and the cap, the Whens of what
// the session reads, changes and calls, and the Thens of what each inserts.
func contextSteps() []stepDef {
	steps := append(contextGivens(), contextReads()...)
	steps = append(steps, contextChanges()...)
	return append(steps, contextThens()...)
}

type contextB = contextBuilder

// contextWrites is an edit or a write of result {id} to {string:path}, its content read by after.
func contextWrites(op string, overwrite bool, after text) func(b *contextB, a *args) error {
	return func(b *contextB, a *args) error {
		t, err := after(a)
		if err != nil {
			return err
		}
		return b.write(op, a.str(0), a.str(1), t, overwrite)
	}
}

// contextHolds is a Given or When that says what file {string:path} holds, the content read by t.
func contextHolds(t text) func(b *contextB, a *args) error {
	return func(b *contextB, a *args) error {
		c, err := t(a)
		b.setContent(a.str(0), c)
		return err
	}
}

var capLimitNames = []string{"max_lines", "max_chars", "head_lines", "head_chars", "tail_lines", "tail_chars"}

// setCap is the cap Given: all six limits, one a row.
func setCap(b *contextB, a *args) error {
	rows, err := a.rows(2)
	if err != nil {
		return err
	}
	b.limits = map[string]any{}
	for _, r := range rows {
		n, err := strconv.Atoi(strings.TrimSpace(r[1]))
		if err != nil {
			return fmt.Errorf("limit %s: %q is not a number", r[0], r[1])
		}
		b.limits[strings.TrimSpace(r[0])] = n
	}
	for _, name := range capLimitNames {
		if _, ok := b.limits[name]; !ok {
			return fmt.Errorf("the cap needs all six limits (%s); %s is missing", strings.Join(capLimitNames, ", "),
				name)
		}
	}
	return nil
}

// contextGivens are the phrases of the cap, the start directory and the files.
func contextGivens() []stepDef {
	type B = contextB
	holds := contextHolds
	return []stepDef{
		step(Given, "the cap:", tableArg, "the case's limits in place of loop.json's cap: all six, one a row",
			setCap, "limit", "value"),
		step(Given, "the session starts in {string:dir}", noArg,
			"the start directory relative paths resolve against (lembas-check's cwd field)",
			func(b *B, a *args) error { s := a.str(0); b.cwd = &s; return nil }),
		step(Given, "the file {string:path} holds {text:content}", noArg,
			"what the file holds (kept for the steps that read or change it)",
			holds(holeText(1))),
		step(Given, "the file {string:path} holds these lines:", docArg,
			"what the file holds: the docstring's lines, each ending with a line break",
			holds(docLines)),
		step(Given, "the file {string:path} holds the lines {string:word} 1 to {int:n}", noArg,
			`the lines "WORD 1" to "WORD N", each ending with a line break`,
			func(b *B, a *args) error { b.setContent(a.str(0), lines(a.str(1), a.num(2))); return nil }),
		step(Given, "the file {string:path} is empty", noArg, "the file holds nothing",
			func(b *B, a *args) error { b.setContent(a.str(0), ""); return nil }),
	}
}

// contextReads are the phrases of a file changed from outside and of the session's reads.
func contextReads() []stepDef {
	type B = contextB
	holds := contextHolds
	return []stepDef{
		step(When, "the file {string:path} now holds {text:content}", noArg,
			"the file changed from outside the session (nothing is inserted)",
			holds(holeText(1))),
		step(When, "the file {string:path} now holds these lines:", docArg,
			"the file changed from outside: the docstring's lines, each ending with a line break",
			holds(docLines)),
		step(When, "{id} reads {string:path}", noArg, "a read of the whole file (default offset and limit)",
			func(b *B, a *args) error { return b.read(a, a.str(0), a.str(1), 0, 0) }),
		step(When, "{id} reads {string:path} from line {int:offset}", noArg, "a read from a line",
			func(b *B, a *args) error { return b.read(a, a.str(0), a.str(1), a.num(2), 0) }),
		step(When, "{id} reads {int:limit} lines of {string:path}", noArg, "a read of the first lines",
			func(b *B, a *args) error { return b.read(a, a.str(0), a.str(2), 0, a.num(1)) }),
		step(When, "{id} reads {int:limit} lines of {string:path} from line {int:offset}", noArg,
			"a read of some lines from a line",
			func(b *B, a *args) error { return b.read(a, a.str(0), a.str(2), a.num(3), a.num(1)) }),
	}
}

// contextChanges are the phrases of the session's edits, writes, other tools, recalls, replies
// and compactions.
func contextChanges() []stepDef {
	type B = contextB
	writes := contextWrites
	return append([]stepDef{
		step(When, "{id} edits {string:path} to {text:content}", noArg,
			"an edit: the file's content before (from the Givens or an earlier step) and after",
			writes("edit", true, holeText(2))),
		step(When, "{id} edits {string:path} to these lines:", docArg,
			"an edit to the docstring's lines, each ending with a line break",
			writes("edit", true, docLines)),
		step(When, "{id} writes the new file {string:path} with {text:content}", noArg,
			"a write of a file that did not exist",
			writes("write", false, holeText(2))),
		step(When, "{id} writes the new file {string:path} with these lines:", docArg,
			"a write of a new file: the docstring's lines, each ending with a line break",
			writes("write", false, docLines)),
		step(When, "{id} overwrites {string:path} with {text:content}", noArg, "a write over an existing file",
			writes("write", true, holeText(2))),
		step(When, "{id} deletes {string:path}", noArg, "a file deleted (lembas-check's delete op)",
			func(b *B, a *args) error {
				delete(b.files, a.str(1))
				return b.add(a.str(0), map[string]any{"op": "delete", "path": a.str(1)})
			}),
		step(When, "{id} is {string:tool} {json:args} answering {text:text}", noArg,
			"another tool's result: its name, arguments and text",
			func(b *B, a *args) error { return b.output(a.str(0), a.str(1), a.raw(2), a.str(3)) }),
		step(When, "{id} is {string:tool} {json:args} answering:", docArg,
			"another tool's result, its text the docstring",
			func(b *B, a *args) error {
				t, err := a.text()
				if err != nil {
					return err
				}
				return b.output(a.str(0), a.str(1), a.raw(2), t)
			}),
		step(When, "{id} is {string:tool} {json:args} answering the numbers 1 to {int:n}, one a line", noArg,
			`another tool's result: "1\n2\n…\nN"`,
			func(b *B, a *args) error { return b.output(a.str(0), a.str(1), a.raw(2), numbers(a.num(3))) }),
		step(When, "{id} recalls {string:target}", noArg, "a recall of a result (the # may be left out)",
			func(b *B, a *args) error { return b.recall(a.str(0), a.str(1), 0, 0) }),
		step(When, "{id} recalls {string:target} from line {int:offset}", noArg, "a recall from a line",
			func(b *B, a *args) error { return b.recall(a.str(0), a.str(1), a.num(2), 0) }),
		step(When, "{id} recalls {int:limit} lines of {string:target} from line {int:offset}", noArg,
			"a recall of some lines from a line",
			func(b *B, a *args) error { return b.recall(a.str(0), a.str(2), a.num(3), a.num(1)) }),
		step(When, "a new reply begins", noArg,
			"a reply whose request does not carry the results so far (a chat's next reply)",
			func(b *B, a *args) error { return b.add("", map[string]any{"op": "reply"}) }),
		step(When, "the session is compacted", noArg, "the summary's table is added and the dedupe table emptied",
			func(b *B, a *args) error { return b.add("", map[string]any{"op": "compact"}) }),
	}, contextTurns()...)
}

// contextTurns are the phrases of turns (lembas-check's turn, undo and rewind steps) and of a
// compaction's summary reply (its summary field).
func contextTurns() []stepDef {
	type B = contextB
	return []stepDef{
		step(When, "a new turn begins", noArg,
			"the person's next message: a turn whose request still carries every earlier result",
			func(b *B, a *args) error { return b.add("", map[string]any{"op": "turn"}) }),
		step(When, "the last turn is undone", noArg, "the newest turn taken back, with its results",
			func(b *B, a *args) error { return b.add("", map[string]any{"op": "undo"}) }),
		step(When, "the last {int:n} turns are rewound", noArg, "the newest n turns taken back, with their results",
			func(b *B, a *args) error { return b.add("", map[string]any{"op": "rewind", "turns": a.num(0)}) }),
		step(When, "the session is compacted, the summary's reply being {string:kind}", noArg,
			"a compaction whose summary reply is text, text_and_call (the call is not run), call or empty "+
				"(those two fail it)",
			func(b *B, a *args) error {
				return b.add("", map[string]any{"op": "compact", "summary": a.str(0)})
			}),
	}
}

// contextThens are the phrases of what a result or a compaction inserts.
func contextThens() []stepDef {
	type B = contextB
	// The Thens' items: the result a Then names by its id, the scenario's one compaction, or the
	// one it names by its place.
	result := func(b *B, a *args) (int, error) { return b.result(a.str(0)) }
	theCompaction := func(b *B, a *args) (int, error) { return b.nth("compact", 0) }
	compactionN := func(b *B, a *args) (int, error) { return b.nth("compact", a.num(0)) }
	return []stepDef{
		thenOf("{id} inserts:", docArg, "the whole text the result inserts", result, nil, docWant),
		thenOf("{id} inserts {text:text}", noArg, "the whole text the result inserts, on one line", result, nil,
			valWant(1)),
		thenOf("the bracket of {id} is {text:line}", noArg,
			"the first line the result inserts (its bracket, and a stub's "+
				"sentence)", result, path{firstLine}, valWant(1)),
		thenOf("the last line of {id} is {text:line}", noArg, "the last line the result inserts", result,
			path{lastLine}, valWant(1)),
		thenOf("{id} inserts {int:n} lines", noArg, "how many lines the result inserts", result, path{lineCount},
			valWant(1)),
		thenOf("the compaction inserts:", docArg, "the text the scenario's one compaction inserts (its table)",
			theCompaction, nil, docWant),
		thenOf("compaction {int:n} inserts:", docArg, "the text the n-th compaction inserts", compactionN, nil,
			docWant),
		thenOf("the compaction inserts nothing", noArg, `the one compaction inserts "" (no reads: no table)`,
			theCompaction, nil, is("")),
		thenOf("compaction {int:n} inserts nothing", noArg, `the n-th compaction inserts ""`, compactionN, nil, is("")),
		step(Then, "every reply inserts nothing", noArg, `each reply step inserts ""`,
			func(b *B, a *args) error {
				n := 0
				for i, s := range b.steps {
					if s["op"] == "reply" {
						n++
						if err := a.expect(path{i}, ""); err != nil {
							return err
						}
					}
				}
				if n == 0 {
					return fmt.Errorf("the scenario has no reply step")
				}
				return nil
			}),
	}
}
