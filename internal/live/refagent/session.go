package refagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/instructions"
	"github.com/LLeMbas/lembas-check/harness/prefix"
	"github.com/LLeMbas/lembas-check/harness/prompts"
	"github.com/LLeMbas/lembas-check/harness/results"
	"github.com/LLeMbas/lembas-check/harness/search"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/harness/workspace"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Modes are the permission modes a session offers, as conformance/prefix.json's cases name them
// (the seed's permission/modes.json shows them only in part); a session starts in the first.
var Modes = []string{"manual", "edit", "auto", prefix.PlanMode}

// approvedMode is where an approved plan leaves a session: its work is edits (prefix.json's
// second case: plan mode, plan_submit, then the mode "edit" by the approval).
const approvedMode = "edit"

// errBusy is a request that needs the session still while a turn runs (acp.md: -32602 "while it works").
var errBusy = errors.New("the session is working on a turn")

// session is one ACP session: the prefix (harness/prefix: the system prompt made once and
// numbered, the fixed tools, the note), the tool results (harness/results: ids, stubs, caps,
// diffs, recall, compaction's table), the conversation as sent, and the files it works in.
type session struct {
	id    string
	a     *Agent
	disk  disk
	ws    *workspace.Server // the serve's roots this session was made under (nil: not a serve's)
	show  bool              // the client has a screen: `display` can be met, show is offered
	mu    sync.Mutex
	busy  bool
	model string
	mode  string
	plan  string
	// memory, personality and mcp are the person's settings (_lembas/configure), "" or nil for none.
	memory, personality string
	mcp                 map[string]string
	given               map[string]string // instruction texts the person gave, by path or heading
	met                 []string          // what is met now of what it could (nil: everything)
	cap                 *spec.Cap         // the person's cap on a result (nil: loop.json's)
	rules               *rules            // the rule modules (seeds/004), nil without a rules folder
	files               map[string]string // the instruction chain: path relative to the boundary → text
	notes               []string          // job notes due at the next step boundary
	steers              []steered         // the person's messages sent into the running turn (_lembas/steer)
	planAnswer          *planAnswer       // the person's answer to the next plans, given ahead (A2A)
	ended               []endedJob        // the jobs that ended, as _lembas/jobs lists them
	steps               int               // the running or next turn's step limit (0: none)
	index               []search.Passage  // what search finds (_lembas/configure's index), nil: no search
	order               []string          // the chain's paths, outermost first
	seen                seen              // what the session saw of each file, for edit's refusals

	started bool // the first turn made the prompt; before it, a mode change is the start's
	prefix  *prefix.Session
	results *results.Session
	offered []string
	tools   json.RawMessage
	system  string
	history []message
	n       uint64 // results given so far
	cancel  context.CancelFunc
	starts  []int // where each turn since the start or the last compaction begins in history (rewind.go)
	fresh   bool  // the results' turn is begun and has no message yet: the start, a compaction, a rewind
}

// chain reads the instruction files from the boundary down to the start directory.
func (s *session) chain() (files map[string]string, order []string) {
	files = map[string]string{}
	// The instruction texts the person gave (_lembas/configure files), by path or heading as given,
	// after those on disk.
	defer func() {
		for _, k := range slices.Sorted(maps.Keys(s.given)) {
			if _, ok := files[k]; !ok {
				order = append(order, k)
			}
			files[k] = s.given[k]
		}
	}()
	v, err := s.disk.view()
	if err != nil {
		return files, nil
	}
	cwd, _ := s.disk.inView(s.disk.abs("."))
	for _, vp := range instructions.Chain(v, "/", cwd) {
		b, err := os.ReadFile(s.disk.real(vp))
		if err != nil {
			continue
		}
		rel := instructions.Rel("/", vp)
		files[rel] = string(b)
		order = append(order, rel)
	}
	return files, order
}

// start makes the session's prompt and tool list at its first turn. Called with mu held.
func (s *session) start() error {
	s.files, s.order = s.chain()
	s.rules = startRules(s.disk.root)
	could := []string{prefix.PlanMode}
	if s.disk.access != nil && s.disk.access.mounts != nil {
		could = append(could, "forge") // the person's mounts are a forge's repositories: commit is offered
	}
	if s.show {
		could = append(could, "display")
	}
	p, err := prefix.New(prefix.Start{Date: s.a.date(), Mode: s.mode, Plan: s.plan, Memory: s.memory,
		Personality: s.personality, MCP: s.mcp, Files: s.files, Could: could, Met: s.met}, s.offerable())
	if err != nil {
		return err
	}
	r, err := results.New(results.Options{WorkDir: filepath.ToSlash(s.disk.cwd), Cap: s.cap})
	if err != nil {
		return err
	}
	s.prefix, s.results = p, r
	s.offered = p.Tools()
	s.tools = toolsBody(s.offered)
	s.system = s.makeSystem()
	s.started, s.fresh = true, true
	return nil
}

// makeSystem is the system prompt, made from what the session is now: it is made at the start,
// after a compaction and at a move to another model, and never holds a clock (context.md §10
// rules 1 and 2). Called with mu held.
func (s *session) makeSystem() string {
	var b strings.Builder
	b.WriteString("You are lembas-check's reference agent: a harness that keeps harness " +
		"spec " + spec.Version() + ", for checking other harnesses against it.\n\n")
	if ctx, err := prompts.Body("blocks/context.md"); err == nil && slices.Contains(s.offered, "recall") {
		b.WriteString(ctx)
		b.WriteString("\n\n")
	}
	b.WriteString("# Permission mode\n")
	if t, err := prefix.ModeText(s.mode); err == nil {
		b.WriteString(strings.SplitN(t, "\n", 2)[0])
	} else {
		b.WriteString("The permission mode at the start is " + s.mode + ".")
	}
	b.WriteString("\n")
	if s.plan != "" {
		b.WriteString("\n# Plan\n" + s.plan + "\n")
	}
	s.settingsBlocks(&b)
	if s.rules != nil {
		s.rules.spawn(&b, s.readable, func(name string) bool { return slices.Contains(s.order, name) })
	}
	for _, rel := range s.order {
		if t := s.files[rel]; t != "" {
			b.WriteString("\n# Instructions from " + rel + "\n" + strings.TrimRight(t, "\n") + "\n")
		}
	}
	b.WriteString("\n# Files\nRelative paths start at `" + s.disk.cwd + "`.\n")
	return b.String()
}

// body is the next request: the prompt, every message as it was sent, the tools. Called with mu held.
func (s *session) body(extra ...message) ([]byte, error) {
	system := s.system
	if s.a.broken(BreakDateInSystem) {
		system += "\n" + spec.MustRender(spec.LoopJSON().Context.Note.Date, map[string]string{"date": s.a.date()})
	}
	msgs := append([]message{text("system", system)}, s.history...)
	msgs = append(msgs, extra...)
	return jsonx.Marshal(struct {
		Model    string          `json:"model"`
		Messages []message       `json:"messages"`
		Tools    json.RawMessage `json:"tools,omitempty"`
		Stream   bool            `json:"stream"`
	}{s.model, msgs, s.tools, false})
}

// observe is what changed that the person or the clock did, looked at as a user message starts a
// turn: the date, and the instruction files on disk. Called with mu held.
func (s *session) observe() error {
	if d := s.a.date(); d != s.prefix.Date() {
		if err := s.prefix.Set(prefix.Change{Date: &d}); err != nil {
			return err
		}
	}
	return s.filesChanged(false)
}

// filesChanged reads the instruction chain again and tells the prefix what changed, as the
// model's own doing when its tool wrote it. Called with mu held.
func (s *session) filesChanged(byModel bool) error {
	files, order := s.chain()
	if sameFiles(files, s.files) {
		return nil
	}
	s.files, s.order = files, order
	return s.prefix.Set(prefix.Change{Files: files, ByModel: byModel})
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// turn runs one prompt: the person's words with the note after them, then the model's calls, one
// request after each round of results, until it answers without a call.
func (s *session) turn(ctx context.Context, words string) (string, error) {
	s.mu.Lock()
	if s.busy {
		s.mu.Unlock()
		return "", errBusy
	}
	s.busy = true
	ctx, s.cancel = context.WithCancel(ctx)
	defer func() {
		s.mu.Lock()
		s.busy, s.cancel, s.steps = false, nil, 0
		s.mu.Unlock()
	}()
	if !s.started {
		if err := s.start(); err != nil {
			s.mu.Unlock()
			return "", err
		}
	} else if err := s.observe(); err != nil {
		s.mu.Unlock()
		return "", err
	}
	req, err := s.prefix.User()
	if err != nil {
		s.mu.Unlock()
		return "", err
	}
	content := words
	if req.Note != "" {
		if s.a.broken(BreakNoteFirst) {
			content = req.Note + "\n\n" + words
		} else {
			content = words + "\n\n" + req.Note
		}
	}
	s.beginTurn()
	s.history = append(s.history, text("user", content))
	s.mu.Unlock()
	for rounds := 1; ; rounds++ {
		s.mu.Lock()
		s.history = append(s.history, s.takeNotes()...)
		s.history = append(s.history, s.takeSteered()...)
		if s.rules != nil {
			if rec := s.rules.request(); rec != "" {
				s.history = append(s.history, text("user", rec))
			}
		}
		r, err := s.ask(ctx)
		if err != nil {
			return "", err
		}
		s.mu.Lock()
		s.history = append(s.history, r.Message)
		s.mu.Unlock()
		if len(r.Calls) == 0 {
			return r.Text, nil
		}
		for _, c := range r.Calls {
			out := s.run(ctx, c)
			s.showCall(ctx, c, out)
			s.mu.Lock()
			s.history = append(s.history, message{Role: "tool", Content: &out, ToolCallID: c.ID})
			s.mu.Unlock()
		}
		s.mu.Lock()
		if s.steps > 0 && rounds >= s.steps {
			return s.wrapUp(ctx)
		}
		_, err = s.prefix.Step()
		s.mu.Unlock()
		if err != nil {
			return "", err
		}
	}
}

// showCall tells the client of a call the model made and its result, the text exactly as the
// model gets it, ids and all (context.md, Over the link).
func (s *session) showCall(ctx context.Context, c toolCall, out string) {
	shown := out
	if s.a.broken(BreakIDsHidden) && strings.HasPrefix(out, "[#") {
		_, shown, _ = strings.Cut(out, "\n")
	}
	content := []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(shown))}
	s.a.update(ctx, sdk.SessionNotification{SessionId: sdk.SessionId(s.id),
		Update: sdk.StartToolCall(sdk.ToolCallId(c.ID), c.Function.Name,
			sdk.WithStartStatus(sdk.ToolCallStatusCompleted), sdk.WithStartContent(content))})
}

// stepLimit names the limit a wrap-up reached in loop.json's message ({{limit}}), which the
// spec leaves to the harness.
const stepLimit = "step limit"

// wrapUp is the turn's last request once its step limit is reached (loop.json wrap_up): the same
// prompt and tools, the wrap-up message as the last user message and no note; a call in the
// reply is not run. Called with mu held; it lets go of mu.
func (s *session) wrapUp(ctx context.Context) (string, error) {
	s.prefix.WrapUp()
	msg := spec.MustRender(spec.LoopJSON().WrapUp.Message, map[string]string{"limit": stepLimit})
	s.history = append(s.history, text("user", msg))
	r, err := s.ask(ctx)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = append(s.history, r.Message)
	return r.Text, nil
}

// ask sends the model the session's request, extra after its history. Called with mu held; it
// lets go of mu before the model is asked.
func (s *session) ask(ctx context.Context, extra ...message) (reply, error) {
	body, err := s.body(extra...)
	s.mu.Unlock()
	if err != nil {
		return reply{}, err
	}
	return s.a.model.complete(ctx, body)
}

// compact asks the model for a summary as the next turn of the same conversation (context.md
// §7), then starts the history again from it, with the table of the reads it covers after it.
func (s *session) compact(ctx context.Context) (string, error) {
	s.mu.Lock()
	if s.busy {
		s.mu.Unlock()
		return "", errBusy
	}
	if !s.started {
		s.mu.Unlock()
		return "", errors.New("nothing to compact: the session has had no turn")
	}
	s.busy = true
	defer func() {
		s.mu.Lock()
		s.busy = false
		s.mu.Unlock()
	}()
	// The prefix moves on (the prompt made again, the date to be said again) only once the
	// summary came: a compaction that fails changes nothing.
	r, err := s.ask(ctx, text("user", spec.Text("tasks.compact.ask")))
	if err != nil {
		return "", err
	}
	// A call in the summary's reply is not run; its text before the call is the summary.
	summary := strings.TrimSpace(r.Text)
	if summary == "" {
		return "", errors.New("the model answered the compaction with no summary")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prefix.Compact()
	if s.rules != nil {
		s.rules.s.Compact() // the records go with the history they were in
	}
	first := summary
	if table := s.results.Compact(); table != "" {
		first += "\n\n" + table
	}
	s.history = []message{text("user", first)}
	s.starts, s.fresh = nil, true // the turns before are in the summary
	s.system = s.makeSystem()
	return summary, nil
}

// moveModel is the session moving to another model: the prompt is made again.
func (s *session) moveModel(model string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.model = model
	if s.started {
		s.prefix.Model()
		s.system = s.makeSystem()
	}
}

// setMode is the person's mode change: before the first turn it is the mode the session starts
// in; after, the next user message says it.
func (s *session) setMode(mode string) error {
	if !slices.Contains(Modes, mode) {
		return fmt.Errorf("no mode %q (this agent offers %s)", mode, strings.Join(Modes, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = mode
	if !s.started {
		return nil
	}
	return s.prefix.Set(prefix.Change{Mode: &mode})
}

// readable says whether the view lets the session read a file at the boundary. Called with mu held.
func (s *session) readable(name string) bool {
	v, err := s.disk.view()
	if err != nil {
		return false
	}
	_, err = v.Read("/" + name)
	return err == nil
}
