package livetarget

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/prefix"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// readme is the file every prefix session holds, which a tool step reads.
const readme = "README.md"

// planPrefix plays a prefix case as one session of prompts, calls, the person's changes, a
// compaction or a model move; each request's answer is read out of what the harness sent it.
func planPrefix(p *agents.Profile, c conformance.Case) (*plan, error) {
	cs, err := decoded[conformance.PrefixCase](c)
	if err != nil {
		return nil, err
	}
	st, tools, steps := cs.Start, *cs.Tools, *cs.Steps // Validate made sure all three are there
	could, err := prefixPlayable(st, tools)
	if err != nil {
		return nil, err
	}
	pl := &plan{cwd: "/",
		files: map[string]string{"/" + readme: "# lembas-check\n\nA session directory of the live " +
			"target.\n"}, show: could["display"], clock: true}
	gitMarker(pl.files, "/")
	b := &prefixBuild{p: p, pl: pl, mode: st.Mode.V, reads: make([]prefixRead, len(steps)), pending: prefixStart(st)}
	for i, step := range steps {
		if err := b.step(i, step); err != nil {
			return nil, err
		}
	}
	b.end()
	if len(pl.turns) == 0 {
		return nil, skipf("the case sends no request")
	}
	if b.plans != nil {
		// Asked before anything is played: a harness that cannot be told the mode would play
		// the case wrong up to that step.
		pl.turns[0].before = append([]action{*b.plans}, pl.turns[0].before...)
	}
	pl.answer = func(e *env) (any, error) { return prefixAnswer(b.seq, b.reads, tools) }
	return pl, nil
}

// prefixPlayable says why a case's start cannot be played live, else what the session could
// meet: instruction texts by heading, `met` short of what it could, a tool a device never offers.
func prefixPlayable(st *conformance.PrefixStart, tools []string) (map[string]bool, error) {
	if st.Chat.V {
		return nil, skipf("the session is a chat (start.chat), and every harness here is an agent session: a " +
			"chat front end (LLeMbas's web chat) driven over its own protocol would carry it")
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
			if r != prefix.PlanMode && r != "display" && !met[r] {
				return nil, skipf("%s could be met but is not at the start; a live session meets what it could: "+
					"_lembas/configure's met carries display alone, and a harness that could meet page or forge (the "+
					"python and forge tools, filesystem.md's mounts) with met naming them would carry it", r)
			}
		}
	}
	for _, t := range tools {
		for _, r := range spec.Tools()[t].Requires {
			switch {
			case r == prefix.PlanMode && !could[r]:
				return nil, skipf("%s requires plan, and a harness that offers plan mode could meet it in any session",
					t)
			case r != prefix.PlanMode && r != "display" && could[r]:
				return nil, skipf("%s requires %s, which a harness on a device can never meet", t, r)
			}
		}
	}
	return could, nil
}

// prefixStart is what is done before the first turn: the clock, the mode, and the person's
// settings the prompt is made from (_lembas/configure, which a harness without it cannot take:
// the case is then skipped, saying so).
func prefixStart(st *conformance.PrefixStart) []action {
	acts := []action{
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
	set := map[string]any{}
	for k, v := range map[string]string{"plan": st.Plan.V, "memory": st.Memory.V, "personality": st.Personality.V} {
		if v != "" {
			set[k] = v
		}
	}
	if len(st.MCP.V) > 0 {
		set["mcp"] = st.MCP.V
	}
	if len(st.Files.V) > 0 {
		set["files"] = st.Files.V // by path or heading, as the case names them
	}
	if st.Met.Set && !slices.Contains(st.Met.V, "display") && slices.Contains(st.Could.V, "display") {
		set["met"] = st.Met.V // the client's screen is not showing files at the start
	}
	if len(set) > 0 {
		acts = append(acts, configureAction("the session's start", set))
	}
	return acts
}

// configureAction gives the harness the person's settings (_lembas/configure).
func configureAction(what string, set map[string]any) action {
	names := slices.Sorted(maps.Keys(set))
	do := func(ctx context.Context, e *env) error { return e.h.Configure(ctx, e.serveMCP(set)) }
	return action{what: what + ": " + strings.Join(names, ", ") + " by _lembas/configure", do: do}
}

// prefixRead is how one step's answer is read: its kind, the person's words or the call's id,
// the tool called, and the request it reads.
type prefixRead struct {
	kind, words, tool string
	slot              *slot
}

// prefixBuild is a prefix case's session as its steps make it.
type prefixBuild struct {
	p                            *agents.Profile
	pl                           *plan
	reads                        []prefixRead
	seq                          []*slot // every request of the session, in order
	cur                          *turn
	last                         *slot // the request whose reply is not decided yet, while a turn runs
	pending                      []action
	mode                         string
	moves, remakes, users, calls int
	reset                        bool    // a compaction replaced the history before the next request
	plans                        *action // the first step that needs _lembas/plan's answer (needPlans)
}

func (b *prefixBuild) add(s *slot) {
	s.remade, s.reset = b.remakes, b.reset
	b.remakes, b.reset = 0, false
	b.seq = append(b.seq, s)
}

func (b *prefixBuild) end() {
	if b.last != nil {
		b.last.reply = text("done")
		b.pl.turns = append(b.pl.turns, b.cur)
	}
	b.cur, b.last = nil, nil
}

// now is where a change is made: while a turn runs, before the model answers the request
// before it; between turns, before the next one starts.
func (b *prefixBuild) now(a action) {
	if b.last != nil {
		b.last.before = append(b.last.before, a)
	} else {
		b.pending = append(b.pending, a)
	}
}

func (b *prefixBuild) step(i int, step conformance.PrefixStep) error {
	switch step.Op {
	case "user":
		b.end()
		b.users++
		words := fmt.Sprintf("lembas-check: the person's message %d.", b.users)
		s := &slot{}
		b.cur, b.last = &turn{before: b.pending, words: words, slots: []*slot{s}}, s
		b.pending = nil
		b.add(s)
		b.reads[i] = prefixRead{kind: step.Op, words: words, slot: s}
	case "tool", "call":
		if b.last == nil {
			return skipf("step %d (%s) comes with no turn running: the model answers only a request", i+1, step.Op)
		}
		b.calls++
		id := fmt.Sprintf("%sp%d", callPrefix, b.calls)
		r, err := prefixCall(b.p, step.Op, step.Tool.V, id)
		if err != nil {
			return err
		}
		if step.Tool.V == "plan_submit" && b.mode == prefix.PlanMode {
			// The plan the call submits is not approved unless a step of the model's own says so
			// (approval): only that moves the mode.
			b.last.before = append(b.last.before, refusePlan())
		}
		b.last.reply = r
		s := &slot{}
		b.cur.slots = append(b.cur.slots, s)
		b.last = s
		b.add(s)
		b.reads[i] = prefixRead{kind: step.Op, tool: step.Tool.V, words: id, slot: s}
	case "set":
		return b.set(i, step)
	case "compact":
		b.end()
		s := &slot{reply: text(fmt.Sprintf("lembas-check summary of the session, step %d.", i+1))}
		b.pl.turns = append(b.pl.turns, &turn{before: b.pending, compact: true, slots: []*slot{s}})
		b.pending = nil
		b.add(s)
		b.remakes++
		b.reset = true
		b.reads[i] = prefixRead{kind: step.Op, slot: s}
	case "model":
		b.moves++
		m := models[1+(b.moves-1)%(len(models)-1)]
		b.now(action{what: "the model moved to " + m, do: func(ctx context.Context,
			e *env) error {
			return e.h.SetModel(ctx, m)
		}})
		b.remakes++
	case "wrapup":
		return b.wrapUp(i)
	case "resume":
		return skipf("step %d resumes the session: ACP's session/load (or the unstable session/resume) would "+
			"carry it, and the live target plays neither", i+1)
	default:
		return fmt.Errorf("step %d: no op %q", i+1, step.Op)
	}
	return nil
}

// set is the person's (or the clock's, or the model's) change: the date by the clock, the mode
// over ACP, the plan, memory, personality and MCP instructions by _lembas/configure.
func (b *prefixBuild) set(i int, step conformance.PrefixStep) error {
	fields := step.Changed()
	sort.Strings(fields)
	settings := map[string]any{}
	for _, f := range fields {
		v, ok := map[string]any{"date": step.Date.V, "mode": step.Mode.V, "plan": step.Plan.V, "memory": step.Memory.V,
			"personality": step.Personality.V, "mcp": step.MCP.V, "met": step.Met.V, "files": step.Files.V}[f]
		if !ok {
			return skipf("step %d sets %s, which neither ACP nor _lembas/configure carries (a live session meets "+
				"what it could; instruction texts are the harness's files)", i+1, f)
		}
		switch {
		case step.By.V == "model" && f == "mode":
			if err := b.approval(i, step.Mode.V); err != nil {
				return err
			}
		case step.By.V == "model" && (f == "plan" || f == "memory"):
			if err := b.ownChange(i, f, v.(string)); err != nil {
				return err
			}
		case step.By.V == "model" && f == "files":
			return skipf("step %d: the model's own files change has no call the live target makes: the case's "+
				"instruction texts are given by _lembas/configure's files, by path or heading, not written where the "+
				"model's write tool reaches them (a harness reading them from files the model may edit would carry it)",
				i+1)
		case step.By.V == "model":
			return skipf("step %d: the model's own %s change has no call the live target makes", i+1, f)
		case f == "date":
			b.now(action{what: "the clock set to " + step.Date.V, do: setDate(step.Date.V)})
		case f == "mode":
			m := step.Mode.V
			b.now(action{what: "the mode set to " + m, do: func(ctx context.Context,
				e *env) error {
				return e.h.SetMode(ctx, m)
			}})
			b.mode = m
		default:
			settings[f] = v
		}
	}
	if len(settings) > 0 {
		b.now(configureAction(fmt.Sprintf("step %d", i+1), settings))
	}
	return nil
}

// wrapUp is the request after a step limit: the model answers the request before it with a
// call (a read of the README), and the turn's step limit — as many rounds of calls as it has made
// then, given by _lembas/configure's steps before the turn — makes the harness send the wrap-up
// instead of the next step. Its reply ends the turn.
func (b *prefixBuild) wrapUp(i int) error {
	if b.last == nil {
		return skipf("step %d is a wrap-up with no turn running: a step limit is reached only in one", i+1)
	}
	b.calls++
	r, err := prefixCall(b.p, "tool", "", fmt.Sprintf("%sp%d", callPrefix, b.calls))
	if err != nil {
		return err
	}
	b.last.reply = r
	b.cur.before = append(b.cur.before, configureAction(fmt.Sprintf("the step limit of step %d", i+1),
		map[string]any{"steps": len(b.cur.slots)}))
	s := &slot{reply: text("done")}
	b.cur.slots = append(b.cur.slots, s)
	b.last = s
	b.add(s)
	b.reads[i] = prefixRead{kind: "wrapup", slot: s}
	return nil
}

// approval is the model's own mode change, which only plan_submit's approval in plan mode makes:
// the call just before it (a plan_submit step), else one the model makes now in the turn running,
// whose result's request is read by no step. The approval's mode is _lembas/plan's answer (for a
// call the live target adds, only that, needPlans: another harness's approval has a mode of its own).
func (b *prefixBuild) approval(i int, mode string) error {
	prev := b.reads[max(i-1, 0)]
	switch {
	case b.mode != prefix.PlanMode:
		return skipf("step %d: the model sets the mode only by plan_submit's approval, which is put in plan mode "+
			"alone, and the session is in %s", i+1, b.mode)
	case i > 0 && prev.kind == "call" && prev.tool == "plan_submit":
		// The call was the reply to the request before the one that carries its result.
		s := b.cur.slots[len(b.cur.slots)-2]
		s.before = append(s.before, answerPlan(mode))
	case b.last == nil:
		return skipf("step %d: the model submits a plan only while a turn runs, and none does", i+1)
	default:
		b.calls++
		id := fmt.Sprintf("%sp%d", callPrefix, b.calls)
		r, err := prefixCall(b.p, "call", "plan_submit", id)
		if err != nil {
			return err
		}
		b.last.before = append(b.last.before, answerPlan(mode))
		if b.plans == nil {
			need := needPlans(i+1, mode)
			b.plans = &need
		}
		b.last.reply = r
		s := &slot{}
		b.cur.slots = append(b.cur.slots, s)
		b.last = s
		b.add(s)
	}
	b.mode = mode
	return nil
}

// ownChange is the model's own plan or memory change: its plan_write or memory call (the
// profile's, else the tool by its name, the whole new value its one argument) in the turn running,
// whose result tells the model; the request after it is the session's, read by no step.
func (b *prefixBuild) ownChange(i int, field, value string) error {
	if b.last == nil {
		return skipf("step %d: the model changes the %s only while a turn runs, and none does", i+1, field)
	}
	tool, arg := "plan_write", "plan"
	if field == "memory" {
		tool, arg = "memory", "content"
	}
	b.calls++
	id := fmt.Sprintf("%sp%d", callPrefix, b.calls)
	call := wire.ToolCall{ID: id, Name: tool, Arguments: `{"` + arg + `":` + jsonString(value) + `}`}
	if sh, ok := b.p.Tools.Calls[tool]; ok {
		args, err := fill(sh.Arguments, vals{field: value})
		if err != nil {
			return err
		}
		call = wire.ToolCall{ID: id, Name: sh.Name, Arguments: args}
	}
	b.last.reply = callReply(call)
	s := &slot{}
	b.cur.slots = append(b.cur.slots, s)
	b.last = s
	b.add(s)
	return nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// prefixAnswer reads each step's answer out of the requests that came: the system prompt's
// number, the case's tools offered, the note; a call's unavailable text; a compaction's ask.
func prefixAnswer(seq []*slot, reads []prefixRead, tools []string) (any, error) {
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
	out := make([]any, len(reads))
	for i, r := range reads {
		if r.slot == nil {
			continue
		}
		q := r.slot.req
		switch r.kind {
		case "user":
			out[i] = map[string]any{"system": withRecallBlock(q, offered(q), number[r.slot]), "tools": offered(q),
				"note": noteKept(seq, r.slot, r.words, noteAfter(q, r.words))}
		case "tool":
			var note any
			if s := q.afterCalls(); s != "" {
				note = s
			}
			out[i] = map[string]any{"system": number[r.slot], "tools": offered(q), "note": note}
		case "call":
			res, _ := q.result(r.words)
			if body := strings.TrimSpace(withoutBracket(res)); body != "" && body == spec.Tools()[r.tool].Unavailable {
				out[i] = body
			}
		case "compact":
			ask, _ := q.lastUser()
			out[i] = map[string]any{"system": number[r.slot], "tools": offered(q), "ask": ask}
		case "wrapup":
			out[i] = map[string]any{"system": number[r.slot], "tools": offered(q), "note": wrapUpNote(q)}
		}
	}
	return out, nil
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

// wrapUpNote is what the wrap-up request's last user message says after loop.json's wrap-up
// message (its {{limit}} the harness's to name), nil when nothing; a request with no wrap-up
// message says so, for the diff.
func wrapUpNote(q *request) any {
	t, _ := q.lastUser()
	before, after, _ := strings.Cut(spec.LoopJSON().WrapUp.Message, "{{limit}}")
	i, j := strings.Index(t, before), strings.Index(t, after)
	if i < 0 || j < i {
		return "(the last user message is no wrap-up: " + t + ")"
	}
	if rest := strings.TrimSpace(t[j+len(after):]); rest != "" {
		return rest
	}
	return nil
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
