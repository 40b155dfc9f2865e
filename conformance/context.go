package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/results"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Context is conformance/context.json: what each step of a session inserts into the conversation.
var Context = Define("context", "spec",
	"what each step of a session inserts: result ids, read brackets, stubs, the cap, recall, diffs, the compaction "+
		"table (loop.json context)", answerContext).WithSteps(steps.Context)

// ContextCase is a session's steps in order, as Decode reads a case (and the live target plays
// it). `limits` overrides loop.json's cap (all six numbers); `cwd` (lembas-check's own cases only)
// is the start directory relative paths resolve against, "/" when absent.
type ContextCase struct {
	About  string         `json:"about,omitempty"`
	Limits *contextLimits `json:"limits"`
	Cwd    *string        `json:"cwd"`
	Steps  []ContextStep  `json:"steps"`
}

type contextLimits struct {
	MaxLines  *int `json:"max_lines"`
	MaxChars  *int `json:"max_chars"`
	HeadLines *int `json:"head_lines"`
	HeadChars *int `json:"head_chars"`
	TailLines *int `json:"tail_lines"`
	TailChars *int `json:"tail_chars"`
}

// ContextStep is one step; which fields it takes depends on its op (contextOps).
type ContextStep struct {
	Op      string          `json:"op"`
	ID      *string         `json:"id"`
	Path    *string         `json:"path"`
	Content *string         `json:"content"`
	Offset  *int            `json:"offset"`
	Limit   *int            `json:"limit"`
	Before  *string         `json:"before"`
	After   *string         `json:"after"`
	Tool    *string         `json:"tool"`
	Args    json.RawMessage `json:"args"`
	Text    *string         `json:"text"`
	Target  *string         `json:"target"`
	Files   []ContextFile   `json:"files"`
	// Turns is a rewind's: how many of the newest turns it takes back.
	Turns *int `json:"turns"`
	// Summary is a compaction's: what the model's reply to the summary request holds (summaryKinds).
	Summary *string `json:"summary"`
}

// ContextFile is one file of an apply_patch step: before absent, the patch creates it; after
// absent, it deletes it.
type ContextFile struct {
	Path   *string `json:"path"`
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// contextOps is each op's required and optional fields. `delete` is lembas-check's own: the
// spec's step ops have none, but context.md §5 gives a deleted file's text.
var contextOps = map[string]struct{ need, may []string }{
	"read":        {need: []string{"id", "path", "content"}, may: []string{"offset", "limit"}},
	"edit":        {need: []string{"id", "path", "after"}, may: []string{"before"}},
	"write":       {need: []string{"id", "path", "after"}, may: []string{"before"}},
	"delete":      {need: []string{"id", "path"}},
	"apply_patch": {need: []string{"id", "files"}},
	"output":      {need: []string{"id", "tool", "args", "text"}},
	"recall":      {need: []string{"id", "target"}, may: []string{"offset", "limit"}},
	"reply":       {},
	"compact":     {may: []string{"summary"}},
	"turn":        {},
	"undo":        {},
	"rewind":      {need: []string{"turns"}},
}

const contextOpNames = "read, edit, write, delete, apply_patch, output, recall, reply, compact, turn, undo or rewind"

func (s ContextStep) present() map[string]bool {
	return map[string]bool{
		"id": s.ID != nil, "path": s.Path != nil, "content": s.Content != nil, "offset": s.Offset != nil,
		"limit": s.Limit != nil, "before": s.Before != nil, "after": s.After != nil, "tool": s.Tool != nil,
		"args": s.Args != nil, "text": s.Text != nil, "target": s.Target != nil, "files": s.Files != nil,
		"turns": s.Turns != nil, "summary": s.Summary != nil,
	}
}

func (c ContextCase) Validate() error {
	if err := c.Limits.validate(); err != nil {
		return err
	}
	if c.Cwd != nil && !strings.HasPrefix(*c.Cwd, "/") {
		return Fieldf("cwd", "%q is not absolute: the start directory begins with /", *c.Cwd)
	}
	if len(c.Steps) == 0 {
		return Fieldf("steps", "missing or empty: a case is a session's steps, at least one")
	}
	ids := map[string]int{}
	for i, s := range c.Steps {
		if err := s.validate(i, ids); err != nil {
			return err
		}
	}
	return validateTurns(c.Steps)
}

// validate checks the cap's six numbers, when the case gives them.
func (l *contextLimits) validate() error {
	if l == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    *int
	}{{"max_lines", l.MaxLines}, {"max_chars", l.MaxChars}, {"head_lines", l.HeadLines}, {"head_chars",
		l.HeadChars}, {"tail_lines", l.TailLines}, {"tail_chars", l.TailChars}} {
		if f.v == nil {
			return Fieldf("limits."+f.name,
				"missing: limits gives all six numbers of loop.json's cap (max_lines, max_chars, head_lines, "+
					"head_chars, tail_lines, tail_chars)")
		}
		if *f.v < 1 {
			return Fieldf("limits."+f.name, "is %d; a limit is at least 1", *f.v)
		}
	}
	return nil
}

// validate checks step i: its op's fields, its id (new in the session: ids), and its values.
func (s ContextStep) validate(i int, ids map[string]int) error {
	at := func(f string) string { return fmt.Sprintf("steps[%d].%s", i, f) }
	op, ok := contextOps[s.Op]
	if !ok {
		return Fieldf(at("op"), "%q is not a step; want %s", s.Op, contextOpNames)
	}
	if err := opFields(at, s.Op, op.need, op.may, s.present(), []string{"id", "path", "content", "offset", "limit",
		"before", "after", "tool", "args", "text", "target", "files", "turns", "summary"}); err != nil {
		return err
	}
	if s.ID != nil {
		if _, ok := results.ParseID(*s.ID); !ok {
			return Fieldf(at("id"),
				"%q is not a result id: # and lowercase hex, at least %d digits, no extra leading zeros (#0001, "+
					"#a001, #10000)", *s.ID, spec.LoopJSON().Context.IDs.Digits)
		}
		if j, dup := ids[*s.ID]; dup {
			return Fieldf(at("id"), "%s is already steps[%d]'s: an id is never reused in a session", *s.ID, j)
		}
		ids[*s.ID] = i
	}
	return s.validateValues(i, at)
}

// validateValues checks step i's values beyond their op: paths, line numbers, a patch's files,
// another tool's call, a recall's target.
func (s ContextStep) validateValues(i int, at func(string) string) error {
	if s.Path != nil && *s.Path == "" {
		return Fieldf(at("path"), "empty: a path names a file")
	}
	for _, f := range []struct {
		name string
		v    *int
	}{{"offset", s.Offset}, {"limit", s.Limit}} {
		if f.v != nil && *f.v < 1 {
			return Fieldf(at(f.name), "is %d; it is at least 1 (lines count from 1)", *f.v)
		}
	}
	if s.Op == "read" && s.Offset != nil {
		n := strings.Count(*s.Content, "\n")
		if *s.Content != "" && !strings.HasSuffix(*s.Content, "\n") {
			n++
		}
		if *s.Offset > max(n, 1) {
			return Fieldf(at("offset"),
				"%d is past the file's %d lines: the read tool refuses that, and its refusal is not this "+
					"area's", *s.Offset, n)
		}
	}
	if s.Op == "apply_patch" {
		if len(s.Files) == 0 {
			return Fieldf(at("files"), "empty: a patch changes at least one file, each {path, before, after}")
		}
		for j, f := range s.Files {
			fat := fmt.Sprintf("steps[%d].files[%d]", i, j)
			if f.Path == nil || *f.Path == "" {
				return Fieldf(fat+".path", "missing: the file's path, as the patch names it")
			}
			if f.Before == nil && f.After == nil {
				return Fieldf(fat,
					"neither before nor after: a file the patch creates has after, one it deletes before, one it "+
						"changes both")
			}
		}
	}
	if s.Op == "output" {
		if *s.Tool == "read" || *s.Tool == "edit" || *s.Tool == "write" || *s.Tool == "recall" ||
			*s.Tool == "apply_patch" {
			return Fieldf(at("tool"), "%q has its own step: use op %q", *s.Tool, *s.Tool)
		}
		if t := bytes.TrimSpace(s.Args); len(t) == 0 || t[0] != '{' {
			return Fieldf(at("args"), "is %s; a call's arguments are a JSON object", string(s.Args))
		}
	}
	if s.Target != nil && strings.TrimPrefix(*s.Target, "#") == "" {
		return Fieldf(at("target"), "empty: recall names a result id (the # may be left out)")
	}
	return nil
}

// opFields checks a step's fields against what its op takes: each of need present, nothing but
// need and may (has: which fields the step gives; all: every field a step may have, in the order
// an error looks for them).
func opFields(at func(string) string, op string, need, may []string, has map[string]bool, all []string) error {
	takes := map[string]bool{}
	for _, f := range need {
		if !has[f] {
			return Fieldf(at(f), "missing: a %s step takes %s", op, fieldWords(need, may))
		}
		takes[f] = true
	}
	for _, f := range may {
		takes[f] = true
	}
	for _, f := range all {
		if has[f] && !takes[f] {
			return Fieldf(at(f), "a %s step has no %s; it takes %s", op, f, fieldWords(need, may))
		}
	}
	return nil
}

func fieldWords(need, may []string) string {
	if len(need) == 0 {
		return "no other field"
	}
	s := strings.Join(need, ", ")
	if len(may) > 0 {
		s += " (and may take " + strings.Join(may, ", ") + ")"
	}
	return s
}

// contextAnswer is the text each step inserts, in order; "" for reply and a compact with no reads.
// Pointers, so that a null in an expectation is refused rather than read as "".
type contextAnswer []*string

func (a contextAnswer) Validate() error {
	if a == nil {
		return Fieldf("", "the answer is a list of strings, one for each step")
	}
	for i, s := range a {
		if s == nil {
			return Fieldf(fmt.Sprintf("[%d]", i),
				"is null; each step's answer is a string (\"\" for reply and for a compact with no reads)")
		}
	}
	return nil
}

func answerContext(c ContextCase) (contextAnswer, error) {
	var o results.Options
	if l := c.Limits; l != nil {
		o.Cap = &spec.Cap{MaxLines: *l.MaxLines, MaxChars: *l.MaxChars, HeadLines: *l.HeadLines,
			HeadChars: *l.HeadChars, TailLines: *l.TailLines, TailChars: *l.TailChars}
	}
	if c.Cwd != nil {
		o.WorkDir = *c.Cwd
	}
	s, err := results.New(o)
	if err != nil {
		return nil, err
	}
	out := make(contextAnswer, 0, len(c.Steps))
	for i, st := range c.Steps {
		var text string
		var err error
		switch st.Op {
		case "read":
			text, err = s.Read(*st.ID, *st.Path, *st.Content, orZero(st.Offset), orZero(st.Limit))
		case "edit", "write":
			text, err = s.Write(*st.ID, *st.Path, st.Before, *st.After)
		case "delete":
			text, err = s.Delete(*st.ID, *st.Path)
		case "apply_patch":
			files := make([]results.PatchFile, len(st.Files))
			for j, f := range st.Files {
				files[j] = results.PatchFile{Path: *f.Path, Before: f.Before, After: f.After}
			}
			text, err = s.Patch(*st.ID, files)
		case "output":
			text, err = s.Output(*st.ID, *st.Tool, st.Args, *st.Text)
		case "recall":
			text, err = s.Recall(*st.ID, *st.Target, orZero(st.Offset), orZero(st.Limit))
		case "reply":
			s.Reply()
		case "compact":
			if summarised(st.Summary) {
				text = s.Compact()
			}
		case "turn":
			s.Turn()
		case "undo":
			err = s.Rewind(1)
		case "rewind":
			err = s.Rewind(*st.Turns)
		default:
			err = fmt.Errorf("%q is not a step", st.Op)
		}
		if err != nil {
			return nil, fmt.Errorf("steps[%d] (%s %s): %v", i, st.Op, orZero(st.ID), err)
		}
		out = append(out, &text)
	}
	return out, nil
}
