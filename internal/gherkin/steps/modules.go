package steps

import (
	"fmt"
	"strings"
)

// One of lembas-check's own areas (seeds/004). Its Thens, like prefix's, name a step by its
// place among the Whens.

// modules: rule modules loaded by the path touched. Givens lay out the Project and its disk; each
// When is one step of the session; Thens name a step.

type modulesBuilder struct {
	root  *string
	files map[string]any
	links map[string]any
	steps []map[string]any
}

func (b *modulesBuilder) Case() (map[string]any, error) {
	switch {
	case b.root == nil:
		return nil, fmt.Errorf("no Project root: say it with `Given the project root is \"/project\"`")
	case len(b.steps) == 0:
		return nil, fmt.Errorf("no steps: a When is one step, e.g. `When the session spawns`")
	}
	c := map[string]any{"root": *b.root, "files": b.files, "steps": b.steps}
	if len(b.links) > 0 {
		c["links"] = b.links
	}
	return c, nil
}

func (b *modulesBuilder) add(s map[string]any) error { b.steps = append(b.steps, s); return nil }

// errLate is a Given after the first When: the disk a session starts with is said before it.
var errLate = fmt.Errorf("a Given describes the disk the session starts with, before the first When; a later change " +
	"is `When the file … changes to …`")

func (b *modulesBuilder) file(p string, content any) error {
	if len(b.steps) > 0 {
		return errLate
	}
	b.files[p] = content
	return nil
}

func (b *modulesBuilder) link(p string, target any) error {
	if len(b.steps) > 0 {
		return errLate
	}
	b.links[p] = target
	return nil
}

func (b *modulesBuilder) at(n int, ops ...string) (int, error) {
	i, err := stepIndex(n, len(b.steps))
	if err != nil {
		return 0, err
	}
	op := b.steps[i]["op"].(string)
	for _, o := range ops {
		if op == o {
			return i, nil
		}
	}
	return 0, fmt.Errorf("step %d is a %s step; this Then is about a %s step", n, op, strings.Join(ops, " or "))
}

// diagnostics reads a table of path | code: an empty path is a diagnostic without one (a failed
// append), the code null a module refused for its frontmatter.
func diagnostics(a *args) ([]map[string]any, error) {
	return mapRows(a, 2, func(r []string) map[string]any {
		d := map[string]any{}
		if p := strings.TrimSpace(r[0]); p != "" {
			d["path"] = p
		}
		switch c := strings.TrimSpace(r[1]); c {
		case "null":
			d["code"] = nil
		default:
			d["code"] = c
		}
		return d
	})
}

// Modules is the vocabulary of area modules: rule modules loaded by the path touched.
var Modules = &Vocabulary{newBuilder: func() builder {
	return &modulesBuilder{files: map[string]any{},
		links: map[string]any{}}
}, define: modulesSteps}

// modulesSteps are modules' phrases: the Givens of the disk, the Whens of the session's steps
// and the Thens of what each loads, appends and diagnoses.
func modulesSteps() []stepDef {
	return append(append(modulesGivens(), modulesWhens()...), modulesThens()...)
}

// modulesGivens are the phrases of the Project root and the disk.
func modulesGivens() []stepDef {
	type B = modulesBuilder
	return []stepDef{
		step(Given, "the project root is {string:dir}", noArg, "the Project root the envelopes' paths begin with",
			func(b *B, a *args) error { s := a.str(0); b.root = &s; return nil }),
		step(Given, "the file {string:path} holds {text:content}", noArg, "a file on the disk (absolute path)",
			func(b *B, a *args) error { return b.file(a.str(0), a.str(1)) }),
		step(Given, "the file {string:path} holds these lines:", docArg,
			"a file on the disk: the docstring's lines, each ending with a line break",
			func(b *B, a *args) error {
				t, err := docLines(a)
				if err != nil {
					return err
				}
				return b.file(a.str(0), t)
			}),
		step(Given, "the file {string:path} is {text:text} padded with {string:pad} to {int:size} bytes", noArg,
			"a large file: the text, then one ASCII character repeated up to the size",
			func(b *B, a *args) error {
				return b.file(a.str(0), map[string]any{"text": a.str(1), "pad": a.str(2), "size": a.num(3)})
			}),
		step(Given, "the link {string:path} to {string:target}", noArg,
			"a symlink (target absolute, or relative to the link's folder)",
			func(b *B, a *args) error { return b.link(a.str(0), a.str(1)) }),
	}
}

// modulesWhens are the phrases of the session's steps and the disk's changes.
func modulesWhens() []stepDef {
	type B = modulesBuilder
	return []stepDef{
		step(When, "the session spawns", noArg, "the session starts (op spawn)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "spawn"}) }),
		step(When, "the agent touches {strings:paths}", noArg,
			"a successful Read, Write or Edit reported these absolute paths (op touch)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "touch", "paths": a.list(0)}) }),
		step(When, "the file {string:path} changes to {text:content}", noArg, "the disk changes (op change)",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "change", "files": map[string]any{a.str(0): a.str(1)}})
			}),
		step(When, "the file {string:path} changes to these lines:", docArg,
			"the disk changes: the docstring's lines, each ending with a line break",
			func(b *B, a *args) error {
				t, err := docLines(a)
				if err != nil {
					return err
				}
				return b.add(map[string]any{"op": "change", "files": map[string]any{a.str(0): t}})
			}),
		step(When, "the file {string:path} is removed", noArg, "the disk loses a file (op change, null)",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "change", "files": map[string]any{a.str(0): nil}})
			}),
		step(When, "the link {string:path} now points to {string:target}", noArg,
			"the disk changes: a link made or moved (op change)",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "change", "links": map[string]any{a.str(0): a.str(1)}})
			}),
		step(When, "the link {string:path} is removed", noArg, "the disk loses a link (op change, null)",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "change", "links": map[string]any{a.str(0): nil}})
			}),
		step(When, "the next request is made", noArg, "the next model request (op request)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "request"}) }),
		step(When, "the next request's append fails", noArg,
			`the next model request, its record's append failing (append: "fail")`,
			func(b *B, a *args) error { return b.add(map[string]any{"op": "request", "append": "fail"}) }),
		step(When, "the session is compacted", noArg, "compaction drops the instruction records (op compact)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "compact"}) }),
	}
}

// modulesThens are the phrases of what a step loads, appends, records and diagnoses.
func modulesThens() []stepDef {
	type B = modulesBuilder
	// stepOf is the Thens' item: the step a Then names by its place, which must be of one of ops.
	stepOf := func(ops ...string) func(b *B, a *args) (int, error) {
		return func(b *B, a *args) (int, error) { return b.at(a.num(0), ops...) }
	}
	spawn, request, spawnOrRequest := stepOf("spawn"), stepOf("request"), stepOf("spawn", "request")
	return []stepDef{
		thenOf("step {int:n} loads the root file {string:name}", noArg,
			"spawn's root: the root instruction file's name", spawn, path{"root"}, valWant(1)),
		thenOf("step {int:n} loads no root file", noArg, "spawn's root is null", spawn, path{"root"}, is(nil)),
		thenOf("step {int:n} loads the unconditional modules:", tableArg, "spawn's modules, in order", spawn,
			path{"modules"},
			func(a *args) (any, error) {
				return mapRows(a, 2, func(r []string) map[string]any {
					return map[string]any{"relPath": strings.TrimSpace(r[0]), "sha256": strings.TrimSpace(r[1])}
				})
			}, "relPath", "sha256"),
		thenOf("step {int:n} loads no unconditional module", noArg, "spawn's modules are []", spawn, path{"modules"},
			is([]any{})),
		thenOf("step {int:n} appends nothing", noArg, "a request's record is null", request, path{"record"}, is(nil)),
		step(Then, "step {int:n} appends {int:count} modules", noArg,
			"how many envelopes a request's record holds (0: the record is null)",
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "request")
				if err != nil {
					return err
				}
				if a.num(1) == 0 {
					return a.expect(path{i, "record"}, nil)
				}
				return a.expect(path{i, "record", "modules", length}, a.num(1))
			}),
		step(Then, "module {int:m} of step {int:n} is:", docArg, "one envelope of a request's record, counting from 1",
			func(b *B, a *args) error {
				i, err := b.at(a.num(1), "request")
				if err != nil {
					return err
				}
				m, err := a.counted(0, "modules")
				if err != nil {
					return err
				}
				return a.check(path{i, "record", "modules", m}, docWant)
			}),
		thenOf("step {int:n} records the instructions:", tableArg,
			`a request's details.instructions, in order (supersedes: a hash, or "null")`, request, path{"record",
				"instructions"},
			func(a *args) (any, error) {
				return mapRows(a, 3, func(r []string) map[string]any {
					var sup any
					if s := strings.TrimSpace(r[2]); s != "null" && s != "" {
						sup = s
					}
					return map[string]any{"relPath": strings.TrimSpace(r[0]), "sha256": strings.TrimSpace(r[1]),
						"supersedes": sup}
				})
			}, "relPath", "sha256", "supersedes"),
		thenOf("step {int:n} diagnoses:", tableArg,
			`a spawn's or request's diagnostics, by path (an empty path: none; code "null": none declared)`,
			spawnOrRequest, path{"diagnostics"},
			func(a *args) (any, error) { return diagnostics(a) }, "path", "code"),
		thenOf("step {int:n} diagnoses nothing", noArg, "a spawn's or request's diagnostics are []", spawnOrRequest,
			path{"diagnostics"}, is([]any{})),
		thenOf("step {int:n} answers nothing", noArg, "a touch, change or compact step answers null", stepOf("touch",
			"change", "compact"), nil, is(nil)),
	}
}
