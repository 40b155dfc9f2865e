package conformance

import (
	"errors"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/instructions"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Instructions is conformance/instructions.json: the instruction files a session starts with.
var Instructions = Define("instructions", "spec",
	"the instruction files a session starts with, stacked from the boundary down to the start directory "+
		"(filesystem.md)", answerInstructions).WithSteps(steps.Instructions)

// InstructionsCase is an instructions case as Decode reads it (and the live target plays it).
type InstructionsCase struct {
	About    string            `json:"about,omitempty"`
	Files    []string          `json:"files"`
	Boundary *string           `json:"boundary"`
	Start    *string           `json:"start"`
	Grants   map[string]string `json:"grants"`
}

func (c InstructionsCase) Validate() error {
	if c.Files == nil {
		return Fieldf("files", "missing: the files that exist (a list of absolute paths, [] for none)")
	}
	for _, f := range []struct {
		field string
		p     *string
	}{{"boundary", c.Boundary}, {"start", c.Start}} {
		field, p := f.field, f.p
		if p == nil {
			return Fieldf(field, "missing: an absolute directory")
		}
		if !strings.HasPrefix(*p, "/") {
			return Fieldf(field, "%q is not absolute: it begins with /", *p)
		}
	}
	_, err := c.view()
	return err
}

// view is the session's view of the files: the case's grants, or everything readable when the
// case has none ("grants as in fs_access (absent: everything readable)").
func (c InstructionsCase) view() (*fsaccess.View, error) {
	grants, err := levels("grants", c.Grants)
	if err != nil {
		return nil, err
	}
	if c.Grants == nil {
		grants = map[string]fsaccess.Level{"/": fsaccess.RO}
	}
	v, err := fsaccess.New(fsaccess.Config{Tree: c.Files, Grants: grants})
	if err != nil {
		var ce *fsaccess.ConfigError
		if errors.As(err, &ce) {
			return nil, Fieldf(strings.Replace(ce.Field, "tree", "files", 1), "%s", ce.Msg)
		}
		return nil, err
	}
	return v, nil
}

// instructionsAnswer is the loaded paths, in order: [] when there are none.
type instructionsAnswer []string

func (a instructionsAnswer) Validate() error {
	if a == nil {
		return Fieldf("", "is null; the answer is a list of paths, [] when none is loaded")
	}
	for i, p := range a {
		if !strings.HasPrefix(p, "/") {
			return Fieldf("["+strconv.Itoa(i)+"]", "%q is not an absolute path", p)
		}
	}
	return nil
}

func answerInstructions(c InstructionsCase) (instructionsAnswer, error) {
	v, err := c.view()
	if err != nil {
		return nil, err
	}
	return instructionsAnswer(instructions.Chain(v, *c.Boundary, *c.Start)), nil
}
