package steps

import (
	"fmt"
)

// skills: where a session finds its skills. Givens lay out the files, the side and its places;
// a When names the op (list, view, make); Thens say what it answers.

type skillsBuilder struct {
	tree   []string
	names  map[string]any
	grants map[string]any // nil: absent (everything at ro in a chat)
	side   string
	fields map[string]any // the side's places: boundary, start, user, project, trusted, user_skills, config
	op     string
	name   *string
}

func (b *skillsBuilder) set(k string, v any) {
	if b.fields == nil {
		b.fields = map[string]any{}
	}
	b.fields[k] = v
}

func (b *skillsBuilder) Case() (map[string]any, error) {
	switch {
	case b.tree == nil:
		return nil, fmt.Errorf("no files: say which exist with `Given the files:` (or `Given no files`)")
	case b.side == "":
		return nil, fmt.Errorf("no side: say it with `Given a chat started in \"/…\" with the boundary \"/…\"` or " +
			"`Given a device session in the project \"/…\"`")
	case b.op == "":
		return nil, fmt.Errorf("no op: say it with `When the skills are listed`, `When the skill \"…\" is viewed` " +
			"or `When the skill \"…\" is made`")
	}
	c := map[string]any{"side": b.side, "tree": b.tree, "op": b.op}
	for k, v := range b.fields {
		c[k] = v
	}
	if b.names != nil {
		c["names"] = b.names
	}
	if b.grants != nil {
		c["grants"] = b.grants
	}
	if b.name != nil {
		c["name"] = *b.name
	}
	return c, nil
}

// Skills is the vocabulary of area skills: where a session finds its skills, and which it offers.
var Skills = &Vocabulary{newBuilder: func() builder { return &skillsBuilder{} }, define: skillsSteps}

func skillsSteps() []stepDef {
	type B = skillsBuilder
	op := func(o string) func(b *B, a *args) error {
		return func(b *B, a *args) error {
			b.op = o
			if len(a.vals) > 0 {
				s := a.str(0)
				b.name = &s
			}
			return nil
		}
	}
	return []stepDef{
		step(Given, "the files:", tableArg, "the files that exist, one path a row (a trailing / makes a directory)",
			func(b *B, a *args) (err error) { b.tree, err = pathRows(a); return err }, "path"),
		step(Given, "the skill {string:path} is named {string:name}", noArg, "a SKILL.md's frontmatter name "+
			"(without this step: its directory's name)",
			func(b *B, a *args) error {
				if b.names == nil {
					b.names = map[string]any{}
				}
				b.names[a.str(0)] = a.str(1)
				return nil
			}),
		step(Given, "the grants:", tableArg, "a chat's grants (without this step everything is at ro)",
			func(b *B, a *args) (err error) { b.grants, err = levelRows(a); return err }, "path", "level"),
		step(Given, "a chat started in {string:dir} with the boundary {string:boundary}", noArg,
			"a chat session: its start directory and boundary",
			func(b *B, a *args) error {
				b.side = "chat"
				b.set("start", a.str(0))
				b.set("boundary", a.str(1))
				return nil
			}),
		step(Given, "the person is {string:user}", noArg, "whose /home/<user>/skills/ is the person's own place",
			func(b *B, a *args) error { b.set("user", a.str(0)); return nil }),
		step(Given, "a device session in the project {string:dir}", noArg, "a device's session: its project root",
			func(b *B, a *args) error { b.side = "device"; b.set("project", a.str(0)); return nil }),
		step(Given, "the project is trusted", noArg, "the project's own .agent/skills/ is a place",
			func(b *B, a *args) error { b.set("trusted", true); return nil }),
		step(Given, "the user's own skills are in {string:dir}", noArg, "a device's user skills directory",
			func(b *B, a *args) error { b.set("user_skills", a.str(0)); return nil }),
		step(Given, "the configuration adds the skill directories:", tableArg, "a device's added places, in order",
			func(b *B, a *args) error {
				ds, err := pathRows(a)
				b.set("config", ds)
				return err
			}, "dir"),
		step(When, "the skills are listed", noArg, "op list: what skills_list and the prompt's index offer",
			op("list")),
		step(When, "the skill {string:name} is viewed", noArg, "op view: what skill_view loads for the name",
			op("view")),
		step(When, "the skill {string:name} is made", noArg, "op make: where skill_manage makes it", op("make")),
		step(Then, "the skills offered are:", tableArg, "every skill offered, by name, with its SKILL.md",
			func(b *B, a *args) error {
				rows, err := a.rows(2)
				if err != nil {
					return err
				}
				m := map[string]any{}
				for _, r := range rows {
					m[r[0]] = r[1]
				}
				return a.expect(nil, map[string]any{"skills": m})
			}, "name", "path"),
		step(Then, "no skill is offered", noArg, "the answer is {\"skills\": {}}",
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"skills": map[string]any{}}) }),
		step(Then, "it loads {string:path}", noArg, "the SKILL.md skill_view loads",
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"skill": a.str(0)}) }),
		step(Then, "no skill is found", noArg, "the answer is {\"none\": true}",
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"none": true}) }),
		step(Then, "it makes {string:path}", noArg, "the new SKILL.md",
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"made": a.str(0)}) }),
		step(Then, "the name is refused", noArg, "skill_manage's name check refuses it",
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"refused": "name"}) }),
		step(Then, "the error is {string:text}", noArg, "the Errors table's text",
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"error": a.str(0)}) }),
	}
}
