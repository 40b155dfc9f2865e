package steps

import (
	"fmt"
)

// One of lembas-check's own areas (seeds/002). Its Thens, like prefix's, name a step by its
// place among the Whens.

// workspace: per-session workspace roots on a real disk. Givens lay out the disk, its links, the
// serve's directory and the registered roots; each When is one step; Thens name a step.

type workspaceBuilder struct {
	fields map[string]any
	steps  []map[string]any
}

func (b *workspaceBuilder) Case() (map[string]any, error) {
	switch {
	case b.fields["tree"] == nil:
		return nil, fmt.Errorf("no disk: lay it out with `Given the disk:`")
	case b.fields["default"] == nil:
		return nil, fmt.Errorf("no serve directory: say it with `Given the serve's own directory is \"/srv/app\"`")
	case len(b.steps) == 0:
		return nil, fmt.Errorf("no steps: a When is one step, e.g. `When a session is made in \"/srv/app\"`")
	}
	c := map[string]any{"steps": b.steps}
	for k, v := range b.fields {
		c[k] = v
	}
	return c, nil
}

func (b *workspaceBuilder) add(s map[string]any) error { b.steps = append(b.steps, s); return nil }

func (b *workspaceBuilder) at(n int) (int, error) { return stepIndex(n, len(b.steps)) }

// Workspace is the vocabulary of area workspace: per-session workspace roots.
var Workspace = &Vocabulary{newBuilder: func() builder { return &workspaceBuilder{fields: map[string]any{}} },
	define: workspaceSteps}

func workspaceSteps() []stepDef {
	type B = workspaceBuilder
	add := (*B).add
	fields := func(b *B) map[string]any { return b.fields }
	// at is the Thens' item: the step a Then names by its place among the Whens.
	at := func(b *B, a *args) (int, error) { return b.at(a.num(0)) }
	return []stepDef{
		step(Given, "the disk:", tableArg, "the disk's paths, one a row; a directory ends with /, parents are implied",
			setFrom(fields, "tree", pathRows), "path"),
		step(Given, "the link {string:path} to {string:target}", noArg,
			"a symlink, its target as written on disk (absolute, or relative to the link's folder)",
			func(b *B, a *args) error {
				links, _ := b.fields["links"].(map[string]any)
				if links == nil {
					links = map[string]any{}
					b.fields["links"] = links
				}
				links[a.str(0)] = a.str(1)
				return nil
			}),
		step(Given, "the serve's own directory is {string:dir}", noArg, "the default root, always a root",
			func(b *B, a *args) error { b.fields["default"] = a.str(0); return nil }),
		step(Given, "the registered roots {strings:roots}", noArg,
			"the roots registered besides the default (without this step: none, the legacy serve)",
			func(b *B, a *args) error { b.fields["roots"] = a.list(0); return nil }),
		step(Given, "no root is registered", noArg, "roots absent: the legacy serve, the default root only",
			func(b *B, a *args) error { delete(b.fields, "roots"); return nil }),
		step(When, "a session is made in {string:cwd}", noArg, "session/new with a cwd",
			addOp(add, "new", "cwd")),
		step(When, "a session is made with no cwd", noArg, "session/new without a cwd",
			addOp(add, "new")),
		step(When, "the session is loaded in {string:cwd}", noArg, "session/load (or resume) with a cwd",
			addOp(add, "load", "cwd")),
		step(When, "the session is loaded with no cwd", noArg, "session/load without a cwd",
			addOp(add, "load")),
		step(When, "the session's root is set to {string:cwd}", noArg, "set_config_option for the workspace root",
			addOp(add, "set_root", "cwd")),
		step(When, "the workspace-root picker is asked for", noArg, "the picker's options",
			addOp(add, "options")),
		step(When, "the session reads {string:path}", noArg,
			"local_fs reads a path (absolute, or relative to the root)",
			addOp(add, "read", "path")),
		step(When, "the session writes {string:path}", noArg, "local_fs writes a path",
			addOp(add, "write", "path")),
		step(When, "/files is asked for {string:path} in the root {string:root}", noArg,
			"a /files request with its root parameter",
			addOp(add, "files", "path", "root")),
		step(When, "/files is asked for {string:path}", noArg, "a /files request without a root parameter",
			addOp(add, "files", "path")),
		thenOf("step {int:n} works in the root {string:root}", noArg, `the step answers {"root": …}`, at, nil,
			field("root", valWant(1))),
		thenOf("step {int:n} finds {string:path}", noArg, `the step answers {"path": …}: where the path really is`, at,
			nil, field("path", valWant(1))),
		thenOf(
			"step {int:n} is refused as {word:error}",
			noArg,
			`the step answers {"error": …}: not_absolute, not_allowed, immutable, no_session, escape, `+
				`not_found or loop`,
			at,
			nil,
			field("error", valWant(1)),
		),
		thenOf("step {int:n} offers the roots {strings:roots}", noArg, `the picker answers {"roots": […]}`, at, nil,
			field("roots", valWant(1))),
		thenOf("step {int:n} offers no picker", noArg, `the picker answers {"roots": null}`, at, nil,
			is(map[string]any{"roots": nil})),
	}
}
