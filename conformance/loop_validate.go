package conformance

import (
	"slices"
	"strconv"

	"github.com/LLeMbas/lembas-check/harness/jobs"
)

// loopFields are the fields each op of a loop case takes beside op and about.
var loopFields = map[string][]string{
	"wrap_up":  {"limit", "tools", "calls"},
	"parallel": {"step"},
	"capacity": {"connections", "prompt", "running", "start"},
	"mcp":      {"servers"},
	"history":  {"turns"},
	"jobs":     {"events"},
}

func (c loopCase) Validate() error {
	want, ok := loopFields[c.Op]
	if !ok {
		return Fieldf("op", "%q: want wrap_up, parallel, capacity, mcp, history or jobs", c.Op)
	}
	set := map[string]bool{"limit": c.Limit != nil, "tools": c.Tools != nil, "calls": c.Calls != nil,
		"step": c.Step != nil, "connections": c.Connections != nil, "prompt": c.Prompt != nil,
		"running": c.Running != nil, "start": c.Start != nil, "servers": c.Servers != nil,
		"turns": c.Turns != nil, "events": c.Events != nil}
	mine := map[string]bool{}
	for _, f := range want {
		mine[f] = true
	}
	for f, isSet := range set {
		if isSet && !mine[f] {
			return Fieldf(f, "is not an op %s case's", c.Op)
		}
	}
	switch c.Op {
	case "wrap_up":
		if c.Limit == nil || *c.Limit == "" {
			return Fieldf("limit", "missing: the limit reached, as the message names it")
		}
	case "parallel":
		if len(c.Step) == 0 {
			return Fieldf("step", "missing: the step's calls")
		}
	case "capacity":
		return c.validateCapacity()
	case "jobs":
		for i, e := range c.Events {
			if err := e.validate(); err != nil {
				fe := err.(*FieldError)
				return Fieldf(joinField("events", "["+strconv.Itoa(i)+"]."+fe.Field), "%s", fe.Msg)
			}
		}
	}
	return nil
}

func (c loopCase) validateCapacity() error {
	if c.Prompt == nil || c.Start == nil {
		return Fieldf("start", "missing: a capacity case needs prompt and start")
	}
	for _, m := range append([]loopModel{*c.Prompt, *c.Start}, c.Running...) {
		if _, ok := c.Connections[m.Connection]; !ok {
			return Fieldf("connections", "has no %q, which a model is on", m.Connection)
		}
	}
	return nil
}

// loopEventFields are the fields each op of an event takes beside op.
var loopEventFields = map[string][]string{
	"start": {"kind", "by", "times", "finished"}, "output": {"job", "text", "times"}, "read": {"job", "by"},
	"finish": {"job"}, "steps": {"job", "n"}, "list": {"by"}, "prompt": {"text"}, "session": {"text"},
	"exit": {"text"},
}

func (e loopEvent) validate() error {
	want, ok := loopEventFields[e.Op]
	if !ok {
		return Fieldf("op", "%q: want start, output, read, finish, steps, list, prompt, session or exit", e.Op)
	}
	set := map[string]bool{"kind": e.Kind != "", "by": e.By != "", "job": e.Job != "", "text": e.Text != "",
		"times": e.Times != 0, "n": e.N != 0, "finished": e.Finished}
	mine := map[string]bool{}
	for _, f := range want {
		mine[f] = true
	}
	for f, isSet := range set {
		if isSet && !mine[f] {
			return Fieldf(f, "is not a %s event's", e.Op)
		}
	}
	texts := map[string][]string{"prompt": {"start", "end"}, "session": {"close", "resume", "delete"},
		"exit": {"ask", "nobody"}}
	switch {
	case e.Op == "start" && e.Kind != jobs.KindCommand && e.Kind != jobs.KindSubagent:
		return Fieldf("kind", "%q: want command or subagent", e.Kind)
	case mine["job"] && e.Job == "":
		return Fieldf("job", "missing: the job the %s event is about", e.Op)
	case e.Op == "steps" && e.N < 1:
		return Fieldf("n", "missing: how many steps the subagent takes")
	case texts[e.Op] != nil && !slices.Contains(texts[e.Op], e.Text):
		return Fieldf("text", "%q: want one of %v", e.Text, texts[e.Op])
	}
	return nil
}

func (a loopAnswer) Validate() error {
	n := 0
	for _, set := range []bool{a.WrapUp != nil, a.Parallel != nil, a.Start != nil, a.MCP != nil, a.Sent != nil,
		a.Results != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return Fieldf("", `an answer is exactly one of {"wrap_up": …}, {"parallel": …}, {"start": …}, `+
			`{"mcp": …}, {"sent": […]} or {"results": […]}`)
	}
	return nil
}
