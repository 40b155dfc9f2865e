package conformance

import (
	"errors"
	"slices"
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
	// Reads are the files the session reads after it starts, in order (absolute, or relative to
	// the start directory): each may hand the model nearby instruction files. Absent: none.
	Reads []string `json:"reads,omitempty"`
	// Relative asks for the paths as the model is given them: relative to the boundary.
	Relative bool `json:"relative,omitempty"`
	// Device makes the session a device's: the boundary is the project root, links are followed.
	Device *InstructionsDevice `json:"device,omitempty"`
}

// InstructionsDevice is what a device adds to the chain: the CLI's global AGENTS.md before it,
// the instructions its configuration names after it, and the links in the project.
type InstructionsDevice struct {
	// Global is the CLI's global AGENTS.md, given first when it is one of the case's files.
	Global string `json:"global,omitempty"`
	// Instructions are the files the configuration names, given after the chain, in order, each
	// that is one of the case's files.
	Instructions []string `json:"instructions,omitempty"`
	// Links are the links in the project, absolute path → target (absolute, or relative to the
	// link's directory). A link counts as a file only when its target is a file inside the project.
	Links map[string]string `json:"links,omitempty"`
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
	if err := c.validateMore(); err != nil {
		return err
	}
	_, err := c.view()
	return err
}

// validateMore checks the fields 3.1.0's cases added: reads, device.
func (c InstructionsCase) validateMore() error {
	for i, r := range c.Reads {
		if r == "" {
			return Fieldf("reads["+strconv.Itoa(i)+"]", "is empty: a path the session reads")
		}
	}
	d := c.Device
	if d == nil {
		return nil
	}
	if c.Grants != nil {
		return Fieldf("grants", "given with device: a device has one access level for the whole project")
	}
	abs := func(field, p string) error {
		if !strings.HasPrefix(p, "/") {
			return Fieldf(field, "%q is not absolute: it begins with /", p)
		}
		return nil
	}
	if d.Global != "" {
		if err := abs("device.global", d.Global); err != nil {
			return err
		}
	}
	for i, p := range d.Instructions {
		if err := abs("device.instructions["+strconv.Itoa(i)+"]", p); err != nil {
			return err
		}
	}
	for l, t := range d.Links {
		if err := abs("device.links", l); err != nil {
			return err
		}
		if t == "" {
			return Fieldf("device.links["+strconv.Quote(l)+"]", "is empty: the link's target")
		}
		if slices.Contains(c.Files, l) {
			return Fieldf("device.links["+strconv.Quote(l)+"]", "is also in files: a path is a link or a file")
		}
	}
	return nil
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
	tree := c.Files
	if c.Device != nil {
		tree = instructions.Linked(c.Files, *c.Boundary, c.Device.Links)
	}
	v, err := fsaccess.New(fsaccess.Config{Tree: tree, Grants: grants})
	if err != nil {
		var ce *fsaccess.ConfigError
		if errors.As(err, &ce) {
			return nil, Fieldf(strings.Replace(ce.Field, "tree", "files", 1), "%s", ce.Msg)
		}
		return nil, err
	}
	return v, nil
}

// instructionsAnswer is the loaded paths, in order: [] when there are none. Absolute, or with
// relative, as the model is given them (relative to the boundary inside it).
type instructionsAnswer []string

func (a instructionsAnswer) Validate() error {
	if a == nil {
		return Fieldf("", "is null; the answer is a list of paths, [] when none is loaded")
	}
	for i, p := range a {
		if p == "" || fsaccess.Resolve("/", p) != "/"+strings.TrimPrefix(p, "/") {
			return Fieldf("["+strconv.Itoa(i)+"]", "%q is not a resolved path (absolute, or relative to the "+
				"boundary)", p)
		}
	}
	return nil
}

func answerInstructions(c InstructionsCase) (instructionsAnswer, error) {
	v, err := c.view()
	if err != nil {
		return nil, err
	}
	out := instructions.Given(v, *c.Boundary, *c.Start, c.Reads)
	if d := c.Device; d != nil {
		n := len(instructions.Chain(v, *c.Boundary, *c.Start))
		out = append(deviceOrder(c.Files, d, out[:n:n]), out[n:]...)
	}
	if c.Relative {
		for i, p := range out {
			out[i] = instructions.RelOrAbs(*c.Boundary, p)
		}
	}
	return instructionsAnswer(out), nil
}

// deviceOrder puts the CLI's global AGENTS.md before the chain and the configured instructions
// after it, each when it is a file and not already given.
func deviceOrder(files []string, d *InstructionsDevice, chain []string) []string {
	have := map[string]bool{}
	for _, f := range files {
		have[fsaccess.Resolve("/", f)] = true
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p = fsaccess.Resolve("/", p); p != "/" && have[p] && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	add(d.Global)
	for _, p := range chain {
		seen[p] = true
	}
	out = append(out, chain...)
	for _, p := range d.Instructions {
		add(p)
	}
	return out
}
