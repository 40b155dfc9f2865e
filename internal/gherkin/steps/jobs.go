package steps

import "fmt"

// jobs: the note a session is given about its background work. A Given names the job (a
// command, a subagent, a message from or to one) and its record; the case is sent when a Then
// asks; the Thens say the note's text, whole or by line.

type jobsBuilder struct {
	fields map[string]any
}

func (b *jobsBuilder) Case() (map[string]any, error) {
	if b.fields["kind"] == nil {
		return nil,
			fmt.Errorf("no job: begin with `Given a background command ...`, `Given a subagent ...`, `Given a " +
				"message from the subagent ...` or `Given a message to the subagent:`")
	}
	return b.fields, nil
}

func (b *jobsBuilder) set(kind string, fields map[string]any) error {
	if k, ok := b.fields["kind"]; ok && k != kind {
		return fmt.Errorf("this scenario is about a %s job already; a case is one note", k)
	}
	b.fields["kind"] = kind
	for k, v := range fields {
		b.fields[k] = v
	}
	return nil
}

// noteLine is the note's line n (from 1), for a Then about one line.
func noteLine(n int) path { return path{"text", lineView(n)} }

// Jobs is the vocabulary of area jobs: the note a session is given about its background work.
var Jobs = &Vocabulary{newBuilder: func() builder { return &jobsBuilder{fields: map[string]any{}} }, define: jobsSteps}

func jobsSteps() []stepDef {
	type B = jobsBuilder
	fields := func(b *B) map[string]any { return b.fields }
	return []stepDef{
		step(Given, "a background command {string:command} with the id {string:id}", noArg,
			"a command job (kind command): its command and id",
			func(b *B, a *args) error {
				return b.set("command", map[string]any{"command": a.str(0), "id": a.str(1)})
			}),
		step(Given, "it exited with {int:code}", noArg, "the command's exit code",
			func(b *B, a *args) error { b.fields["exit"] = a.num(0); return nil }),
		step(Given, "a signal stopped it", noArg, "the command was stopped by a signal (exit null)",
			func(b *B, a *args) error { b.fields["exit"] = nil; return nil }),
		step(Given, "it ran for {int:seconds} seconds", noArg, "how long the job ran",
			func(b *B, a *args) error { b.fields["seconds"] = a.num(0); return nil }),
		step(Given, "its unread output is {text:output}", noArg, "the output the model had not read",
			func(b *B, a *args) error { b.fields["unread"] = a.str(0); return nil }),
		step(Given, "its unread output is these lines:", docArg,
			"the output the model had not read: the docstring's lines, each ending with a line break",
			setFrom(fields, "unread", docLines)),
		step(Given, "it left no unread output", noArg, "unread is empty",
			func(b *B, a *args) error { b.fields["unread"] = ""; return nil }),
		step(Given, "a subagent {string:agent} with the id {string:id} asked to {string:description}", noArg,
			"a subagent job (kind subagent): its agent, id and what it was asked",
			func(b *B, a *args) error {
				return b.set("subagent", map[string]any{"agent": a.str(0), "id": a.str(1), "description": a.str(2)})
			}),
		step(Given, "it took {int:steps} steps and {int:tools} tool calls", noArg,
			"the subagent's step and tool-call counts",
			func(b *B, a *args) error { b.fields["steps"], b.fields["tools"] = a.num(0), a.num(1); return nil }),
		step(Given, "it ended with the reason {string:reason}", noArg,
			"why the subagent ended: stop, stopped, steps, budget or error",
			func(b *B, a *args) error { b.fields["reason"] = a.str(0); return nil }),
		step(Given, "it failed with the error {string:error}", noArg, "reason error, with the error's text",
			func(b *B, a *args) error { b.fields["reason"], b.fields["error"] = "error", a.str(0); return nil }),
		step(Given, "its report is {text:report}", noArg, "the subagent's report",
			func(b *B, a *args) error { b.fields["report"] = a.str(0); return nil }),
		step(Given, "its report is:", docArg, "the subagent's report, as the docstring has it",
			setFrom(fields, "report", (*args).text)),
		step(Given, "it returned no report", noArg, "the report is empty",
			func(b *B, a *args) error { b.fields["report"] = ""; return nil }),
		step(Given, "its worktree summary is {string:summary}", noArg, "the worktree summary line",
			func(b *B, a *args) error { b.fields["worktree"] = a.str(0); return nil }),
		step(Given, "a message from the subagent {string:agent} with the id {string:id} asked to {string:description}:",
			docArg,
			"a message from a subagent (kind message); the docstring is its text",
			func(b *B, a *args) error {
				t, err := a.text()
				if err != nil {
					return err
				}
				return b.set("message", map[string]any{"agent": a.str(0), "id": a.str(1), "description": a.str(2),
					"text": t})
			}),
		step(Given, "a message to the subagent:", docArg, "a message the main agent sent a subagent (kind to_subagent)",
			func(b *B, a *args) error {
				t, err := a.text()
				if err != nil {
					return err
				}
				return b.set("to_subagent", map[string]any{"text": t})
			}),
		step(When, "the job's note is made", noArg,
			"marks the end of the record (optional: the case is sent at the first Then)",
			func(b *B, a *args) error { return nil }),
		thenPart[B]("the note is:", docArg, "the whole note, mark included", path{"text"}, docWant),
		step(Then, "the note's first line is {text:line}", noArg, "the note's first line (its mark)",
			func(b *B, a *args) error { return a.expect(noteLine(1), a.str(0)) }),
		step(Then, "line {int:n} of the note is {text:line}", noArg, "one line of the note, counting from 1",
			func(b *B, a *args) error {
				if _, err := a.counted(0, "lines"); err != nil {
					return err
				}
				return a.expect(noteLine(a.num(0)), a.str(1))
			}),
		thenPart[B]("the note has {int:n} lines", noArg, "how many lines the note has", path{"text", lineCount},
			valWant(0)),
	}
}
