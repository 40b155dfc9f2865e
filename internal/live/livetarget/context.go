package livetarget

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/results"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/textdiff"
)

// gitMarker makes dir a repository's root, which is where a harness on a device takes its
// boundary to be (filesystem.md: "On a device the boundary is the project root").
func gitMarker(files map[string]string, dir string) {
	dir = strings.TrimSuffix(dir, "/")
	files[dir+"/.git/HEAD"] = "ref: refs/heads/main\n"
	files[dir+"/.git/config"] = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
	files[dir+"/.git/objects/"] = ""
	files[dir+"/.git/refs/heads/"] = ""
}

// planContext plays a context case as one session: the person's prompt, then one call per step,
// each made after its file is put on disk as the step has it; a compaction ends the turn, and the
// next one begins with the request after it. Each step's answer is the result the harness put
// into the request after the call.
func planContext(p *agents.Profile, c conformance.Case) (*plan, error) {
	cs, err := decoded[conformance.ContextCase](c)
	if err != nil {
		return nil, err
	}
	if err := contextPlayable(cs); err != nil {
		return nil, err
	}
	var first []action
	if cs.Limits != nil {
		first = []action{capAction(cs.Limits)}
	}
	cwd := "/"
	if cs.Cwd != nil {
		cwd = *cs.Cwd
	}
	pl := &plan{cwd: cwd, files: map[string]string{}}
	gitMarker(pl.files, "/")
	if cwd != "/" {
		pl.files[cwd+"/"] = ""
	}
	prompts := 0
	newTurn := func() *turn {
		prompts++
		return &turn{words: fmt.Sprintf("lembas-check: go on (%d)", prompts), slots: []*slot{{}}}
	}
	cur := newTurn()
	cur.before = first
	var turns []*turn
	pc := &contextPlay{at: map[int]*slot{}, summary: map[int]string{}, failed: map[int]*bool{},
		later: map[int][]*slot{}}
	for i, st := range cs.Steps {
		last := cur.slots[len(cur.slots)-1]
		switch st.Op {
		case "compact":
			last.reply = text("done")
			turns = append(turns, cur, pc.compaction(p, i, st))
			cur = newTurn()
			if summarised(st) {
				cur.slots[0].remade, cur.slots[0].reset = 1, true
			}
			pc.at[i] = cur.slots[0]
			continue
		case "turn", "undo", "rewind":
			// The turn ends; the next begins with the person's next prompt, after the turns taken back.
			last.reply = text("done")
			turns = append(turns, cur)
			cur = newTurn()
			if st.Op != "turn" {
				// The history is cut back to before the turns taken back: the request after it
				// extends an earlier one, not the last.
				cur.before = append(cur.before, rewindAction(i, st))
				cur.slots[0].reset = true
				pc.open = nil
			}
			continue
		}
		before, fn, err := contextCall(p, i, unseenEdit(cs.Steps, i, cwd), cwd)
		if err != nil {
			return nil, err
		}
		last.before = append(last.before, before...)
		last.replyFn = fn
		s := &slot{}
		cur.slots = append(cur.slots, s)
		pc.add(i, s)
	}
	cur.slots[len(cur.slots)-1].reply = text("done")
	pl.turns = append(turns, cur)
	pl.answer = func(e *env) (any, error) { return contextAnswer(e, cs.Steps, pc) }
	return pl, nil
}

// contextPlayable says why a context case cannot be played live: a chat's reply, the output of a
// tool whose results the harness makes itself.
func contextPlayable(cs conformance.ContextCase) error {
	byResult := spec.LoopJSON().Context.Dedupe.ByResult
	for i, st := range cs.Steps {
		switch {
		case st.Op == "reply":
			return skipf("step %d is a reply (a chat's next reply, whose request carries none of the earlier "+
				"results): an agent session over ACP resends every result", i+1)
		case st.Op == "output" && slices.Contains(byResult, str(st.Tool)) && !isFoundTool(str(st.Tool)):
			return skipf("step %d is %s's output: a harness's own %s prints what it finds, and no call makes it "+
				"print the case's text", i+1, str(st.Tool), str(st.Tool))
		}
	}
	return nil
}

// contextAnswer is each step's result as the request after its call carries it (a compaction's:
// what follows its summary), paths and ids written back as the case's.
func contextAnswer(e *env, steps []conformance.ContextStep, pc *contextPlay) (any, error) {
	ids := idMap(e, steps)
	out := []string{}
	for i, st := range steps {
		if st.Op == "turn" || st.Op == "undo" || st.Op == "rewind" {
			out = append(out, "")
			continue
		}
		s := pc.at[i]
		if s.req == nil {
			return nil, fmt.Errorf("step %d: its request never came", i+1)
		}
		if st.Op == "compact" {
			out = append(out, mapIDs(e.casePaths(pc.afterCompaction(i, st, s.req)), ids))
			continue
		}
		call := callPrefix + strings.TrimPrefix(str(st.ID), "#")
		r, ok := s.req.result(call)
		if !ok {
			r = fmt.Sprintf("(the request after the call %s carries no result for it)", call)
		} else {
			r += pc.rewritten(i, call, r)
		}
		out = append(out, mapIDs(e.casePaths(r), ids))
	}
	foundBodies(steps, out)
	return out, nil
}

// contextCall is the call that makes step i, what is put on disk before it, and for a recall the
// call made as the request before it comes (it names the harness's id of the result it recalls).
func contextCall(p *agents.Profile, i int, st conformance.ContextStep, cwd string) ([]action, func(*env,
	*request) script.Reply, error) {
	id := callPrefix + strings.TrimPrefix(str(st.ID), "#")
	before, op, v, err := contextOp(p, i, st, cwd)
	if err != nil {
		return nil, nil, err
	}
	// The shape is checked now, so that a profile without it skips the case before it runs.
	if _, err := makeCall(p, op, id, vals{}); err != nil {
		return nil, nil, err
	}
	fn := func(e *env, _ *request) script.Reply {
		c, err := makeCall(p, op, id, v(e))
		if err != nil {
			return text("(lembas-check could not make the call: " + err.Error() + ")")
		}
		return callReply(c)
	}
	return before, fn, nil
}

// putFile is step i's file put on disk as the step has it (nil content: removed).
func putFile(i int, path, cwd string, content *string) action {
	return action{what: fmt.Sprintf("step %d: putting %s on disk", i+1, path), do: func(_ context.Context,
		e *env) error {
		real := e.real(path, cwd)
		if content == nil {
			if err := os.Remove(real); err != nil && !os.IsNotExist(err) {
				return err
			}
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			return err
		}
		return os.WriteFile(real, []byte(*content), 0o644)
	}}
}

// contextOp is a step's operation: what goes on disk before it, the profile's call it is, and
// the call's values, filled in when the request before it comes (where the root is known). Paths
// go to the call as the case has them, an absolute one under the case's root.
func contextOp(p *agents.Profile, i int, st conformance.ContextStep, cwd string) ([]action, string, valsFn, error) {
	path, offset, limit := str(st.Path), 0, 0
	if st.Offset != nil {
		offset = *st.Offset
	}
	if st.Limit != nil {
		limit = *st.Limit
	}
	switch st.Op {
	case "read":
		v := func(e *env) vals { return readVals(e.callPath(path), offset, limit) }
		return []action{putFile(i, path, cwd, st.Content)}, "read", v, nil
	case "write", "edit":
		return contextWrite(p, i, st, cwd)
	case "delete":
		return []action{present(i, path,
			cwd)}, "delete", func(e *env) vals { return vals{"path": e.callPath(path)} }, nil
	case "apply_patch":
		return contextPatch(i, st, cwd)
	case "output":
		if isFoundTool(str(st.Tool)) {
			return foundOp(p, i, st, cwd)
		}
		// Another tool's output is made by the harness's shell, printing a file that holds the
		// case's text exactly (outside the root, so the case's tree stays as it is).
		name := fmt.Sprintf("%d.txt", i+1)
		put := action{what: fmt.Sprintf("step %d: the output to print", i+1), do: func(_ context.Context,
			e *env) error {
			return os.WriteFile(filepath.Join(e.out, name), []byte(str(st.Text)), 0o644)
		}}
		v := func(e *env) vals { return vals{"command": "cat " + shellQuote(filepath.Join(e.out, name))} }
		return []action{put}, "shell", v, nil
	case "recall":
		return nil, "recall", func(e *env) vals {
			x := vals{"id": e.harnessID(str(st.Target))}
			if offset > 0 {
				x["offset"] = offset
			}
			if limit > 0 {
				x["limit"] = limit
			}
			return x
		}, nil
	}
	return nil, "", nil, fmt.Errorf("step %d: no op %q", i+1, st.Op)
}

// valsFn makes a call's values once the request before it came (where the root is known).
type valsFn func(*env) vals

// contextWrite is a write, or an edit where the profile has an edit call and the change can be
// said as one occurrence replaced (else the file written whole, which the spec answers alike).
func contextWrite(p *agents.Profile, i int, st conformance.ContextStep, cwd string) ([]action, string, valsFn, error) {
	path := str(st.Path)
	op := "write"
	old, new := "", ""
	if st.Op == "edit" && st.Before != nil {
		old, new = editSpan(*st.Before, *st.After)
	}
	if _, ok := p.Tools.Calls["edit"]; ok && old != "" {
		op = "edit"
	}
	return []action{putFile(i, path, cwd, st.Before)}, op, func(e *env) vals {
		if op == "edit" {
			return vals{"path": e.callPath(path), "old": old, "new": new}
		}
		return vals{"path": e.callPath(path), "content": *st.After}
	}, nil
}

// present makes sure a file a step deletes is there.
func present(i int, path, cwd string) action {
	what := fmt.Sprintf("step %d: making sure %s is there", i+1, path)
	return action{what: what, do: func(_ context.Context, e *env) error {
		real := e.real(path, cwd)
		if _, err := os.Stat(real); err == nil {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			return err
		}
		return os.WriteFile(real, nil, 0o644)
	}}
}

// contextPatch is an apply_patch: each file put on disk as before, then the patch's files.
func contextPatch(i int, st conformance.ContextStep, cwd string) ([]action, string, valsFn, error) {
	var before []action
	for _, f := range st.Files {
		before = append(before, putFile(i, *f.Path, cwd, f.Before))
	}
	return before, "patch", func(e *env) vals {
		var files []any
		for _, f := range st.Files {
			if f.After == nil {
				files = append(files, map[string]any{"path": e.callPath(*f.Path), "delete": true})
			} else {
				files = append(files, map[string]any{"path": e.callPath(*f.Path), "content": *f.After})
			}
		}
		return vals{"files": files}
	}, nil
}

// readVals are a read's values: its path, and where a window is asked for, the first line
// (offset, from 1; offset0, from 0) and the count (limit) or the last line (last).
func readVals(path string, offset, limit int) vals {
	x := vals{"path": path}
	if offset > 0 {
		x["offset"], x["offset0"] = offset, offset-1
	}
	if limit > 0 {
		x["limit"] = limit
		x["last"] = max(offset, 1) + limit - 1
	}
	return x
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// harnessID is a case's result id as the harness gave it (the # kept or left out as the case
// has it); an id the case never gave is passed as it is.
func (e *env) harnessID(target string) string {
	key := target
	if !strings.HasPrefix(key, "#") {
		key = "#" + key
	}
	e.mu.Lock()
	h, ok := e.ids[key]
	e.mu.Unlock()
	if !ok {
		return target
	}
	if !strings.HasPrefix(target, "#") {
		return strings.TrimPrefix(h, "#")
	}
	return h
}

// idMap is what the harness's ids stand for: the k-th result's id, in the form the spec gives
// it (context.md §1: "# and the result's number in the session — counting from 1, in lowercase
// hex, at least 4 digits"), or the case's own id (a harness that takes ids from the call's), is
// the case's id for that step. Any other id is left as the harness wrote it, so a diff shows it.
func idMap(e *env, steps []conformance.ContextStep) map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	given := map[string]int{}
	for _, h := range e.ids {
		given[h]++
	}
	m := map[string]string{}
	k := uint64(0)
	for _, st := range steps {
		if st.ID == nil {
			continue
		}
		k++
		// An id given twice (the harness reused one) is left as it is: the diff shows it.
		if h, ok := e.ids[*st.ID]; ok && given[h] == 1 && (h == results.FormatID(k) || h == *st.ID) {
			m[h] = *st.ID
		}
	}
	return m
}

var idPattern = lazyre.New(`#[0-9a-fA-F]{4,}`)

// mapIDs writes each harness id in s as the case's.
func mapIDs(s string, ids map[string]string) string {
	return idPattern().ReplaceAllStringFunc(s, func(h string) string {
		if c, ok := ids[h]; ok {
			return c
		}
		return h
	})
}

// afterSummary is what the harness put after the compaction's summary in the request after it:
// the table of the reads the summary covers (context.md §7), "" when nothing follows.
func afterSummary(q *request, summary string) string {
	for _, m := range q.msgs {
		if i := strings.Index(m.text, summary); i >= 0 {
			return strings.TrimLeft(m.text[i+len(summary):], " \n")
		}
	}
	return "(the request after the compaction does not carry its summary)"
}

// editSpan is an edit from before to after as the one occurrence of old replaced by new: the
// lines that changed, widened by a line each way until old is found once. "" when no edit can say
// it (an empty file, a change that is only added at the end of none).
func editSpan(before, after string) (old, new string) {
	p, s := textdiff.Ends([]byte(before), []byte(after))
	start := strings.LastIndex(before[:p], "\n") + 1
	end := len(before) - s
	if i := strings.Index(before[end:], "\n"); i >= 0 {
		end += i + 1
	} else {
		end = len(before)
	}
	for {
		old = before[start:end]
		if old != "" && strings.Count(before, old) == 1 {
			return old, after[start : len(after)-(len(before)-end)]
		}
		if start == 0 && end == len(before) {
			return "", ""
		}
		if start > 0 {
			start = strings.LastIndex(before[:start-1], "\n") + 1
		}
		if end < len(before) {
			if i := strings.Index(before[end:], "\n"); i >= 0 {
				end += i + 1
			} else {
				end = len(before)
			}
		}
	}
}

// capAction gives the case's own cap (limits) by _lembas/configure; a harness without it caps with
// loop.json's, and the case is skipped, saying so.
func capAction(limits any) action {
	b, _ := json.Marshal(limits)
	var m map[string]any
	json.Unmarshal(b, &m)
	a := configureAction("the case's cap", map[string]any{"cap": m})
	give := a.do
	a.do = func(ctx context.Context, e *env) error {
		err := give(ctx, e)
		var u *acp.Unsupported
		if errors.As(err, &u) {
			return &acp.Unsupported{What: "the case's own cap (limits)",
				Why: "a live harness caps output with loop.json's unless it takes a cap, and " + u.Why}
		}
		return err
	}
	return a
}
