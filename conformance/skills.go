package conformance

import (
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/skills"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Skills is cases/skills.json: where a session finds its skills and which it offers, how a name
// is looked up and where skill_manage makes one (filesystem.md, Skills).
var Skills = Define("skills", "lembas-check",
	"the skills a session finds, in order of precedence on each side, which it offers, how a name is "+
		"looked up and where skill_manage makes one (filesystem.md, Skills)", answerSkills).WithSteps(steps.Skills)

// skillsCase is one question about a session's skills: the files (tree, names), the side and its
// places, and the op.
type skillsCase struct {
	About string   `json:"about,omitempty"`
	Side  string   `json:"side"`
	Tree  []string `json:"tree"`
	// Names are SKILL.md files' frontmatter names; absent: the skill directory's name.
	Names map[string]string `json:"names,omitempty"`
	// Grants are a chat's, as fs_access's (absent: everything at ro); a device has one level, stage.
	Grants   map[string]string `json:"grants,omitempty"`
	Boundary *string           `json:"boundary,omitempty"`
	Start    *string           `json:"start,omitempty"`
	User     *string           `json:"user,omitempty"`
	// Project, Trusted, UserSkills and Config are a device's places.
	Project    *string  `json:"project,omitempty"`
	Trusted    bool     `json:"trusted,omitempty"`
	UserSkills *string  `json:"user_skills,omitempty"`
	Config     []string `json:"config,omitempty"`
	Op         string   `json:"op"`
	Name       *string  `json:"name,omitempty"`
}

func (c skillsCase) Validate() error {
	var need, refuse []string
	switch c.Side {
	case "chat":
		need, refuse = []string{"boundary", "start", "user"}, []string{"project", "user_skills"}
	case "device":
		need, refuse = []string{"project"}, []string{"boundary", "start", "user", "grants"}
	default:
		return Fieldf("side", "%q: want chat or device", c.Side)
	}
	set := map[string]bool{"boundary": c.Boundary != nil, "start": c.Start != nil, "user": c.User != nil,
		"project": c.Project != nil, "user_skills": c.UserSkills != nil, "grants": c.Grants != nil}
	for _, f := range need {
		if !set[f] {
			return Fieldf(f, "missing: a %s case needs it", c.Side)
		}
	}
	for _, f := range refuse {
		if set[f] {
			return Fieldf(f, "is not a %s case's", c.Side)
		}
	}
	for _, p := range []struct {
		field string
		v     *string
	}{{"boundary", c.Boundary}, {"start", c.Start}, {"project", c.Project}, {"user_skills", c.UserSkills}} {
		if p.v != nil && !strings.HasPrefix(*p.v, "/") {
			return Fieldf(p.field, "%q is not absolute: it begins with /", *p.v)
		}
	}
	if c.Boundary != nil && !fsaccess.Within(fsaccess.Resolve("/", *c.Boundary), fsaccess.Resolve("/", *c.Start)) {
		return Fieldf("start", "%s is outside the boundary %s", *c.Start, *c.Boundary)
	}
	if err := c.validateOp(); err != nil {
		return err
	}
	_, err := c.view()
	return err
}

func (c skillsCase) validateOp() error {
	switch c.Op {
	case "list":
		if c.Name != nil {
			return Fieldf("name", "is view's and make's; op list has none")
		}
	case "view", "make":
		if c.Name == nil {
			return Fieldf("name", "missing: the name op %s is asked for", c.Op)
		}
		if c.Op == "make" && c.Side == "device" && c.UserSkills == nil {
			return Fieldf("user_skills", "missing: make puts a new skill in the user's own skills directory")
		}
	default:
		return Fieldf("op", "%q: want list, view or make", c.Op)
	}
	return nil
}

func (c skillsCase) view() (*fsaccess.View, error) {
	absent := map[string]fsaccess.Level{"/": fsaccess.RO}
	if c.Side == "device" {
		absent = map[string]fsaccess.Level{"/": fsaccess.Stage}
	}
	return viewFields{Tree: c.Tree, Grants: c.Grants}.view(absent)
}

func (c skillsCase) places() (places []string, personal string) {
	if c.Side == "chat" {
		places = skills.ChatPlaces(*c.Boundary, *c.Start, *c.User)
		return places, places[len(places)-2]
	}
	return skills.DevicePlaces(*c.Project, c.Trusted, orZero(c.UserSkills), c.Config), orZero(c.UserSkills)
}

// name is a SKILL.md's frontmatter name: the case's, or its directory's.
func (c skillsCase) name(file string) string {
	for k, n := range c.Names {
		if fsaccess.Resolve("/", k) == file {
			return n
		}
	}
	return fsaccess.Base(fsaccess.Parent(file))
}

// skillsAnswer is one of {skills: {name: SKILL.md}}, {skill: SKILL.md}, {none: true},
// {made: SKILL.md}, {refused: "name"} or {error: "<filesystem.md's text>"}.
type skillsAnswer struct {
	Skills  *map[string]string `json:"skills,omitempty"`
	Skill   *string            `json:"skill,omitempty"`
	None    *bool              `json:"none,omitempty"`
	Made    *string            `json:"made,omitempty"`
	Refused *string            `json:"refused,omitempty"`
	Error   *string            `json:"error,omitempty"`
}

func (a skillsAnswer) Validate() error {
	n := 0
	for _, set := range []bool{a.Skills != nil, a.Skill != nil, a.None != nil, a.Made != nil, a.Refused != nil,
		a.Error != nil} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return Fieldf("", `an answer is exactly one of {"skills": {…}}, {"skill": "…"}, {"none": true}, `+
			`{"made": "…"}, {"refused": "name"} or {"error": "…"}`)
	case a.None != nil && !*a.None:
		return Fieldf("none", "is false; a skill found is {\"skill\": …}")
	case a.Skills != nil && *a.Skills == nil:
		return Fieldf("skills", "is null; no skill is {}")
	case a.Refused != nil && *a.Refused != "name":
		return Fieldf("refused", "%q: the check that refused is \"name\"", *a.Refused)
	}
	return nil
}

func answerSkills(c skillsCase) (skillsAnswer, error) {
	v, err := c.view()
	if err != nil {
		return skillsAnswer{}, err
	}
	places, personal := c.places()
	found := skills.Found(v, c.Tree, places, c.name)
	switch c.Op {
	case "list":
		m := map[string]string{}
		for _, s := range found {
			m[s.Name] = s.Path
		}
		return skillsAnswer{Skills: &m}, nil
	case "view":
		if s, ok := skills.Lookup(found, *c.Name); ok {
			return skillsAnswer{Skill: &s.Path}, nil
		}
		none := true
		return skillsAnswer{None: &none}, nil
	}
	if !skills.Valid(*c.Name) {
		why := "name"
		return skillsAnswer{Refused: &why}, nil
	}
	p := skills.NewFile(personal, *c.Name)
	if err := v.Write(p); err != nil {
		text := err.Error()
		return skillsAnswer{Error: &text}, nil
	}
	return skillsAnswer{Made: &p}, nil
}
