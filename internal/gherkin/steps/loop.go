package steps

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// loop: the agent loop's rules of loop.json. Givens lay out a step's calls, the connections and
// models, the MCP servers; a When names the op (or, for jobs, adds an event); Thens say what the
// answer holds — for jobs, of the event (a When) they name by its number.

type loopBuilder struct {
	op     string
	fields map[string]any
	calls  []map[string]any
	conns  map[string]any
	events []map[string]any
}

func (b *loopBuilder) set(op, k string, v any) error {
	if b.op != "" && b.op != op {
		return fmt.Errorf("this step is op %s's; the scenario is already op %s's", op, b.op)
	}
	b.op = op
	if b.fields == nil {
		b.fields = map[string]any{}
	}
	if k != "" {
		b.fields[k] = v
	}
	return nil
}

func (b *loopBuilder) Case() (map[string]any, error) {
	if b.op == "" {
		return nil, fmt.Errorf("no op: say it with `Given the step calls:`, `When the \"…\" is reached …`, " +
			"`When a subagent is to start …`, `When the first request is made` or a job's When")
	}
	c := map[string]any{"op": b.op}
	for k, v := range b.fields {
		c[k] = v
	}
	switch b.op {
	case "parallel":
		c["step"] = b.calls
	case "capacity":
		c["connections"] = b.conns
		if c["running"] == nil {
			c["running"] = []any{}
		}
	case "mcp":
		if c["servers"] == nil {
			c["servers"] = []any{}
		}
	case "jobs":
		c["events"] = b.events
	}
	return c, nil
}

// event adds a jobs event.
func (b *loopBuilder) event(e map[string]any) error {
	if err := b.set("jobs", "", nil); err != nil {
		return err
	}
	b.events = append(b.events, e)
	return nil
}

func (b *loopBuilder) conn(name, k string) error {
	if err := b.set("capacity", "", nil); err != nil {
		return err
	}
	if b.conns == nil {
		b.conns = map[string]any{}
	}
	c, _ := b.conns[name].(map[string]any)
	if c == nil {
		c = map[string]any{"one_model": false, "one_request": false}
		b.conns[name] = c
	}
	if k != "" {
		c[k] = true
	}
	return nil
}

// Loop is the vocabulary of area loop: the wrap-up, one step's calls, capacity, the MCP wait and
// the job registry.
var Loop = &Vocabulary{newBuilder: func() builder { return &loopBuilder{} }, define: loopSteps}

func loopSteps() []stepDef {
	return append(append(loopCallSteps(), loopModelSteps()...), loopJobSteps()...)
}

// batches reads "1 2 3 4, 5": the batches, comma-separated, each its calls by number from 1.
func batches(a *args) (any, error) {
	out := []any{}
	for _, part := range strings.Split(a.str(0), ",") {
		batch := []any{}
		for _, f := range strings.Fields(part) {
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("%q: a batch is its calls' numbers, from 1, spaces between", part)
			}
			batch = append(batch, n-1)
		}
		out = append(out, batch)
	}
	return out, nil
}

func loopCallSteps() []stepDef {
	type B = loopBuilder
	return []stepDef{
		step(Given, "the step calls:", tableArg, "one step's tool calls in the model's order: the tool and the file "+
			"it works on (empty: none)", func(b *B, a *args) error {
			rows, err := a.rows(2)
			if err != nil {
				return err
			}
			for _, r := range rows {
				c := map[string]any{"tool": strings.TrimSpace(r[0])}
				if f := strings.TrimSpace(r[1]); f != "" {
					c["file"] = f
				}
				b.calls = append(b.calls, c)
			}
			return b.set("parallel", "", nil)
		}, "tool", "file"),
		step(Given, "call {int:n} fails", noArg, "that call's tool answers an error", func(b *B, a *args) error {
			i, err := a.counted(0, "calls")
			if err != nil || i >= len(b.calls) {
				return fmt.Errorf("no call %d: `Given the step calls:` comes first", a.num(0))
			}
			b.calls[i]["fails"] = true
			return nil
		}),
		thenPart[B]("the calls run as {string:batches}", noArg, "the batches one after another, each its calls "+
			"by number run together: \"1 2 3 4, 5\"", path{"parallel", "batches"}, batches),
		thenPart[B]("the prompt goes on to its next step", noArg, "next_step is true",
			path{"parallel", "next_step"}, is(true)),
		step(Given, "the session offers the tools {strings:tools}", noArg, "the session's tool list",
			func(b *B, a *args) error { return b.set("wrap_up", "tools", a.list(0)) }),
		step(When, "the {string:limit} is reached and the reply calls {strings:tools}", noArg,
			"op wrap_up: the limit, as the message names it, and the calls of the wrap-up reply",
			func(b *B, a *args) error {
				if err := b.set("wrap_up", "limit", a.str(0)); err != nil {
					return err
				}
				b.fields["calls"] = a.list(1)
				if b.fields["tools"] == nil {
					b.fields["tools"] = []string{}
				}
				return nil
			}),
		thenPart[B]("the wrap-up message names the {string:limit}", noArg, "loop.json wrap_up.message, "+
			"{{limit}} filled", path{"wrap_up", "message"}, func(a *args) (any, error) {
			return spec.Render(spec.LoopJSON().WrapUp.Message, map[string]string{"limit": a.str(0)})
		}),
		thenPart[B]("the tools sent are {strings:tools}", noArg, "the wrap-up request's tool list",
			path{"wrap_up", "tools"}, valWant(0)),
		thenPart[B]("no call of the reply runs", noArg, "run is []", path{"wrap_up", "run"}, is([]any{})),
	}
}

func loopModelSteps() []stepDef {
	type B = loopBuilder
	model := func(a *args) map[string]any { return map[string]any{"model": a.str(0), "connection": a.str(1)} }
	return []stepDef{
		step(Given, "the connection {string:name} holds one model at a time", noArg, "capacity: one_model",
			func(b *B, a *args) error { return b.conn(a.str(0), "one_model") }),
		step(Given, "the connection {string:name} serves one request at a time", noArg, "capacity: one_request, "+
			"a model's", func(b *B, a *args) error { return b.conn(a.str(0), "one_request") }),
		step(Given, "the connection {string:name} holds several models", noArg, "capacity: neither limit",
			func(b *B, a *args) error { return b.conn(a.str(0), "") }),
		step(Given, "the prompt runs {string:model} on {string:connection}", noArg, "the prompt's own model",
			func(b *B, a *args) error { return b.set("capacity", "prompt", model(a)) }),
		step(Given, "a subagent runs {string:model} on {string:connection}", noArg, "a running subagent's model",
			func(b *B, a *args) error {
				if err := b.set("capacity", "", nil); err != nil {
					return err
				}
				r, _ := b.fields["running"].([]any)
				b.fields["running"] = append(r, model(a))
				return nil
			}),
		step(When, "a subagent is to start {string:model} on {string:connection}", noArg, "op capacity",
			func(b *B, a *args) error { return b.set("capacity", "start", model(a)) }),
		thenPart[B]("it is started", noArg, `the answer is {"start": true}`, nil, is(map[string]any{"start": true})),
		thenPart[B]("it is not started", noArg, `the answer is {"start": false}`, nil,
			is(map[string]any{"start": false})),
		step(Given, "the MCP server {string:name} connects after {int:ms} ms", noArg, "a configured server",
			func(b *B, a *args) error { return b.server(map[string]any{"name": a.str(0), "connect_ms": a.num(1)}) }),
		step(Given, "the MCP server {string:name} never connects", noArg, "a configured server that never does",
			func(b *B, a *args) error { return b.server(map[string]any{"name": a.str(0), "never": true}) }),
		step(When, "the first request is made", noArg, "op mcp", func(b *B, a *args) error {
			return b.set("mcp", "", nil)
		}),
		thenPart[B]("it goes at {int:ms} ms", noArg, "when the first request goes", path{"mcp", "first_request_ms"},
			valWant(0)),
		thenPart[B]("its tools are those of {strings:servers}", noArg, "the servers whose tools the first list has",
			path{"mcp", "with"}, valWant(0)),
		thenPart[B]("{strings:servers} add their tools later", noArg, "the servers that connect after it, in order",
			path{"mcp", "later"}, valWant(0)),
	}
}

func (b *loopBuilder) server(s map[string]any) error {
	if err := b.set("mcp", "", nil); err != nil {
		return err
	}
	r, _ := b.fields["servers"].([]any)
	b.fields["servers"] = append(r, s)
	return nil
}

func loopJobSteps() []stepDef {
	type B = loopBuilder
	ev := func(op string, kv ...any) func(b *B, a *args) error {
		return func(b *B, a *args) error {
			e := map[string]any{"op": op}
			for i := 0; i < len(kv); i += 2 {
				switch v := kv[i+1].(type) {
				case int: // the step's hole v
					e[kv[i].(string)] = a.vals[v]
				default:
					e[kv[i].(string)] = v
				}
			}
			return b.event(e)
		}
	}
	// A jobs Then is about one event, by its number: each When of a jobs scenario is one event.
	then := func(phrase, doc, key string, w want) stepDef {
		return step(Then, "event {int:event} "+phrase, noArg, doc, func(b *B, a *args) error {
			i, err := a.counted(0, "events")
			if err != nil {
				return err
			}
			if b.op != "jobs" || i >= len(b.events) {
				return fmt.Errorf("no event %d: the scenario's Whens are its %d events", a.num(0), len(b.events))
			}
			return a.check(path{"results", i, key}, w)
		})
	}
	marks := spec.LoopJSON().Jobs.Marks
	return []stepDef{
		step(When, "{int:n} background commands start", noArg, "start: the main agent's bash background: true",
			ev("start", "kind", "command", "times", 0)),
		step(When, "{int:n} background commands start and finish", noArg, "start, each ending at once",
			ev("start", "kind", "command", "times", 0, "finished", true)),
		step(When, "a subagent starts", noArg, "start: task background: true", ev("start", "kind", "subagent")),
		step(When, "the subagent {string:job} starts a background command", noArg, "start, by a running subagent",
			ev("start", "kind", "command", "by", 0)),
		step(When, "{string:job} prints {text:output}", noArg, "output: the command prints it",
			ev("output", "job", 0, "text", 1)),
		step(When, "{string:job} finishes", noArg, "finish: the job ends of its own", ev("finish", "job", 0)),
		step(When, "job_output of {string:job} is read", noArg, "read, by the main agent", ev("read", "job", 0)),
		step(When, "{string:job} takes {int:n} steps", noArg, "steps: the subagent takes them",
			ev("steps", "job", 0, "n", 1)),
		step(When, "a prompt starts", noArg, "prompt start", ev("prompt", "text", "start")),
		step(When, "the prompt ends", noArg, "prompt end", ev("prompt", "text", "end")),
		step(When, "the session is {word:what}", noArg, "session: closed, resumed or deleted",
			func(b *B, a *args) error {
				what := map[string]string{"closed": "close", "resumed": "resume", "deleted": "delete"}[a.str(0)]
				if what == "" {
					return fmt.Errorf("%q: the session is closed, resumed or deleted", a.str(0))
				}
				return b.event(map[string]any{"op": "session", "text": what})
			}),
		then("starts {strings:ids}", "the ids the start gave", "started", valWant(1)),
		then("is refused {int:n} times", "how many starts bash refused (past jobs.running_max)", "refused",
			valWant(1)),
		then("finds no such job", "the answer is unknown", "unknown", is(true)),
		then("gives {text:output}", "job_output's output: what had not been read", "output", valWant(1)),
		then("wakes the session as a user message at the next step", "wake step", "wake", is("step")),
		then("wakes the session as a turn of its own marked machine", "role machine (wake turn)", "role",
			is("machine")),
		then("is kept until the session is resumed", "wake held", "wake", is("held")),
		then("carries {text:output}", "the unread output's tail the note carries", "unread", valWant(1)),
		then("is marked as a finished command's", "loop.json jobs.marks.command", "mark", is(marks.Command)),
		then("is marked as a finished subagent's", "loop.json jobs.marks.subagent", "mark", is(marks.Subagent)),
		then("ends it by the backstop after {int:n} steps", "steps: how many the subagent took", "steps",
			valWant(1)),
		then("delivers {strings:ids}", "the held notes a resume gives", "delivered", valWant(1)),
		then("stops {strings:ids}", "the jobs stopped: a subagent's own commands at its end, a session's at its "+
			"delete", "stopped", valWant(1)),
	}
}
