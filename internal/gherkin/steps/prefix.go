package steps

import (
	"fmt"
	"strings"
)

// prefix: what each request of a session sends. Givens describe the session as it starts and the
// tools the case looks at; each When is one step (a request, a change, a call); Thens name a step
// by its place among the Whens ("step 3") and say what it sends or answers.

type prefixBuilder struct {
	start map[string]any
	tools []string
	steps []map[string]any
	// files and mcp are the instruction files and MCP servers as the steps so far left them: a
	// set step gives the whole new set, and a When names one change.
	files map[string]string
	mcp   map[string]string
}

// requests are the ops whose answer is a request {system, tools, note|ask}.
var requests = map[string]bool{"user": true, "tool": true, "compact": true, "wrapup": true}

func (b *prefixBuilder) Case() (map[string]any, error) {
	switch {
	case b.start["date"] == nil:
		return nil,
			fmt.Errorf("no session: begin with `Given a session that starts on \"2026-11-05\" in mode \"manual\"`")
	case b.start["could"] == nil:
		return nil,
			fmt.Errorf("what could the session ever meet? say it with `Given it could meet \"plan\"` (or `Given it " +
				"could meet nothing`)")
	case b.tools == nil:
		return nil,
			fmt.Errorf("which tools does the case look at? say it with `Given the tools \"read\" and \"plan_submit\"`")
	case len(b.steps) == 0:
		return nil, fmt.Errorf("no steps: a When is one step, e.g. `When the person sends a message`")
	}
	start := map[string]any{}
	for k, v := range b.start {
		start[k] = v
	}
	return map[string]any{"start": start, "tools": b.tools, "steps": b.steps}, nil
}

func (b *prefixBuilder) setStart(field string, v any) error {
	if len(b.steps) > 0 {
		return fmt.Errorf("the session has begun: a Given describes its start, before the first When")
	}
	b.start[field] = v
	return nil
}

func (b *prefixBuilder) add(s map[string]any) error {
	b.steps = append(b.steps, s)
	return nil
}

// set is a change step; by is "model" for the model's own tool, "" for the person (or the clock).
func (b *prefixBuilder) set(by string, fields map[string]any) error {
	s := map[string]any{"op": "set"}
	for k, v := range fields {
		s[k] = v
	}
	if by == "model" {
		s["by"] = "model"
	}
	return b.add(s)
}

func copyTexts(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// at is the answer's item for step n of the scenario (its n-th When, from 1).
func (b *prefixBuilder) at(n int) (int, error) { return stepIndex(n, len(b.steps)) }

func (b *prefixBuilder) request(n int) (int, error) {
	i, err := b.at(n)
	if err != nil {
		return 0, err
	}
	if op := b.steps[i]["op"].(string); !requests[op] {
		return 0, fmt.Errorf("step %d is a %s step, not a request (a user message, a tool step, the summary or the "+
			"wrap-up)", n, op)
	}
	return i, nil
}

// change reads a person's or the model's change of one field by the words a When uses.
func (b *prefixBuilder) change(by, field, value string) error {
	switch field {
	case "plan", "memory", "personality", "mode", "date":
		return b.set(by, map[string]any{field: value})
	}
	return fmt.Errorf("no field %q", field)
}

// fieldRows reads a table of field | value for several changes at once: date, mode, plan, memory,
// personality, `file PATH` (a file's new text, "" removing it) and `mcp NAME`.
func (b *prefixBuilder) fieldRows(a *args) (map[string]any, error) {
	rows, err := a.rows(2)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	files, mcp := false, false
	for _, r := range rows {
		f, v := strings.TrimSpace(r[0]), r[1]
		switch {
		case f == "date" || f == "mode" || f == "plan" || f == "memory" || f == "personality":
			out[f] = v
		case strings.HasPrefix(f, "file "):
			b.files[strings.TrimSpace(strings.TrimPrefix(f, "file "))] = v
			files = true
		case strings.HasPrefix(f, "mcp "):
			b.mcp[strings.TrimSpace(strings.TrimPrefix(f, "mcp "))] = v
			mcp = true
		default:
			return nil, fmt.Errorf("no field %q: a row is date, mode, plan, memory, personality, file PATH or mcp NAME",
				f)
		}
	}
	if files {
		out["files"] = copyTexts(b.files)
	}
	if mcp {
		out["mcp"] = copyTexts(b.mcp)
	}
	return out, nil
}

// Prefix is the vocabulary of area prefix: what each request of a session sends.
var Prefix = &Vocabulary{newBuilder: func() builder {
	return &prefixBuilder{start: map[string]any{}, files: map[string]string{}, mcp: map[string]string{}}
}, define: prefixSteps}

// prefixSteps are prefix's phrases: the Givens of the session's start, the Whens of its
// requests and changes, and the Thens of what each request sends.
func prefixSteps() []stepDef {
	steps := prefixGivens()
	steps = append(steps, prefixWhens()...)
	steps = append(steps, prefixChanges()...)
	return append(steps, prefixThens()...)
}

type prefixB = prefixBuilder

// prefixGivens are the phrases of what the session starts with.
func prefixGivens() []stepDef {
	type B = prefixB
	steps := []stepDef{
		step(Given, "a session that starts on {string:date} in mode {string:mode}", noArg,
			"the session's date and permission mode as it begins",
			func(b *B, a *args) error {
				if err := b.setStart("date", a.str(0)); err != nil {
					return err
				}
				return b.setStart("mode", a.str(1))
			}),
		step(Given, "it could meet {strings:requirements}", noArg,
			"start.could: what the session could ever meet (plan, display, page, forge)",
			func(b *B, a *args) error { return b.setStart("could", a.list(0)) }),
		step(Given, "it could meet nothing", noArg, "start.could is []",
			func(b *B, a *args) error { return b.setStart("could", []string{}) }),
		step(Given, "it meets {strings:requirements} now", noArg,
			"start.met: what is met at the start besides plan (without this step: all it could)",
			func(b *B, a *args) error { return b.setStart("met", a.list(0)) }),
		step(Given, "it meets nothing now", noArg, "start.met is []",
			func(b *B, a *args) error { return b.setStart("met", []string{}) }),
		step(Given, "the session is a chat", noArg,
			"start.chat: a chat, which does not resend earlier tool results and says plan_ended and plan_own",
			func(b *B, a *args) error { return b.setStart("chat", true) }),
		step(Given, "the tools {strings:tools}", noArg, "the tools the case looks at, in order",
			func(b *B, a *args) error { b.tools = a.list(0); return nil }),
		step(Given, "its instruction file {string:path} reads {text:text}", noArg,
			"an instruction text the prompt is made from (start.files)",
			func(b *B, a *args) error {
				b.files[a.str(0)] = a.str(1)
				return b.setStart("files", copyTexts(b.files))
			}),
		step(Given, "the MCP server {string:name} instructs {text:text}", noArg,
			"an MCP server connected at the start, with its instructions (start.mcp)",
			func(b *B, a *args) error { b.mcp[a.str(0)] = a.str(1); return b.setStart("mcp", copyTexts(b.mcp)) }),
	}
	for _, f := range []string{"plan", "memory", "personality"} {
		steps = append(steps,
			step(Given, "its "+f+" is {text:text}", noArg, "start."+f,
				func(b *B, a *args) error { return b.setStart(f, a.str(0)) }),
			step(Given, "its "+f+" is:", docArg, "start."+f+", the docstring",
				func(b *B, a *args) error {
					t, err := a.text()
					if err != nil {
						return err
					}
					return b.setStart(f, t)
				}))
	}
	return steps
}

// prefixWhens are the phrases of the requests and of what the clock, the requirements and the
// MCP servers do.
func prefixWhens() []stepDef {
	type B = prefixB
	var steps []stepDef
	steps = append(steps,
		step(When, "the person sends a message", noArg, "a request carrying a user message (op user)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "user"}) }),
		step(When, "a tool step is requested", noArg, "a request with no user message (op tool)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "tool"}) }),
		step(When, "the summary is asked for", noArg, "the compaction request (op compact)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "compact"}) }),
		step(When, "the session wraps up", noArg, "the request after a step limit or a budget (op wrapup)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "wrapup"}) }),
		step(When, "the session moves to another model", noArg, "op model",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "model"}) }),
		step(When, "the session is resumed", noArg, "it sends what it kept (lembas-check's op resume)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "resume"}) }),
		step(When, "the model calls {string:tool}", noArg, "a call of a tool now (op call)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "call", "tool": a.str(0)}) }),
		step(When, "the date becomes {string:date}", noArg, "the clock moves on (set date)",
			func(b *B, a *args) error { return b.set("", map[string]any{"date": a.str(0)}) }),
		step(When, "the session now meets {strings:requirements}", noArg, "set met: what is met now besides plan",
			func(b *B, a *args) error { return b.set("", map[string]any{"met": a.list(0)}) }),
		step(When, "the session now meets nothing", noArg, "set met to []",
			func(b *B, a *args) error { return b.set("", map[string]any{"met": []string{}}) }),
		step(When, "the person chooses the personality {text:text}", noArg, "set personality",
			func(b *B, a *args) error { return b.set("", map[string]any{"personality": a.str(0)}) }),
		step(When, "the MCP server {string:name} connects, instructing {text:text}", noArg,
			"set mcp: the servers so far and this one",
			func(b *B, a *args) error {
				b.mcp[a.str(0)] = a.str(1)
				return b.set("", map[string]any{"mcp": copyTexts(b.mcp)})
			}),
		step(When, "the MCP server {string:name} goes away", noArg, "set mcp: the servers so far without this one",
			func(b *B, a *args) error {
				delete(b.mcp, a.str(0))
				return b.set("", map[string]any{"mcp": copyTexts(b.mcp)})
			}),
	)
	return steps
}

// prefixChanges are the phrases of what the person, or the model with its own tools, changes.
func prefixChanges() []stepDef {
	type B = prefixB
	who := []struct{ words, by string }{{"the person", ""}, {"the model", "model"}}
	var steps []stepDef
	for _, w := range who {
		steps = append(steps,
			step(When, w.words+" sets the mode to {string:mode}", noArg, "set mode"+byWords(w.by),
				func(b *B, a *args) error { return b.change(w.by, "mode", a.str(0)) }),
			step(When, w.words+" changes the plan to {text:plan}", noArg, "set plan"+byWords(w.by),
				func(b *B, a *args) error { return b.change(w.by, "plan", a.str(0)) }),
			step(When, w.words+" changes the plan to:", docArg, "set plan to the docstring"+byWords(w.by),
				func(b *B, a *args) error {
					t, err := a.text()
					if err != nil {
						return err
					}
					return b.change(w.by, "plan", t)
				}),
			step(When, w.words+" changes the memory to {text:memory}", noArg, "set memory"+byWords(w.by),
				func(b *B, a *args) error { return b.change(w.by, "memory", a.str(0)) }),
			step(When, w.words+" changes the instruction file {string:path} to {text:text}", noArg,
				"set files: the files so far, this one's text changed or added"+byWords(w.by),
				func(b *B, a *args) error {
					b.files[a.str(0)] = a.str(1)
					return b.set(w.by, map[string]any{"files": copyTexts(b.files)})
				}),
			step(When, w.words+" removes the instruction file {string:path}", noArg,
				"set files: the files so far without this one"+byWords(w.by),
				func(b *B, a *args) error {
					delete(b.files, a.str(0))
					return b.set(w.by, map[string]any{"files": copyTexts(b.files)})
				}),
			step(
				When,
				w.words+" changes at once:",
				tableArg,
				"one set step of several fields: date, mode, plan, memory, personality, `file PATH`, "+
					"`mcp NAME`"+byWords(w.by),
				func(b *B, a *args) error {
					f, err := b.fieldRows(a)
					if err != nil {
						return err
					}
					return b.set(w.by, f)
				},
				"field",
				"value",
			),
		)
	}
	return steps
}

// prefixThens are the phrases of what a request sends or a step answers.
func prefixThens() []stepDef {
	type B = prefixB
	// The Thens' items: the request or the step a Then names by its place among the Whens.
	request := func(b *B, a *args) (int, error) { return b.request(a.num(0)) }
	at := func(b *B, a *args) (int, error) { return b.at(a.num(0)) }
	var steps []stepDef
	steps = append(steps,
		step(Then, "step {int:n} sends system prompt {int:system} with the tools {strings:tools}", noArg,
			"a request's system prompt number and tool list",
			func(b *B, a *args) error {
				i, err := b.request(a.num(0))
				if err != nil {
					return err
				}
				if err := a.expect(path{i, "system"}, a.num(1)); err != nil {
					return err
				}
				return a.expect(path{i, "tools"}, a.list(2))
			}),
		thenOf("step {int:n} sends system prompt {int:system}", noArg, "a request's system prompt number", request,
			path{"system"}, valWant(1)),
		thenOf("step {int:n} offers the tools {strings:tools}", noArg, "a request's tool list", request, path{"tools"},
			valWant(1)),
		step(Then, "every request sends system prompt {int:system} with the tools {strings:tools}", noArg,
			"each request step's system prompt number and tool list",
			func(b *B, a *args) error {
				n := 0
				for i, s := range b.steps {
					if !requests[s["op"].(string)] {
						continue
					}
					n++
					if err := a.expect(path{i, "system"}, a.num(0)); err != nil {
						return err
					}
					if err := a.expect(path{i, "tools"}, a.list(1)); err != nil {
						return err
					}
				}
				if n == 0 {
					return fmt.Errorf("the scenario has no request step")
				}
				return nil
			}),
		thenOf("step {int:n} carries the note:", docArg, "a request's note, whole", request, path{"note"}, docWant),
		thenOf("step {int:n} carries no note", noArg, "a request's note is null", request, path{"note"}, is(nil)),
		thenOf("step {int:n} asks:", docArg, "the compaction request's ask, whole", request, path{"ask"}, docWant),
		thenOf("step {int:n} answers {text:text}", noArg, "a call's answer: the tool's unavailable text", at, nil,
			valWant(1)),
		thenOf("step {int:n} answers:", docArg, "a call's answer, the docstring", at, nil, docWant),
		thenOf("step {int:n} runs", noArg, "a call runs: its answer is null", func(b *B, a *args) (int, error) {
			i, err := b.at(a.num(0))
			if err == nil && b.steps[i]["op"] != "call" {
				err = fmt.Errorf("step %d is a %s step, not a call", a.num(0), b.steps[i]["op"])
			}
			return i, err
		}, nil, is(nil)),
		thenOf("step {int:n} answers nothing", noArg, "a set or model step's answer is null", at, nil, is(nil)),
	)
	return steps
}

func byWords(by string) string {
	if by == "model" {
		return `, by: "model" (the model's own tool did it)`
	}
	return " (the person did it)"
}
