package conformance

import (
	"errors"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/index"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Index is cases/index.json: what search's index embeds, and holds per path, as a tree is
// written, moved, copied, mounted and committed (filesystem.md, Indexing, by tokens).
var Index = Define("index", "lembas-check",
	"search's index: built when a file is written, keyed by content hash (a file in many places, or unchanged across "+
		"commits and branches, embedded once; a move costs nothing), a mount's default branch and its new commits "+
		"(filesystem.md, Indexing, by tokens)", answerIndex).WithSteps(steps.Index)

// The ops a step may have, and the fields each takes (required, then optional).
var indexOps = map[string]struct{ need, may []string }{
	"write":        {need: []string{"path", "content"}},
	"rm":           {need: []string{"path"}},
	"mv":           {need: []string{"from", "to"}},
	"copy":         {need: []string{"from", "to"}},
	"mount":        {need: []string{"path", "files"}},
	"commit":       {need: []string{"path"}, may: []string{"paths"}},
	"forge_commit": {need: []string{"path", "files"}},
}

const indexOpNames = "write, rm, mv, copy, mount, commit or forge_commit"

type indexCase struct {
	About string      `json:"about,omitempty"`
	Steps []indexStep `json:"steps"`
}

type indexStep struct {
	Op      string             `json:"op"`
	Path    *string            `json:"path"`
	Content *string            `json:"content"`
	From    *string            `json:"from"`
	To      *string            `json:"to"`
	Files   map[string]*string `json:"files"`
	Paths   []string           `json:"paths"`
}

func (s indexStep) present() map[string]bool {
	return map[string]bool{"path": s.Path != nil, "content": s.Content != nil, "from": s.From != nil, "to": s.To != nil,
		"files": s.Files != nil, "paths": s.Paths != nil}
}

func (c indexCase) Validate() error {
	if len(c.Steps) == 0 {
		return Fieldf("steps", "missing or empty: the tree's steps, each {op: %s}", indexOpNames)
	}
	for i, s := range c.Steps {
		at := func(f string) string { return fmt.Sprintf("steps[%d].%s", i, f) }
		op, ok := indexOps[s.Op]
		if !ok {
			return Fieldf(at("op"), "%q is not an op; want %s", s.Op, indexOpNames)
		}
		if err := opFields(at, s.Op, op.need, op.may, s.present(), []string{"path", "content", "from", "to", "files",
			"paths"}); err != nil {
			return err
		}
		if s.Op == "mount" {
			for _, rel := range modulesKeys(s.Files) {
				if s.Files[rel] == nil {
					return Fieldf(fmt.Sprintf("%s[%q]", at("files"), rel),
						"is null: a mounted branch's file has content (null removes a file only in a forge_commit)")
				}
			}
		}
		if s.Op == "commit" && s.Paths != nil && len(s.Paths) == 0 {
			return Fieldf(at("paths"), "empty: leave it out to commit every staged change")
		}
	}
	_, _, err := runIndex(c)
	return err
}

// sessionOps are the steps a session takes; the spec may refuse them, and a refusal is the
// case's answer. mount and forge_commit set the scene: one the tree cannot take is a malformed
// case.
var sessionOps = map[string]bool{"write": true, "rm": true, "mv": true, "copy": true, "commit": true}

// runIndex takes the case's steps on a new index up to the first the spec refuses (its refusal
// is the answer, the later steps are not taken); another step the tree cannot take is a
// FieldError naming it.
func runIndex(c indexCase) (*index.Index, *indexRefusal, error) {
	x := index.New()
	for i, s := range c.Steps {
		var err error
		switch s.Op {
		case "write":
			err = x.Write(*s.Path, *s.Content)
		case "rm":
			err = x.Rm(*s.Path)
		case "mv":
			err = x.Mv(*s.From, *s.To)
		case "copy":
			err = x.Copy(*s.From, *s.To)
		case "mount":
			files := map[string]string{}
			for rel, c := range s.Files {
				files[rel] = *c
			}
			err = x.Mount(*s.Path, files)
		case "commit":
			err = x.Commit(*s.Path, s.Paths)
		case "forge_commit":
			err = x.ForgeCommit(*s.Path, s.Files)
		}
		var ie *index.Error
		if errors.As(err, &ie) && ie.Refusal && sessionOps[s.Op] {
			r := &indexRefusal{Step: i}
			if text := ie.Text(); text != "" {
				r.Error = &text
			}
			return x, r, nil
		}
		if errors.As(err, &ie) {
			return nil, nil, Fieldf(fmt.Sprintf("steps[%d]", i), "the tree cannot take this %s: %s", s.Op, ie.Msg)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return x, nil, nil
}

// indexAnswer is what was embedded (content hashes, in order) and what the index holds (path →
// content hash) after the last step; or, when the spec refuses a step, only that refusal.
type indexAnswer struct {
	Embedded []*string          `json:"embedded"`
	Index    map[string]*string `json:"index"`
	Refused  *indexRefusal      `json:"refused,omitempty"`
}

// MarshalJSON writes a refusal alone, and an index answer without "refused".
func (a indexAnswer) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil) }

// AppendJSON implements jsonx.Appender.
func (a indexAnswer) AppendJSON(b []byte) ([]byte, error) {
	if a.Refused != nil {
		return jsonx.Append(b, struct {
			Refused *indexRefusal `json:"refused"`
		}{a.Refused})
	}
	type plain indexAnswer
	return jsonx.Append(b, plain(a))
}

// indexRefusal is a step the spec refuses: which (its index in steps) and the spec's error text
// for it (filesystem.md, *Errors*), absent where the spec says only that it is refused (`mv`
// between a mount and the tree, `rm` of a mount). An implementation that takes the step answers
// the index instead, and fails the case.
type indexRefusal struct {
	Step  int     `json:"step"`
	Error *string `json:"error,omitempty"`
}

func (a indexAnswer) Validate() error {
	if a.Refused != nil {
		if a.Embedded != nil || a.Index != nil {
			return Fieldf("refused", "a refusal is the whole answer: {\"refused\": {\"step\": …, \"error\": …}}")
		}
		if a.Refused.Step < 0 {
			return Fieldf("refused.step", "is %d: the index in steps of the step refused", a.Refused.Step)
		}
		return nil
	}
	if a.Embedded == nil {
		return Fieldf("embedded", "missing: the content hashes embedded, in order ([] for none)")
	}
	if a.Index == nil {
		return Fieldf("index", "missing: what the index holds, path → content hash ({} for nothing)")
	}
	for i, h := range a.Embedded {
		if h == nil || !isHash(*h) {
			return Fieldf(fmt.Sprintf("embedded[%d]", i), "want a content hash: 64 lowercase hex digits (SHA-256)")
		}
	}
	for _, p := range modulesKeys(a.Index) {
		if h := a.Index[p]; h == nil || !isHash(*h) {
			return Fieldf(fmt.Sprintf("index[%q]", p), "want a content hash: 64 lowercase hex digits (SHA-256)")
		}
		if !strings.HasPrefix(p, "/") {
			return Fieldf(fmt.Sprintf("index[%q]", p), "want an absolute path")
		}
	}
	return nil
}

func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}

func answerIndex(c indexCase) (indexAnswer, error) {
	x, refused, err := runIndex(c)
	if err != nil {
		return indexAnswer{}, err
	}
	if refused != nil {
		return indexAnswer{Refused: refused}, nil
	}
	a := indexAnswer{Embedded: []*string{}, Index: map[string]*string{}}
	for _, h := range x.Embedded() {
		a.Embedded = append(a.Embedded, &h)
	}
	for p, h := range x.Held() {
		a.Index[p] = &h
	}
	return a, nil
}
