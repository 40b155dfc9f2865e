package gherkin

import (
	"fmt"
	"strconv"
	"strings"
)

// lembas-check's own areas: modules (seeds/004), workspace (seeds/002) and search (filesystem.md,
// A search). Their Thens, like prefix's, name a step by its place among the Whens.

// stepIndex is the answer's index of step n (from 1) of a scenario with count steps.
func stepIndex(n, count int) (int, error) {
	if n < 1 || n > count {
		return 0, fmt.Errorf("the scenario has %d steps (one a When), no step %d", count, n)
	}
	return n - 1, nil
}

// search: one search over a session's view. Givens lay out the view (as fs_access's) and the
// passages the index holds with their scores; the When is the search; Thens say the results.

type searchBuilder struct {
	fields   map[string]any
	searched bool
}

func (b *searchBuilder) Case() (map[string]any, error) {
	if _, ok := b.fields["tree"]; !ok {
		return nil, fmt.Errorf("no tree: lay it out with `Given the tree:`")
	}
	if _, ok := b.fields["passages"]; !ok {
		return nil, fmt.Errorf("no passages: say what the index holds with `Given the passages:` (or `Given no passages`)")
	}
	if !b.searched {
		return nil, fmt.Errorf("no search: a When says it, e.g. `When the session searches everything`")
	}
	return b.fields, nil
}

func (b *searchBuilder) search(p *string, limit int) error {
	if b.searched {
		return fmt.Errorf("this scenario already searches: a case is one search")
	}
	b.searched = true
	if p != nil {
		b.fields["path"] = *p
	}
	if limit > 0 {
		b.fields["limit"] = limit
	}
	return nil
}

// score reads a score cell: a number, or empty when that search did not return the passage.
func score(cell string) (any, bool, error) {
	cell = strings.TrimSpace(cell)
	if cell == "" || cell == "-" {
		return nil, false, nil
	}
	f, err := strconv.ParseFloat(cell, 64)
	if err != nil {
		return nil, false, fmt.Errorf("score %q is not a number (leave the cell empty when that search did not return the passage)", cell)
	}
	return f, true, nil
}

// result is a search result as the answer writes it: the passage's place, a line break, the text.
func result(where, text string) string { return where + "\n" + text }

func init() {
	type B = searchBuilder
	steps := viewSteps(func(b *B) map[string]any { return b.fields })
	steps = append(steps,
		step(given, "the passages:", tableArg, "what the index holds for the query: path, lines (start-end), meaning and words scores (empty: not returned by that search), text (\\n for a line break)",
			func(b *B, a *args) error {
				rows, err := a.rows(5)
				if err != nil {
					return err
				}
				ps := []any{}
				for i, r := range rows {
					var start, end int
					if _, err := fmt.Sscanf(strings.TrimSpace(r[1]), "%d-%d", &start, &end); err != nil {
						return fmt.Errorf("row %d: lines %q: want START-END", i+1, r[1])
					}
					p := map[string]any{"path": strings.TrimSpace(r[0]), "lines": []int{start, end}, "text": r[4]}
					for _, s := range []struct {
						key, cell string
					}{{"meaning", r[2]}, {"words", r[3]}} {
						v, ok, err := score(s.cell)
						if err != nil {
							return fmt.Errorf("row %d: %v", i+1, err)
						}
						if ok {
							p[s.key] = v
						}
					}
					ps = append(ps, p)
				}
				b.fields["passages"] = ps
				return nil
			}, "path", "lines", "meaning", "words", "text"),
		step(given, "no passages", noArg, "the index holds nothing for the query",
			func(b *B, a *args) error { b.fields["passages"] = []any{}; return nil }),
		step(when, "the session searches everything", noArg, "a search without path or limit",
			func(b *B, a *args) error { return b.search(nil, 0) }),
		step(when, "the session searches everything for {int:limit} results", noArg, "a search without path, with a limit",
			func(b *B, a *args) error { return b.search(nil, a.num(0)) }),
		step(when, "the session searches {string:path}", noArg, "a search of one directory",
			func(b *B, a *args) error { p := a.str(0); return b.search(&p, 0) }),
		step(when, "the session searches {string:path} for {int:limit} results", noArg, "a search of one directory, with a limit",
			func(b *B, a *args) error { p := a.str(0); return b.search(&p, a.num(1)) }),
		step(then, "the results are, best first:", tableArg, "every result in order: its path and line range (PATH:START-END), and the passage",
			func(b *B, a *args) error {
				rows, err := a.rows(2)
				if err != nil {
					return err
				}
				rs := []string{}
				for _, r := range rows {
					rs = append(rs, result(strings.TrimSpace(r[0]), r[1]))
				}
				return a.expect(nil, map[string]any{"results": rs})
			}, "result", "passage"),
		step(then, "there are no results", noArg, `the answer is {"results": []}`,
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"results": []string{}}) }),
		step(then, "there are {int:n} results", noArg, "how many results",
			func(b *B, a *args) error { return a.expect(path{"results", length}, a.num(0)) }),
		step(then, "result {int:n} is {string:where}", noArg, "the first line of one result (PATH:START-END), counting from 1",
			func(b *B, a *args) error {
				if a.num(0) < 1 {
					return fmt.Errorf("results count from 1")
				}
				return a.expect(path{"results", a.num(0) - 1, firstLine}, a.str(1))
			}),
		step(then, "it fails with {text:error}", noArg, `the answer is {"error": …}, the error's exact text`,
			func(b *B, a *args) error { return a.expect(nil, map[string]any{"error": a.str(0)}) }),
	)
	register("search", func() builder { return &B{fields: map[string]any{}} }, steps...)
}

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

func (b *workspaceBuilder) expect(a *args, n int, want map[string]any) error {
	i, err := b.at(n)
	if err != nil {
		return err
	}
	return a.expect(path{i}, want)
}

func init() {
	type B = workspaceBuilder
	register("workspace", func() builder { return &B{fields: map[string]any{}} },
		step(given, "the disk:", tableArg, "the disk's paths, one a row; a directory ends with /, parents are implied",
			func(b *B, a *args) error {
				t, err := pathRows(a)
				b.fields["tree"] = t
				return err
			}, "path"),
		step(given, "the link {string:path} to {string:target}", noArg, "a symlink, its target as written on disk (absolute, or relative to the link's folder)",
			func(b *B, a *args) error {
				links, _ := b.fields["links"].(map[string]any)
				if links == nil {
					links = map[string]any{}
					b.fields["links"] = links
				}
				links[a.str(0)] = a.str(1)
				return nil
			}),
		step(given, "the serve's own directory is {string:dir}", noArg, "the default root, always a root",
			func(b *B, a *args) error { b.fields["default"] = a.str(0); return nil }),
		step(given, "the registered roots {strings:roots}", noArg, "the roots registered besides the default (without this step: none, the legacy serve)",
			func(b *B, a *args) error { b.fields["roots"] = a.list(0); return nil }),
		step(given, "no root is registered", noArg, "roots absent: the legacy serve, the default root only",
			func(b *B, a *args) error { delete(b.fields, "roots"); return nil }),
		step(when, "a session is made in {string:cwd}", noArg, "session/new with a cwd",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "new", "cwd": a.str(0)}) }),
		step(when, "a session is made with no cwd", noArg, "session/new without a cwd",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "new"}) }),
		step(when, "the session is loaded in {string:cwd}", noArg, "session/load (or resume) with a cwd",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "load", "cwd": a.str(0)}) }),
		step(when, "the session is loaded with no cwd", noArg, "session/load without a cwd",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "load"}) }),
		step(when, "the session's root is set to {string:cwd}", noArg, "set_config_option for the workspace root",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "set_root", "cwd": a.str(0)}) }),
		step(when, "the workspace-root picker is asked for", noArg, "the picker's options",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "options"}) }),
		step(when, "the session reads {string:path}", noArg, "local_fs reads a path (absolute, or relative to the root)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "read", "path": a.str(0)}) }),
		step(when, "the session writes {string:path}", noArg, "local_fs writes a path",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "write", "path": a.str(0)}) }),
		step(when, "/files is asked for {string:path} in the root {string:root}", noArg, "a /files request with its root parameter",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "files", "path": a.str(0), "root": a.str(1)})
			}),
		step(when, "/files is asked for {string:path}", noArg, "a /files request without a root parameter",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "files", "path": a.str(0)}) }),
		step(then, "step {int:n} works in the root {string:root}", noArg, `the step answers {"root": …}`,
			func(b *B, a *args) error { return b.expect(a, a.num(0), map[string]any{"root": a.str(1)}) }),
		step(then, "step {int:n} finds {string:path}", noArg, `the step answers {"path": …}: where the path really is`,
			func(b *B, a *args) error { return b.expect(a, a.num(0), map[string]any{"path": a.str(1)}) }),
		step(then, "step {int:n} is refused as {word:error}", noArg, `the step answers {"error": …}: not_absolute, not_allowed, immutable, no_session, escape, not_found or loop`,
			func(b *B, a *args) error { return b.expect(a, a.num(0), map[string]any{"error": a.str(1)}) }),
		step(then, "step {int:n} offers the roots {strings:roots}", noArg, `the picker answers {"roots": […]}`,
			func(b *B, a *args) error { return b.expect(a, a.num(0), map[string]any{"roots": a.list(1)}) }),
		step(then, "step {int:n} offers no picker", noArg, `the picker answers {"roots": null}`,
			func(b *B, a *args) error { return b.expect(a, a.num(0), map[string]any{"roots": nil}) }),
	)
}

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
var errLate = fmt.Errorf("a Given describes the disk the session starts with, before the first When; a later change is `When the file … changes to …`")

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
func diagnostics(a *args) ([]any, error) {
	rows, err := a.rows(2)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, r := range rows {
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
		out = append(out, d)
	}
	return out, nil
}

func init() {
	type B = modulesBuilder
	register("modules", func() builder { return &B{files: map[string]any{}, links: map[string]any{}} },
		step(given, "the project root is {string:dir}", noArg, "the Project root the envelopes' paths begin with",
			func(b *B, a *args) error { s := a.str(0); b.root = &s; return nil }),
		step(given, "the file {string:path} holds {text:content}", noArg, "a file on the disk (absolute path)",
			func(b *B, a *args) error { return b.file(a.str(0), a.str(1)) }),
		step(given, "the file {string:path} holds these lines:", docArg, "a file on the disk: the docstring's lines, each ending with a line break",
			func(b *B, a *args) error {
				t, err := docLines(a)
				if err != nil {
					return err
				}
				return b.file(a.str(0), t)
			}),
		step(given, "the file {string:path} is {text:text} padded with {string:pad} to {int:size} bytes", noArg, "a large file: the text, then one ASCII character repeated up to the size",
			func(b *B, a *args) error {
				return b.file(a.str(0), map[string]any{"text": a.str(1), "pad": a.str(2), "size": a.num(3)})
			}),
		step(given, "the link {string:path} to {string:target}", noArg, "a symlink (target absolute, or relative to the link's folder)",
			func(b *B, a *args) error { return b.link(a.str(0), a.str(1)) }),
		step(when, "the session spawns", noArg, "the session starts (op spawn)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "spawn"}) }),
		step(when, "the agent touches {strings:paths}", noArg, "a successful Read, Write or Edit reported these absolute paths (op touch)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "touch", "paths": a.list(0)}) }),
		step(when, "the file {string:path} changes to {text:content}", noArg, "the disk changes (op change)",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "change", "files": map[string]any{a.str(0): a.str(1)}})
			}),
		step(when, "the file {string:path} changes to these lines:", docArg, "the disk changes: the docstring's lines, each ending with a line break",
			func(b *B, a *args) error {
				t, err := docLines(a)
				if err != nil {
					return err
				}
				return b.add(map[string]any{"op": "change", "files": map[string]any{a.str(0): t}})
			}),
		step(when, "the file {string:path} is removed", noArg, "the disk loses a file (op change, null)",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "change", "files": map[string]any{a.str(0): nil}})
			}),
		step(when, "the link {string:path} now points to {string:target}", noArg, "the disk changes: a link made or moved (op change)",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "change", "links": map[string]any{a.str(0): a.str(1)}})
			}),
		step(when, "the link {string:path} is removed", noArg, "the disk loses a link (op change, null)",
			func(b *B, a *args) error {
				return b.add(map[string]any{"op": "change", "links": map[string]any{a.str(0): nil}})
			}),
		step(when, "the next request is made", noArg, "the next model request (op request)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "request"}) }),
		step(when, "the next request's append fails", noArg, `the next model request, its record's append failing (append: "fail")`,
			func(b *B, a *args) error { return b.add(map[string]any{"op": "request", "append": "fail"}) }),
		step(when, "the session is compacted", noArg, "compaction drops the instruction records (op compact)",
			func(b *B, a *args) error { return b.add(map[string]any{"op": "compact"}) }),

		step(then, "step {int:n} loads the root file {string:name}", noArg, "spawn's root: the root instruction file's name",
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "spawn")
				if err != nil {
					return err
				}
				return a.expect(path{i, "root"}, a.str(1))
			}),
		step(then, "step {int:n} loads no root file", noArg, "spawn's root is null",
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "spawn")
				if err != nil {
					return err
				}
				return a.expect(path{i, "root"}, nil)
			}),
		step(then, "step {int:n} loads the unconditional modules:", tableArg, "spawn's modules, in order",
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "spawn")
				if err != nil {
					return err
				}
				rows, err := a.rows(2)
				if err != nil {
					return err
				}
				ms := []any{}
				for _, r := range rows {
					ms = append(ms, map[string]any{"relPath": strings.TrimSpace(r[0]), "sha256": strings.TrimSpace(r[1])})
				}
				return a.expect(path{i, "modules"}, ms)
			}, "relPath", "sha256"),
		step(then, "step {int:n} loads no unconditional module", noArg, "spawn's modules are []",
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "spawn")
				if err != nil {
					return err
				}
				return a.expect(path{i, "modules"}, []any{})
			}),
		step(then, "step {int:n} appends nothing", noArg, "a request's record is null",
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "request")
				if err != nil {
					return err
				}
				return a.expect(path{i, "record"}, nil)
			}),
		step(then, "step {int:n} appends {int:count} modules", noArg, "how many envelopes a request's record holds (0: the record is null)",
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
		step(then, "module {int:m} of step {int:n} is:", docArg, "one envelope of a request's record, counting from 1",
			func(b *B, a *args) error {
				i, err := b.at(a.num(1), "request")
				if err != nil {
					return err
				}
				if a.num(0) < 1 {
					return fmt.Errorf("modules count from 1")
				}
				t, err := a.text()
				if err != nil {
					return err
				}
				return a.expect(path{i, "record", "modules", a.num(0) - 1}, t)
			}),
		step(then, "step {int:n} records the instructions:", tableArg, `a request's details.instructions, in order (supersedes: a hash, or "null")`,
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "request")
				if err != nil {
					return err
				}
				rows, err := a.rows(3)
				if err != nil {
					return err
				}
				is := []any{}
				for _, r := range rows {
					var sup any
					if s := strings.TrimSpace(r[2]); s != "null" && s != "" {
						sup = s
					}
					is = append(is, map[string]any{"relPath": strings.TrimSpace(r[0]), "sha256": strings.TrimSpace(r[1]), "supersedes": sup})
				}
				return a.expect(path{i, "record", "instructions"}, is)
			}, "relPath", "sha256", "supersedes"),
		step(then, "step {int:n} diagnoses:", tableArg, `a spawn's or request's diagnostics, by path (an empty path: none; code "null": none declared)`,
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "spawn", "request")
				if err != nil {
					return err
				}
				ds, err := diagnostics(a)
				if err != nil {
					return err
				}
				return a.expect(path{i, "diagnostics"}, ds)
			}, "path", "code"),
		step(then, "step {int:n} diagnoses nothing", noArg, "a spawn's or request's diagnostics are []",
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "spawn", "request")
				if err != nil {
					return err
				}
				return a.expect(path{i, "diagnostics"}, []any{})
			}),
		step(then, "step {int:n} answers nothing", noArg, "a touch, change or compact step answers null",
			func(b *B, a *args) error {
				i, err := b.at(a.num(0), "touch", "change", "compact")
				if err != nil {
					return err
				}
				return a.expect(path{i}, nil)
			}),
	)
}
