package livetarget

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/instructions/modules"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// modulesInput is a modules case as the live target reads it (conformance's type is its own).
type modulesInput struct {
	Root  string                     `json:"root"`
	Files map[string]json.RawMessage `json:"files"`
	Links map[string]json.RawMessage `json:"links"`
	Steps []struct {
		Op     string                     `json:"op"`
		Paths  []string                   `json:"paths"`
		Files  map[string]json.RawMessage `json:"files"`
		Links  map[string]json.RawMessage `json:"links"`
		Append *string                    `json:"append"`
	} `json:"steps"`
}

// planModules plays a modules case as one session in its project root: spawn is the first
// request, a touch the model's read of each path, a request the request after the calls (a list
// where nothing was touched), a change the disk changed before the model answers the request
// before it, a compact the harness's compaction. Each answer is read from the request: the
// system prompt's root file and module envelopes, a record's envelopes after the results.
func planModules(p *agents.Profile, c conformance.Case) (*plan, error) {
	var in modulesInput
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return nil, err
	}
	files, links, err := modulesPlayable(c, in)
	if err != nil {
		return nil, err
	}
	pl := &plan{cwd: in.Root, files: files, links: links}
	gitMarker(pl.files, gitAt(in.Root, links))
	if _, err := makeCall(p, "list", "x", vals{}); err != nil {
		return nil, err
	}
	b := &modulesBuild{p: p, root: in.Root, at: make([]*slot, len(in.Steps)), reads: map[int]map[string]string{}}
	b.newTurn()
	for i, st := range in.Steps {
		switch st.Op {
		case "spawn":
			if i != 0 {
				b.spawn()
			}
			b.at[i] = b.last
		case "touch":
			b.touched = append(b.touched, st.Paths...)
			for _, tp := range st.Paths {
				b.last.before = append(b.last.before, touchable(tp, files))
			}
		case "change":
			changed := map[string]*string{}
			for fp, raw := range st.Files {
				var s *string
				json.Unmarshal(raw, &s)
				changed[fp] = s
			}
			b.last.before = append(b.last.before, changeFiles(i, changed))
		case "request":
			b.request(i)
		case "compact":
			b.compact(i)
		}
	}
	b.last.reply = text("done")
	pl.turns = append(b.turns, b.cur)
	pl.answer = func(e *env) (any, error) {
		for i := range in.Steps { // in order, so that the skip names the first step's reads
			if reads, q := b.reads[i], b.at[i]; reads != nil && q != nil && q.req != nil {
				if err := outsideTouch(e, path.Clean(in.Root), reads, q.req); err != nil {
					return nil, err
				}
			}
		}
		return modulesAnswer(e, in, b.at, files)
	}
	return pl, nil
}

// modulesPlayable says why a case cannot be played live — a failed append, diagnostics (which
// show in no request), links changed by a step — else its files (padded ones made whole) and links.
func modulesPlayable(c conformance.Case, in modulesInput) (map[string]string, map[string]string, error) {
	for _, st := range in.Steps {
		if st.Append != nil {
			return nil, nil, skipf("a request's append fails only inside the harness " +
				"(seeds/004: \"only a failed append requeues it\"): no request shows it")
		}
	}
	ans, err := reference(c.Area, c.Input)
	if err != nil {
		return nil, nil, err
	}
	var steps []*struct {
		Diagnostics []any `json:"diagnostics"`
	}
	json.Unmarshal(ans, &steps)
	for i, st := range steps {
		if st != nil && len(st.Diagnostics) > 0 {
			return nil, nil, skipf("step %d's answer has diagnostics, which a harness logs and sends the model in "+
				"no request (seeds/004: \"The daemon log keeps the full message\"): acp.md's _lembas/event lists a "+
				"notice event with no fields; an event naming each diagnostic's code and path would carry them", i+1)
		}
	}
	for i, st := range in.Steps {
		if len(st.Links) > 0 {
			return nil, nil, skipf("step %d changes the case's links, which the live target makes only before the "+
				"session starts", i+1)
		}
	}
	links, err := modulesLinks(in.Links)
	if err != nil {
		return nil, nil, err
	}
	files := map[string]string{}
	for fp, raw := range in.Files {
		if files[fp], err = modulesFile(fp, raw); err != nil {
			return nil, nil, err
		}
	}
	return files, links, nil
}

// modulesBuild is a modules case's session as its steps make it.
type modulesBuild struct {
	p       *agents.Profile
	root    string
	at      []*slot // a step → the request its answer is read from
	turns   []*turn
	cur     *turn
	last    *slot
	touched []string
	prompts int
	calls   int
	reads   map[int]map[string]string // a request step → its touches' reads, call id → path
}

func (b *modulesBuild) newTurn() {
	b.prompts++
	b.last = &slot{}
	b.cur = &turn{words: fmt.Sprintf("lembas-check: go on (%d)", b.prompts), slots: []*slot{b.last}}
}

// request makes the model read each path touched since the last request (a list of the root
// where none was), and step i's answer the request after.
func (b *modulesBuild) request(i int) {
	touched := b.touched
	b.touched = nil
	first := b.calls
	b.calls += max(len(touched), 1)
	b.reads[i] = map[string]string{}
	for k, tp := range touched {
		b.reads[i][fmt.Sprintf("%sm%d", callPrefix, first+k+1)] = tp
	}
	p := b.p
	root := b.root
	b.last.replyFn = func(e *env, _ *request) script.Reply {
		var r script.Reply
		for k, tp := range touched {
			c, err := makeCall(p, "read", fmt.Sprintf("%sm%d", callPrefix, first+k+1), vals{"path": e.callPath(tp)})
			if err != nil {
				return text("(lembas-check could not make the call: " + err.Error() + ")")
			}
			r.ToolCalls = append(r.ToolCalls, c)
		}
		if len(touched) == 0 {
			c, err := makeCall(p, "list", fmt.Sprintf("%sm%d", callPrefix, first+1), vals{"path": e.callPath(root)})
			if err != nil {
				return text("(lembas-check could not make the call: " + err.Error() + ")")
			}
			r.ToolCalls = []wire.ToolCall{c}
		}
		return r
	}
	s := &slot{}
	b.cur.slots = append(b.cur.slots, s)
	b.last = s
	b.at[i] = s
}

// spawn ends the turn and starts the next one in a session of its own, in the same directory:
// a later spawn is a new session, whose first request is its answer.
func (b *modulesBuild) spawn() {
	b.last.reply = text("done")
	b.turns = append(b.turns, b.cur)
	b.newTurn()
	b.cur.before = []action{{what: "a new session", do: func(ctx context.Context, e *env) error {
		d, ok := e.h.(wsDoor)
		if !ok {
			return &acp.Unsupported{What: "a second spawn", Why: "one-shot, a session is the chain of runs"}
		}
		h, err := d.open(ctx, e, e.real(e.cwd, "/"))
		if err == nil {
			e.h = h
		}
		return err
	}}}
	b.cur.slots[0].remade, b.cur.slots[0].reset = 1, true
}

// compact ends the turn, compacts, and starts the next turn.
func (b *modulesBuild) compact(i int) {
	b.last.reply = text("done")
	sum := text(fmt.Sprintf("lembas-check summary, step %d.", i+1))
	b.turns = append(b.turns, b.cur, &turn{compact: true, slots: []*slot{{reply: sum}}})
	b.newTurn()
	b.cur.slots[0].remade, b.cur.slots[0].reset = 1, true
}

// touchable makes sure a touched path can be read: a file the case does not hold is made, but
// not one a resolver would read (an instruction file, a rule).
func touchable(tp string, files map[string]string) action {
	return action{what: "making " + tp + " readable", do: func(_ context.Context, e *env) error {
		real := e.real(tp, "/")
		if _, err := os.Stat(real); err == nil || files[tp] != "" {
			return nil
		}
		base := path.Base(tp)
		for _, n := range modules.SpecTexts().Names {
			if n == base {
				return nil
			}
		}
		if strings.Contains(tp, "/"+modules.SpecTexts().Tree+"/") {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			return err
		}
		return os.WriteFile(real, []byte("lembas-check: a file the case touches\n"), 0o644)
	}}
}

// changeFiles is a change step's files put on disk (nil: removed).
func changeFiles(i int, changed map[string]*string) action {
	return action{what: fmt.Sprintf("step %d: the disk changed", i+1), do: func(ctx context.Context, e *env) error {
		for fp, content := range changed {
			if err := putFile(i, fp, "/", content).do(ctx, e); err != nil {
				return err
			}
		}
		return nil
	}}
}

// envelopePattern finds a module's envelope: its path, whether it supersedes, its content.
var envelopePattern = lazyre.New(
	`(?s)<instruction_module path="([^"]*)"( supersedes="earlier version")?>\n(.*?)\n</instruction_module>`)

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// modulesAnswer reads each step's answer: a spawn's root file (the first name by priority whose
// text the system prompt holds) and module envelopes; a request's record, the envelopes in the
// messages after the previous request's, each module's hash that of its content, what it
// supersedes the hash last seen for its path.
func modulesAnswer(e *env, in modulesInput, at []*slot, files map[string]string) (any, error) {
	out := make([]any, len(in.Steps))
	active := map[string]string{}
	var prev *request
	for i, st := range in.Steps {
		if st.Op == "compact" {
			active = map[string]string{}
		}
		s := at[i]
		if s == nil {
			continue
		}
		if s.req == nil {
			return nil, fmt.Errorf("step %d: its request never came", i+1)
		}
		rel := func(p string) string {
			return strings.TrimPrefix(strings.TrimPrefix(p, strings.TrimSuffix(in.Root, "/")), "/")
		}
		if st.Op == "spawn" {
			var root any
			for _, n := range modules.SpecTexts().Names {
				t, ok := files[path.Join(in.Root, n)]
				// Whole lines: a root file's text may be a word (a letter), found inside any other.
				if ok && t != "" && strings.Contains("\n"+s.req.system+"\n", "\n"+strings.TrimRight(t, "\n")+"\n") {
					root = n
					break
				}
			}
			mods := []any{}
			for _, m := range envelopePattern().FindAllStringSubmatch(e.casePaths(s.req.system), -1) {
				mods = append(mods, map[string]any{"relPath": rel(m[1]), "sha256": sum(m[3])})
			}
			out[i] = map[string]any{"root": root, "modules": mods, "diagnostics": []any{}}
			prev = s.req
			continue
		}
		from := 0
		if prev != nil && len(prev.msgs) <= len(s.req.msgs) {
			from = len(prev.msgs)
		}
		var texts []string
		var instr []any
		for _, m := range s.req.msgs[from:] {
			if m.role != "user" {
				continue
			}
			for _, env := range envelopePattern().FindAllStringSubmatch(e.casePaths(m.text), -1) {
				r, h := rel(env[1]), sum(env[3])
				var sup any
				if env[2] != "" && active[r] != "" {
					sup = active[r]
				}
				active[r] = h
				texts = append(texts, env[0])
				instr = append(instr, map[string]any{"relPath": r, "sha256": h, "supersedes": sup})
			}
		}
		var record any
		if len(texts) > 0 {
			record = map[string]any{"modules": texts, "instructions": instr}
		}
		out[i] = map[string]any{"record": record, "diagnostics": []any{}}
		prev = s.req
	}
	return out, nil
}
