package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/prefix"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Prefix is conformance/prefix.json: one session's requests — the system prompt each sends (by
// number), the tools it offers, the note on a user message — and what a call answers.
var Prefix = Define("prefix", "spec",
	"what each request of a session sends: the system prompt, the tool list and the note (context.md "+
		"§10)", answerPrefix).WithSteps(steps.Prefix)

// The ops a step may have, and what each answers.
const (
	opUser    = "user"    // a request with a user message: {system, tools, note}
	opTool    = "tool"    // a tool step's request: {system, tools, note: null}
	opSet     = "set"     // something changes: null
	opCall    = "call"    // a call of `tool` now: its unavailable text, or null
	opCompact = "compact" // the summary request: {system, tools, ask}
	opWrapUp  = "wrapup"  // the wrap-up request: {system, tools, note: null}
	opModel   = "model"   // a move to another model: null
	// opResume: the session is resumed (lembas-check's own op): null. It sends what it kept
	// (context.md §10 rule 1), so nothing changes.
	opResume = "resume"
)

var prefixOps = []string{opUser, opTool, opSet, opCall, opCompact, opWrapUp, opModel, opResume}

// PrefixCase is a prefix case as Decode reads it (and the live target plays it): Validate has
// made sure Start, Tools and Steps are there.
type PrefixCase struct {
	About string        `json:"about,omitempty"`
	Start *PrefixStart  `json:"start"`
	Tools *[]string     `json:"tools"`
	Steps *[]PrefixStep `json:"steps"`
}

// prefixState is what a session starts with and what a set step changes of it.
type prefixState struct {
	Date        opt[string]            `json:"date"`
	Mode        opt[string]            `json:"mode"`
	Plan        opt[string]            `json:"plan"`
	Memory      opt[string]            `json:"memory"`
	Personality opt[string]            `json:"personality"`
	Files       opt[map[string]string] `json:"files"`
	MCP         opt[map[string]string] `json:"mcp"`
	Met         opt[[]string]          `json:"met"`
}

// PrefixStart is what the session starts with, and what it could ever meet.
type PrefixStart struct {
	prefixState
	Could opt[[]string] `json:"could"`
	// Chat (lembas-check's own field): the session is a chat, which says loop.json's plan_ended and
	// plan_own; absent or false, an agent session.
	Chat opt[bool] `json:"chat"`
}

// PrefixStep is one step: its op, the tool a call names, and what a set changes (by the model
// when By says so).
type PrefixStep struct {
	Op   string      `json:"op"`
	Tool opt[string] `json:"tool"`
	By   opt[string] `json:"by"`
	prefixState
}

// opt is a field that may be absent; present, it is never null. A value of the wrong JSON type
// is kept as an error for Validate, which names the field.
type opt[T any] struct {
	Set bool
	V   T
	err string
}

func (o *opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(bytes.TrimSpace(b)) == "null" {
		o.err = "is null; leave the field out, or give \"\" / {} / [] for none"
		return nil
	}
	if err := json.Unmarshal(b, &o.V); err != nil {
		o.err = jsonFieldError(err).(*FieldError).Msg
	}
	return nil
}

// check is the field's own error, if any.
func (o opt[T]) check(field string) error {
	if o.err != "" {
		return Fieldf(field, "%s", o.err)
	}
	return nil
}

// changes lists a set step's change fields, in the case format's order, with whether each is set.
func (s prefixState) changes() []struct {
	name string
	set  bool
	err  func(string) error
} {
	type f = struct {
		name string
		set  bool
		err  func(string) error
	}
	return []f{
		{"date", s.Date.Set, s.Date.check}, {"mode", s.Mode.Set, s.Mode.check}, {"plan", s.Plan.Set, s.Plan.check},
		{"memory", s.Memory.Set, s.Memory.check}, {"personality", s.Personality.Set, s.Personality.check},
		{"files", s.Files.Set, s.Files.check}, {"mcp", s.MCP.Set, s.MCP.check}, {"met", s.Met.Set, s.Met.check},
	}
}

// Changed names the fields a set step changes (or a start gives), in the case format's order.
func (s prefixState) Changed() []string {
	var out []string
	for _, f := range s.changes() {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

func (c PrefixCase) Validate() error {
	if c.Start == nil {
		return Fieldf("start", "missing: the session as it begins ({date, mode, could, …})")
	}
	could, err := c.Start.validate()
	if err != nil {
		return err
	}
	if c.Tools == nil {
		return Fieldf("tools", "missing: the tools the case looks at, in order ([] for none)")
	}
	tools, err := toolSet(*c.Tools)
	if err != nil {
		return err
	}
	if c.Steps == nil || len(*c.Steps) == 0 {
		return Fieldf("steps", "missing or empty: a case has at least one step (%s)", strings.Join(prefixOps, ", "))
	}
	wrapped := false // after a wrapup, before the next user message
	for i, s := range *c.Steps {
		at := fmt.Sprintf("steps[%d]", i)
		if err := s.validateShape(at); err != nil {
			return err
		}
		switch s.Op {
		case opUser:
			wrapped = false
		case opTool, opCall:
			if wrapped {
				return Fieldf(at+".op",
					"a %s after the wrap-up and before a user message: \"A tool call in that reply is not run\" "+
						"(loop.json wrap_up)", s.Op)
			}
			if s.Op == opCall {
				if err := s.validateCall(at, *c.Tools, tools, could); err != nil {
					return err
				}
			}
		case opWrapUp:
			wrapped = true
		case opSet:
			if err := s.validateSet(at, could); err != nil {
				return err
			}
		}
	}
	return nil
}

// validate checks the start's fields and answers what the session could ever meet.
func (st *PrefixStart) validate() (map[string]bool, error) {
	for _, f := range []struct {
		name string
		err  error
	}{
		{"start.date", st.Date.check("start.date")}, {"start.mode", st.Mode.check("start.mode")},
		{"start.plan", st.Plan.check("start.plan")}, {"start.memory", st.Memory.check("start.memory")},
		{"start.personality", st.Personality.check("start.personality")}, {"start.files",
			st.Files.check("start.files")},
		{"start.mcp", st.MCP.check("start.mcp")}, {"start.could", st.Could.check("start.could")}, {"start.met",
			st.Met.check("start.met")}, {"start.chat", st.Chat.check("start.chat")},
	} {
		if f.err != nil {
			return nil, f.err
		}
	}
	if !st.Date.Set || st.Date.V == "" {
		return nil, Fieldf("start.date", "missing or empty: the date the first user message says")
	}
	if !st.Mode.Set || st.Mode.V == "" {
		return nil, Fieldf("start.mode", "missing or empty: the permission mode the session begins in")
	}
	if !st.Could.Set {
		return nil, Fieldf("start.could",
			"missing: the requirements the session could ever meet, from %s ([] for "+
				"none)", strings.Join(prefix.Requirements(), ", "))
	}
	could, err := requirements("start.could", st.Could.V, false, nil)
	if err != nil {
		return nil, err
	}
	if err := st.checkSets("start", could); err != nil {
		return nil, err
	}
	if st.Mode.V == prefix.PlanMode && !could[prefix.PlanMode] {
		return nil, Fieldf("start.could", "the session begins in plan mode, so it could meet %q: add it",
			prefix.PlanMode)
	}
	return could, nil
}

// toolSet is the case's tools as a set; an empty or repeated name is the error.
func toolSet(list []string) (map[string]bool, error) {
	tools := map[string]bool{}
	for i, t := range list {
		if t == "" {
			return nil, Fieldf(fmt.Sprintf("tools[%d]", i), "empty: a tool's name")
		}
		if tools[t] {
			return nil, Fieldf(fmt.Sprintf("tools[%d]", i), "%s is listed twice", t)
		}
		tools[t] = true
	}
	return tools, nil
}

// validateShape checks a step's fields are those of its op.
func (s PrefixStep) validateShape(at string) error {
	if !slices.Contains(prefixOps, s.Op) {
		return Fieldf(at+".op", "%q is not an op; want one of %s", s.Op, strings.Join(prefixOps, ", "))
	}
	if err := s.Tool.check(at + ".tool"); err != nil {
		return err
	}
	if err := s.By.check(at + ".by"); err != nil {
		return err
	}
	for _, f := range s.changes() {
		if err := f.err(at + "." + f.name); err != nil {
			return err
		}
	}
	set := s.Changed()
	if s.Op != opCall && s.Tool.Set {
		return Fieldf(at+".tool", "only a call names a tool (this step is %s)", s.Op)
	}
	if s.Op != opSet && (s.By.Set || len(set) > 0) {
		field := "by"
		if len(set) > 0 {
			field = set[0]
		}
		return Fieldf(at+"."+field, "only a set changes something (this step is %s)", s.Op)
	}
	return nil
}

// validateCall checks a call names one of the case's tools, one the session offers.
func (s PrefixStep) validateCall(at string, list []string, tools, could map[string]bool) error {
	if !s.Tool.Set || s.Tool.V == "" {
		return Fieldf(at+".tool", "missing: the tool called")
	}
	if !tools[s.Tool.V] {
		return Fieldf(at+".tool", "%s is not one of the case's tools (%s)", s.Tool.V, strings.Join(list, ", "))
	}
	for _, r := range spec.Tools()[s.Tool.V].Requires {
		if !could[r] {
			return Fieldf(at+".tool",
				"%s is not offered: it requires %s, which start.could lacks, and the spec gives no answer for a call "+
					"of a tool the session does not offer", s.Tool.V, r)
		}
	}
	return nil
}

// validateSet checks a set step: what it changes, and who.
func (s PrefixStep) validateSet(at string, could map[string]bool) error {
	set := s.Changed()
	if len(set) == 0 {
		return Fieldf(at, "a set changes at least one of date, mode, plan, memory, personality, files, mcp, met")
	}
	if s.By.Set {
		if s.By.V != "model" {
			return Fieldf(at+".by", "%q: want \"model\" (the model's own tool did it), or leave by out", s.By.V)
		}
		for _, f := range set {
			if !slices.Contains(prefix.ByModelFields, f) {
				return Fieldf(at+"."+f, "not the model's to change: by model sets only %s",
					strings.Join(prefix.ByModelFields, ", "))
			}
		}
	}
	if s.Date.Set && s.Date.V == "" {
		return Fieldf(at+".date", "empty: a date")
	}
	if s.Mode.Set {
		if s.Mode.V == "" {
			return Fieldf(at+".mode", "empty: a permission mode")
		}
		if s.Mode.V == prefix.PlanMode && !could[prefix.PlanMode] {
			return Fieldf(at+".mode", "plan mode in a session whose start.could lacks %q", prefix.PlanMode)
		}
	}
	if err := s.checkSets(at, could); err != nil {
		return err
	}
	return nil
}

// checkSets checks the state's met against what the session could meet, and the keys of its
// files and mcp: alike in a start (at "start") and a set step (at its place).
func (f prefixState) checkSets(at string, could map[string]bool) error {
	if f.Met.Set {
		if _, err := requirements(at+".met", f.Met.V, true, could); err != nil {
			return err
		}
	}
	if err := textsByKey(at+".files", f.Files.V); err != nil {
		return err
	}
	return textsByKey(at+".mcp", f.MCP.V)
}

// requirements checks a list of requirement names: known, not twice, and (for met) not plan —
// plan mode meets it — and among what the session could meet.
func requirements(field string, names []string, met bool, could map[string]bool) (map[string]bool, error) {
	out := map[string]bool{}
	for i, r := range names {
		at := fmt.Sprintf("%s[%d]", field, i)
		switch {
		case !slices.Contains(prefix.Requirements(), r):
			return nil, Fieldf(at, "%q is not a requirement a tool has; want one of %s", r,
				strings.Join(prefix.Requirements(), ", "))
		case out[r]:
			return nil, Fieldf(at, "%q is listed twice", r)
		case met && r == prefix.PlanMode:
			return nil, Fieldf(at, "%q is met by plan mode, never listed as met", r)
		case met && !could[r]:
			return nil, Fieldf(at, "%q is not in start.could: a session meets only what it could", r)
		}
		out[r] = true
	}
	return out, nil
}

func textsByKey(field string, m map[string]string) error {
	if _, ok := m[""]; ok {
		return Fieldf(field, "a key is empty: texts are by path, heading or server name")
	}
	return nil
}

// prefixAnswer is one answer per step.
type prefixAnswer []prefixStepAnswer

// prefixStepAnswer is a step's answer: null (set, model, a call that runs), a text (a refused
// call), a request, or a compaction.
type prefixStepAnswer struct {
	Text    *string
	Request *prefixRequest
	Compact *prefixCompaction
	err     *FieldError // a malformed expectation, for Validate
}

type prefixRequest struct {
	System int      `json:"system"`
	Tools  []string `json:"tools"`
	Note   *string  `json:"note"`
}

type prefixCompaction struct {
	System int      `json:"system"`
	Tools  []string `json:"tools"`
	Ask    string   `json:"ask"`
}

func (a prefixStepAnswer) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil) }

// AppendJSON implements jsonx.Appender: a request's answer, a compaction's, a text, or null;
// a tool list is [] when empty.
func (a prefixStepAnswer) AppendJSON(b []byte) ([]byte, error) {
	switch {
	case a.Request != nil:
		r := *a.Request
		if r.Tools == nil {
			r.Tools = []string{}
		}
		return jsonx.Append(b, r)
	case a.Compact != nil:
		c := *a.Compact
		if c.Tools == nil {
			c.Tools = []string{}
		}
		return jsonx.Append(b, c)
	case a.Text != nil:
		return jsonx.AppendString(b, *a.Text), nil
	}
	return append(b, "null"...), nil
}

func (a *prefixStepAnswer) UnmarshalJSON(b []byte) error {
	*a = prefixStepAnswer{}
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		a.Text = &s
		return nil
	case len(b) > 0 && b[0] == '{':
		a.err = a.object(b)
		return nil
	}
	a.err = &FieldError{Msg: "want null, a text, {system, tools, note} or {system, tools, ask}"}
	return nil
}

// object reads a request or a compaction, every field required and no other.
func (a *prefixStepAnswer) object(b []byte) *FieldError {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return &FieldError{Msg: err.Error()}
	}
	want := []string{"system", "tools", "note"}
	if _, ok := m["ask"]; ok {
		want = []string{"system", "tools", "ask"}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(want, k) {
			return &FieldError{Field: k,
				Msg: "unknown field: a request answers {system, tools, note}, a compaction {system, tools, ask}"}
		}
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			return &FieldError{Field: k, Msg: fmt.Sprintf("missing: this answer is {%s}", strings.Join(want, ", "))}
		}
	}
	var system int
	if err := json.Unmarshal(m["system"], &system); err != nil || system < 1 {
		return &FieldError{Field: "system", Msg: "want the system prompt's number, 1 or more"}
	}
	var tools []string
	if err := json.Unmarshal(m["tools"], &tools); err != nil || tools == nil {
		return &FieldError{Field: "tools", Msg: "want the list of tool names offered ([] for none)"}
	}
	if want[2] == "ask" {
		var ask string
		if err := json.Unmarshal(m["ask"], &ask); err != nil {
			return &FieldError{Field: "ask", Msg: "want the compaction's ask, a text"}
		}
		a.Compact = &prefixCompaction{System: system, Tools: tools, Ask: ask}
		return nil
	}
	var note *string
	if err := json.Unmarshal(m["note"], &note); err != nil {
		return &FieldError{Field: "note", Msg: "want the note, a text, or null for none"}
	}
	a.Request = &prefixRequest{System: system, Tools: tools, Note: note}
	return nil
}

func (a prefixAnswer) Validate() error {
	if a == nil {
		return Fieldf("", "want a list: one answer per step")
	}
	for i, s := range a {
		if s.err != nil {
			return &FieldError{Field: joinField(fmt.Sprintf("[%d]", i), s.err.Field), Msg: s.err.Msg}
		}
	}
	return nil
}

func answerPrefix(c PrefixCase) (prefixAnswer, error) {
	st := c.Start
	start := prefix.Start{
		Date: st.Date.V, Mode: st.Mode.V, Plan: st.Plan.V, Memory: st.Memory.V, Personality: st.Personality.V,
		Files: st.Files.V, MCP: st.MCP.V, Could: st.Could.V, Chat: st.Chat.V,
	}
	if st.Met.Set {
		start.Met = append([]string{}, st.Met.V...)
	}
	s, err := prefix.New(start, *c.Tools)
	if err != nil {
		return nil, err
	}
	out := make(prefixAnswer, len(*c.Steps))
	request := func(r prefix.Request) prefixStepAnswer {
		a := &prefixRequest{System: r.System, Tools: r.Tools}
		if r.Note != "" {
			a.Note = &r.Note
		}
		return prefixStepAnswer{Request: a}
	}
	for i, step := range *c.Steps {
		var err error
		switch step.Op {
		case opUser:
			var r prefix.Request
			if r, err = s.User(); err == nil {
				out[i] = request(r)
			}
		case opTool:
			var r prefix.Request
			if r, err = s.Step(); err == nil {
				out[i] = request(r)
			}
		case opWrapUp:
			out[i] = request(s.WrapUp())
		case opCompact:
			cp := s.Compact()
			out[i] = prefixStepAnswer{Compact: &prefixCompaction{System: cp.System, Tools: cp.Tools, Ask: cp.Ask}}
		case opModel:
			s.Model()
		case opResume:
		case opCall:
			var text string
			var refused bool
			if text, refused, err = s.Call(step.Tool.V); err == nil && refused {
				out[i] = prefixStepAnswer{Text: &text}
			}
		case opSet:
			err = s.Set(change(step))
		default:
			err = fmt.Errorf("op %q", step.Op)
		}
		if err != nil {
			return nil, fmt.Errorf("steps[%d] (%s): %w", i, step.Op, err)
		}
	}
	return out, nil
}

func change(s PrefixStep) prefix.Change {
	str := func(o opt[string]) *string {
		if !o.Set {
			return nil
		}
		v := o.V
		return &v
	}
	c := prefix.Change{
		ByModel: s.By.Set && s.By.V == "model",
		Date:    str(s.Date), Mode: str(s.Mode), Plan: str(s.Plan), Memory: str(s.Memory),
		Personality: str(s.Personality),
	}
	if s.Files.Set {
		c.Files = map[string]string{}
		for k, v := range s.Files.V {
			c.Files[k] = v
		}
	}
	if s.MCP.Set {
		c.MCP = map[string]string{}
		for k, v := range s.MCP.V {
			c.MCP[k] = v
		}
	}
	if s.Met.Set {
		c.Met = append([]string{}, s.Met.V...)
	}
	return c
}

// SchemaAs: an opt field is T's shape, and may be left out.
func (opt[T]) SchemaAs() reflect.Type { return reflect.TypeFor[*T]() }
