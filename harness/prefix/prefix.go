// Package prefix is the reference of area prefix: what each request of a session sends ahead of the
// conversation (harness spec context.md §10, conformance/prefix.json): the system prompt, made once
// and numbered; the tool list, fixed as the session starts; and the note on a user message, saying
// what changed since the model last knew it. A server reuses what it has read only as far as two
// requests are the same from the first byte, so everything here exists to keep that prefix still. A
// Session is a pure state machine: the date is given, never read from a clock; no I/O.
//
//go:generate go test -run ^TestDecodedIsRead$ -update .
package prefix

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// PlanMode is the permission mode that meets the `plan` requirement (plan_submit's), and the one
// mode whose text (modes/plan.md) the seed carries.
const PlanMode = "plan"

// ErrWrapUpReply is a call or a tool step after the wrap-up request and before the next user
// message: "A tool call in that reply is not run" (loop.json wrap_up), so neither can happen.
var ErrWrapUpReply = errors.New("the wrap-up's reply runs no call (loop.json wrap_up: \"A tool call in that reply is " +
	"not run.\"); a user message starts the next turn")

// Start is a session as it begins: what its prompt is made from, and what it could ever meet.
type Start struct {
	// Date is the person's date, said in the note of the first user message.
	Date string
	// Mode is the permission mode (manual, edit, auto, plan, …).
	Mode string
	// Plan (as rendered), Memory and Personality: "" for none.
	Plan        string
	Memory      string
	Personality string
	// Files are instruction texts by path or heading (context.note.personal names the person's
	// own); MCP are servers' instructions by server name. nil or empty for none.
	Files map[string]string
	MCP   map[string]string
	// Could is every requirement the session could ever meet (`plan` for one that may enter plan
	// mode, `display`, `page`, `forge`); it fixes the tool list.
	Could []string
	// Met is what is met now besides `plan`, which plan mode meets; nil: everything it could.
	Met []string
	// Chat: the session is a chat, which does not resend earlier tool results and whose modes but
	// plan have no text of their own; its note says plan_ended and plan_own (loop.json
	// context.note.about). false: an agent session.
	Chat bool
}

// Change is one `set`: what changed, and whether the model's own tool changed it.
type Change struct {
	// ByModel: the model's own tool did it (plan_write, plan_submit's approval, memory, a file it
	// wrote), and its result already told the model — no note says it again.
	ByModel bool
	// Each non-nil pointer is the field's new value.
	Date, Mode, Plan, Memory, Personality *string
	// Files and MCP, when not nil, are the whole new set (a path or server left out is gone); an
	// empty map is none.
	Files, MCP map[string]string
	// Met, when not nil, is what is met now besides plan ([]string{} for nothing).
	Met []string
}

// ByModelFields are the fields a model's own tool can change (conformance/prefix.json's about:
// "`plan` from plan_write, `mode` from plan_submit's approval, `memory` and `files` it changed
// itself"). The clock, the person's personality, MCP servers and what is met are never the model's.
var ByModelFields = []string{"plan", "mode", "memory", "files"}

// Request is what one request sends before the conversation.
type Request struct {
	// System numbers the system prompts the session has made, from 1: the same number, the same bytes.
	System int
	// Tools are the offered tools, in the order the session was given them; the same every request.
	Tools []string
	// Note is the note after the person's words ("" for none): only a user message carries one.
	Note string
}

// Compaction is the summary request: the same prompt and tools, then the compaction ask as the
// next turn (context.md §7).
type Compaction struct {
	System int
	Tools  []string
	Ask    string
}

// values is what the prompt is made from that may change during a session.
type values struct {
	mode, plan, memory, personality string
	// files and mcp are never changed in place: a change replaces the map, so two values may share one.
	files, mcp map[string]string
}

// Session is one session's requests as a state machine. Its methods are the steps of a case.
type Session struct {
	tools    []string
	requires map[string][]string // of each offered tool
	could    map[string]bool
	met      map[string]bool
	date     string
	now      values
	// known is what the model knows of each value: the prompt it was made from, what a note said
	// since, and what its own tools answered. A note says where now and known differ.
	known values
	// knownDate is the date the conversation has said; "" when it has said none (a new session, or
	// after a compaction dropped the turns that said it).
	knownDate string
	system    int
	// wrapped: the wrap-up request was sent and no user message has started a turn since.
	wrapped bool
	// chat: a chat session (Start.Chat). ownPlan: in a chat, the plan was last changed by the
	// model's own tools, whose results the next request does not resend — the note says it back.
	chat, ownPlan bool
}

// New starts a session offering the named tools it could ever use, in their order: a tool is left
// out only when a requirement of it is one the session could never meet (context.md §10 rule 4).
// A tool the vendored spec does not know (read, plan_write, …) has no requirement and is offered.
func New(st Start, tools []string) (*Session, error) {
	if st.Date == "" {
		return nil, errors.New("start: no date: the first user message says it")
	}
	if st.Mode == "" {
		return nil, errors.New("start: no mode")
	}
	could, err := requirementSet("could", st.Could, false)
	if err != nil {
		return nil, err
	}
	if st.Mode == PlanMode && !could[PlanMode] {
		return nil, fmt.Errorf("start: the session begins in plan mode, so it could meet %q: add it to could", PlanMode)
	}
	s := &Session{could: could, requires: map[string][]string{}, date: st.Date, system: 1, chat: st.Chat}
	if st.Met == nil {
		s.met = map[string]bool{}
		for r := range could {
			if r != PlanMode {
				s.met[r] = true
			}
		}
	} else if s.met, err = s.metSet(st.Met); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	known := spec.Tools()
	for _, name := range tools {
		if name == "" {
			return nil, errors.New("tools: a tool with no name")
		}
		if seen[name] {
			return nil, fmt.Errorf("tools: %s is listed twice", name)
		}
		seen[name] = true
		t := known[name]
		if !s.couldMeet(t.Requires) {
			continue
		}
		if len(t.Requires) > 0 && t.Unavailable == "" {
			return nil, fmt.Errorf("tool %s requires %s but the vendored spec gives it no unavailable text", name,
				strings.Join(t.Requires, ", "))
		}
		s.tools = append(s.tools, name)
		s.requires[name] = t.Requires
	}
	s.now = values{mode: st.Mode, plan: st.Plan, memory: st.Memory, personality: st.Personality, files: clean(st.Files),
		mcp: clean(st.MCP)}
	s.known = s.now
	return s, nil
}

// clean copies a set of texts, leaving out empty ones: a file or server with no text is none.
func clean(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

var (
	reqOnce sync.Once
	reqs    []string
)

// Requirements is every requirement a vendored tool has (`plan`, `display`, `page`, `forge`),
// sorted: what `could` and `met` may name.
func Requirements() []string {
	reqOnce.Do(func() {
		set := map[string]bool{}
		for _, t := range spec.Tools() {
			for _, r := range t.Requires {
				set[r] = true
			}
		}
		reqs = slices.Sorted(maps.Keys(set))
	})
	return reqs
}

func requirementSet(field string, names []string, noPlan bool) (map[string]bool, error) {
	out := map[string]bool{}
	for _, r := range names {
		if !slices.Contains(Requirements(), r) {
			return nil, fmt.Errorf("%s: %q is not a requirement any tool has; want one of %s", field, r,
				strings.Join(Requirements(), ", "))
		}
		if noPlan && r == PlanMode {
			return nil, fmt.Errorf("%s: %q is met by plan mode, not listed as met", field, r)
		}
		if out[r] {
			return nil, fmt.Errorf("%s: %q is listed twice", field, r)
		}
		out[r] = true
	}
	return out, nil
}

func (s *Session) metSet(names []string) (map[string]bool, error) {
	met, err := requirementSet("met", names, true)
	if err != nil {
		return nil, err
	}
	for r := range met {
		if !s.could[r] {
			return nil, fmt.Errorf("met: %q is not among what the session could meet (%s)", r,
				strings.Join(slices.Sorted(maps.Keys(s.could)), ", "))
		}
	}
	return met, nil
}

func (s *Session) couldMeet(requires []string) bool {
	for _, r := range requires {
		if !s.could[r] {
			return false
		}
	}
	return true
}

// Tools is the session's tool list: the same on every request of the session.
func (s *Session) Tools() []string { return slices.Clone(s.tools) }

// System is the number of the system prompt the next request sends.
func (s *Session) System() int { return s.system }

// Date is the session's date as it is now.
func (s *Session) Date() string { return s.date }

// Mode is the permission mode as it is now.
func (s *Session) Mode() string { return s.now.mode }

func (s *Session) request(note string) Request {
	return Request{System: s.system, Tools: slices.Clone(s.tools), Note: note}
}

// User is the request that carries a user message, with the note of what changed since the model
// last knew it (context.md §10 rule 3). Once sent, the note is part of the conversation: the
// model knows what it said.
func (s *Session) User() (Request, error) {
	note, err := s.Note()
	if err != nil {
		return Request{}, err
	}
	s.known = s.now
	s.knownDate = s.date
	s.wrapped, s.ownPlan = false, false
	return s.request(note), nil
}

// Step is a tool step's request: no user message, so no note — a change waits for the next one.
func (s *Session) Step() (Request, error) {
	if s.wrapped {
		return Request{}, ErrWrapUpReply
	}
	return s.request(""), nil
}

// WrapUp is the request after a step limit or a budget: the same prompt and tools, the wrap-up
// message as its last user message and no note (loop.json wrap_up); what changed meanwhile waits
// for the next user message.
func (s *Session) WrapUp() Request {
	s.wrapped = true
	return s.request("")
}

// Compact is the summary request — the same prompt and tools, the compaction ask as the next turn
// (context.md §7) — and what follows it: the prompt is made again from everything as it is now
// (the next number), and the turns that said the date are gone, so the next user message says it.
func (s *Session) Compact() Compaction {
	c := Compaction{System: s.system, Tools: slices.Clone(s.tools), Ask: spec.Text("tasks.compact.ask")}
	s.remake()
	s.knownDate = ""
	return c
}

// Model moves the session to another model: the prompt is made again (the next number) from
// everything as it is now; the conversation, and the date it said, stay.
func (s *Session) Model() { s.remake() }

// remake makes the system prompt again: the model now knows every value from the prompt itself.
func (s *Session) remake() {
	s.system++
	s.known = s.now
	s.ownPlan = false
}

// Set applies one change. A change the person (or the clock) made waits for the next user
// message's note; one the model made itself is known to it at once.
func (s *Session) Set(c Change) error {
	if c.ByModel {
		switch {
		case c.Date != nil:
			return errors.New("set: the date is the clock's, never the model's (by: model)")
		case c.Personality != nil:
			return errors.New("set: the personality is the person's choice, never the model's (by: model)")
		case c.MCP != nil:
			return errors.New("set: MCP servers connect on their own, never by the model (by: model)")
		case c.Met != nil:
			return errors.New("set: what is met (a screen, a page, a forge) is never the model's doing (by: model)")
		}
	}
	for _, p := range []*string{c.Date, c.Mode} {
		if p != nil && *p == "" {
			return errors.New("set: an empty date or mode")
		}
	}
	if c.Mode != nil && *c.Mode == PlanMode && !s.could[PlanMode] {
		return fmt.Errorf("set: mode %q in a session that could not meet %q (start.could)", PlanMode, PlanMode)
	}
	var met map[string]bool
	if c.Met != nil {
		var err error
		if met, err = s.metSet(c.Met); err != nil {
			return err
		}
	}
	// Everything is checked: apply.
	if met != nil {
		s.met = met
	}
	if c.Date != nil {
		s.date = *c.Date
	}
	scalar := func(p *string, now, known *string) {
		if p == nil {
			return
		}
		*now = *p
		if c.ByModel {
			*known = *p
		}
	}
	scalar(c.Mode, &s.now.mode, &s.known.mode)
	if c.Plan != nil && s.chat {
		// A chat does not resend the plan tools' results: the model's own plan is said back.
		s.now.plan, s.ownPlan = *c.Plan, c.ByModel
	} else {
		scalar(c.Plan, &s.now.plan, &s.known.plan)
	}
	scalar(c.Memory, &s.now.memory, &s.known.memory)
	scalar(c.Personality, &s.now.personality, &s.known.personality)
	if c.Files != nil {
		files := clean(c.Files)
		if c.ByModel {
			// The model knows the files it wrote, not the ones the person changed meanwhile.
			known := maps.Clone(s.known.files)
			if known == nil {
				known = map[string]string{}
			}
			for _, p := range changedKeys(s.now.files, files) {
				if files[p] == "" {
					delete(known, p)
				} else {
					known[p] = files[p]
				}
			}
			s.known.files = known
		}
		s.now.files = files
	}
	if c.MCP != nil {
		s.now.mcp = clean(c.MCP)
	}
	return nil
}

// Offered says whether the session offers a tool.
func (s *Session) Offered(tool string) bool {
	_, ok := s.requires[tool]
	return ok
}

// Call is a call of an offered tool now: refused with the tool's unavailable text when a
// requirement of it is not met now (`plan` outside plan mode), else run.
func (s *Session) Call(tool string) (unavailable string, refused bool, err error) {
	if s.wrapped {
		return "", false, ErrWrapUpReply
	}
	reqs, ok := s.requires[tool]
	if !ok {
		if t, known := spec.Tools()[tool]; known && !s.couldMeet(t.Requires) {
			return "", false, fmt.Errorf("%s is not offered: it requires %s, which this session could never meet", tool,
				strings.Join(t.Requires, ", "))
		}
		return "", false, fmt.Errorf("%s is not one of the session's tools", tool)
	}
	for _, r := range reqs {
		if !s.metNow(r) {
			return spec.Tools()[tool].Unavailable, true, nil
		}
	}
	return "", false, nil
}

func (s *Session) metNow(r string) bool {
	if r == PlanMode {
		return s.now.mode == PlanMode
	}
	return s.met[r]
}

// changedKeys lists the keys whose text differs between two sets (a missing key is ""), in the
// order RFC 8785 writes an object's keys: the order a case's target reads them in.
func changedKeys(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	for k, v := range b {
		if _, inA := a[k]; !inA && v != "" {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return utf16Less(out[i], out[j]) })
	return out
}

// utf16Less orders strings by their UTF-16 code units, as RFC 8785 sorts keys.
func utf16Less(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if ra[i] == rb[i] {
			continue
		}
		return utf16First(ra[i]) < utf16First(rb[i]) || (utf16First(ra[i]) == utf16First(rb[i]) && ra[i] < rb[i])
	}
	return len(ra) < len(rb)
}

// utf16First is a rune's first UTF-16 code unit: a supplementary rune's high surrogate.
func utf16First(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}
