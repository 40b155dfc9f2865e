package livetarget

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/acp"
	"github.com/LLeMbas/lembas-check/agents"
	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/fakeprovider/wire"
	"github.com/LLeMbas/lembas-check/harness/prefix"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

// readme is the file every prefix session holds, which a tool step reads.
const readme = "README.md"

// planPrefix plays a prefix case as one session: each `user` step a prompt of the person, each
// `tool` step a request after a call the model makes (a read), each `call` a call of the tool,
// the person's changes made where the case makes them (the date by the clock, the mode over ACP)
// — between turns, or while one runs, before the model answers the request before them — a
// `compact` the harness's compaction, a `model` a move to another model. Each request's answer is
// read out of it: the system prompt's number (a new one where its bytes change, and after a
// compaction or a model move), the case's tools it offers, the note after the person's words.
func planPrefix(p *agents.Profile, c conformance.Case) (*plan, error) {
	cs, err := decoded[conformance.PrefixCase](c)
	if err != nil {
		return nil, err
	}
	st, tools, steps := cs.Start, *cs.Tools, *cs.Steps // Validate made sure all three are there
	for _, f := range []struct{ name, v string }{{"plan", st.Plan.V}, {"memory", st.Memory.V}, {"personality", st.Personality.V}} {
		if f.v != "" {
			return nil, skipf("the session starts with a %s, which a harness over ACP cannot be given", f.name)
		}
	}
	if len(st.Files.V) > 0 {
		return nil, skipf("the session starts with instruction texts by path or heading, which a harness names its own way")
	}
	if len(st.MCP.V) > 0 {
		return nil, skipf("the session starts with an MCP server's instructions, which the live target does not serve")
	}
	could := map[string]bool{}
	for _, r := range st.Could.V {
		could[r] = true
	}
	if st.Met.Set {
		met := map[string]bool{}
		for _, r := range st.Met.V {
			met[r] = true
		}
		for r := range could {
			if r != prefix.PlanMode && !met[r] {
				return nil, skipf("%s could be met but is not at the start; a live session meets what it could", r)
			}
		}
	}
	for _, t := range tools {
		for _, r := range spec.Tools()[t].Requires {
			switch r {
			case prefix.PlanMode:
				if !could[r] {
					return nil, skipf("%s requires plan, and a harness that offers plan mode could meet it in any session", t)
				}
			case "display":
			default:
				if could[r] {
					return nil, skipf("%s requires %s, which a harness on a device can never meet", t, r)
				}
			}
		}
	}
	pl := &plan{cwd: "/", files: map[string]string{"/" + readme: "# lembas-check\n\nA session directory of the live target.\n"}, show: could["display"], clock: true}
	gitMarker(pl.files, "/")

	type read struct {
		kind, words, tool string
		slot              *slot
	}
	reads := make([]read, len(steps))
	var seq []*slot // every request of the session, in order
	var cur *turn
	var last *slot // the request whose reply is not decided yet, while a turn runs
	pending := []action{
		{what: "the clock set to " + st.Date.V, do: setDate(st.Date.V)},
		// A harness with no such mode, or none at all, starts in its own: the case's start mode
		// is then what the harness starts in, and only a change the person makes is asked for.
		{what: "the mode set to " + st.Mode.V, do: func(ctx context.Context, e *env) error {
			var u *acp.Unsupported
			if err := e.h.SetMode(ctx, st.Mode.V); err != nil && !errors.As(err, &u) {
				return err
			}
			return nil
		}},
	}
	moves, remakes, users, calls := 0, 0, 0, 0
	mode := st.Mode.V
	reset := false // a compaction replaced the history before the next request
	add := func(s *slot) {
		s.remade, s.reset = remakes, reset
		remakes, reset = 0, false
		seq = append(seq, s)
	}
	end := func() {
		if last != nil {
			last.reply = text("done")
			pl.turns = append(pl.turns, cur)
		}
		cur, last = nil, nil
	}
	// now is where a change is made: while a turn runs, before the model answers the request
	// before it; between turns, before the next one starts.
	now := func(a action) {
		if last != nil {
			last.before = append(last.before, a)
		} else {
			pending = append(pending, a)
		}
	}
	for i, step := range steps {
		op, tool, by := step.Op, step.Tool.V, step.By.V
		switch op {
		case "user":
			end()
			users++
			words := fmt.Sprintf("lembas-check: the person's message %d.", users)
			s := &slot{}
			cur, last = &turn{before: pending, words: words, slots: []*slot{s}}, s
			pending = nil
			add(s)
			reads[i] = read{kind: op, words: words, slot: s}
		case "tool", "call":
			if last == nil {
				return nil, skipf("step %d (%s) comes with no turn running: the model answers only a request", i+1, op)
			}
			calls++
			id := fmt.Sprintf("%sp%d", callPrefix, calls)
			r, err := prefixCall(p, op, tool, id)
			if err != nil {
				return nil, err
			}
			last.reply = r
			s := &slot{}
			cur.slots = append(cur.slots, s)
			last = s
			add(s)
			reads[i] = read{kind: op, tool: tool, words: id, slot: s}
		case "set":
			fields := step.Changed()
			sort.Strings(fields)
			for _, f := range fields {
				v, ok := map[string]string{"date": step.Date.V, "mode": step.Mode.V}[f]
				if !ok {
					return nil, skipf("step %d sets %s, which the person cannot change over ACP", i+1, f)
				}
				switch {
				case by == "model" && f == "mode":
					// Only plan_submit's approval is the model's own mode change: the call that
					// ran just before it made it, and the harness is to say so.
					prev := reads[max(i-1, 0)]
					if i == 0 || prev.kind != "call" || prev.tool != "plan_submit" || mode != prefix.PlanMode {
						return nil, skipf("step %d: the model sets the mode only by plan_submit's approval, and the step before it is no such call", i+1)
					}
					mode = v
				case by == "model":
					return nil, skipf("step %d: the model's own %s change has no call the live target makes", i+1, f)
				case f == "date":
					now(action{what: "the clock set to " + v, do: setDate(v)})
				default:
					now(action{what: "the mode set to " + v, do: func(ctx context.Context, e *env) error { return e.h.SetMode(ctx, v) }})
					mode = v
				}
			}
		case "compact":
			end()
			s := &slot{reply: text(fmt.Sprintf("lembas-check summary of the session, step %d.", i+1))}
			pl.turns = append(pl.turns, &turn{before: pending, compact: true, slots: []*slot{s}})
			pending = nil
			add(s)
			remakes++
			reset = true
			reads[i] = read{kind: op, slot: s}
		case "model":
			moves++
			m := models[1+(moves-1)%(len(models)-1)]
			now(action{what: "the model moved to " + m, do: func(ctx context.Context, e *env) error { return e.h.SetModel(ctx, m) }})
			remakes++
		case "wrapup":
			return nil, skipf("step %d is a wrap-up, which comes after a step limit or a budget that cannot be reached at a chosen step", i+1)
		default:
			return nil, fmt.Errorf("step %d: no op %q", i+1, op)
		}
	}
	end()
	if len(pl.turns) == 0 {
		return nil, skipf("the case sends no request")
	}
	pl.answer = func(e *env) (any, error) {
		number := map[*slot]int{}
		n, prev := 0, ""
		for _, s := range seq {
			if s.req == nil {
				return nil, fmt.Errorf("a request of the session never came")
			}
			switch {
			case n == 0:
				n = 1 + s.remade
			case s.remade > 0:
				n += s.remade
			case s.req.raw != prev:
				n++
			}
			number[s], prev = n, s.req.raw
		}
		offered := func(q *request) []string {
			out := []string{}
			for _, t := range tools {
				if slices.Contains(q.tools, t) {
					out = append(out, t)
				}
			}
			return out
		}
		out := make([]any, len(steps))
		for i, r := range reads {
			q := func() *request { return r.slot.req }
			switch r.kind {
			case "user":
				out[i] = map[string]any{"system": number[r.slot], "tools": offered(q()), "note": noteAfter(q(), r.words)}
			case "tool":
				var note any
				if s := q().afterCalls(); s != "" {
					note = s
				}
				out[i] = map[string]any{"system": number[r.slot], "tools": offered(q()), "note": note}
			case "call":
				res, _ := q().result(r.words)
				if body := strings.TrimSpace(withoutBracket(res)); body != "" && body == spec.Tools()[r.tool].Unavailable {
					out[i] = body
				}
			case "compact":
				ask, _ := q().lastUser()
				out[i] = map[string]any{"system": number[r.slot], "tools": offered(q()), "ask": ask}
			}
		}
		return out, nil
	}
	return pl, nil
}

// prefixCall is the model's answer that makes a `tool` step (a read of the session's README) or
// a `call` of a tool: the profile's call for it, else the tool by its name (show is given the
// README to show).
func prefixCall(p *agents.Profile, op, tool, id string) (script.Reply, error) {
	if op == "tool" || tool == "read" {
		return filler(p, id, readme)
	}
	if sh, ok := p.Tools.Calls[tool]; ok {
		args, err := fill(sh.Arguments, vals{"path": readme})
		if err != nil {
			return script.Reply{}, err
		}
		return callReply(wire.ToolCall{ID: id, Name: sh.Name, Arguments: args}), nil
	}
	args := `{}`
	if tool == "show" {
		args = `{"path":"` + readme + `"}`
	}
	return callReply(wire.ToolCall{ID: id, Name: tool, Arguments: args}), nil
}

// setDate moves the harness's clock to noon of a date (so that it is the date for the whole
// case, whatever the case's length).
func setDate(d string) func(context.Context, *env) error {
	return func(_ context.Context, e *env) error {
		t, err := time.Parse(time.DateOnly, d)
		if err != nil {
			return fmt.Errorf("the date %q is not YYYY-MM-DD", d)
		}
		return e.t.clock.Set(t.Add(12 * time.Hour))
	}
}

// noteAfter is the note after the person's words in the request's last user message: what
// follows them, without the space between; nil when nothing does.
func noteAfter(q *request, words string) any {
	t, ok := q.lastUser()
	if !ok {
		return "(the request has no user message)"
	}
	i := strings.Index(t, words)
	if i < 0 {
		return "(the person's words are not in the last user message, which reads: " + t + ")"
	}
	if rest := strings.TrimSpace(t[i+len(words):]); rest != "" {
		return rest
	}
	return nil
}
