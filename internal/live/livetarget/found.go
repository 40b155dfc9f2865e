package livetarget

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// foundArgs are the arguments of a list, glob or grep call as a context case gives them.
type foundArgs struct {
	Path    *string `json:"path"`
	Pattern *string `json:"pattern"`
	Glob    *string `json:"glob"`
	Depth   *int    `json:"depth"`
}

// grepLine is a grep output's line as harnesses print it: path, line number, the line.
var grepLine = lazyre.New(`^([^:\n]+):([0-9]+): (.*)$`)

// foundOp is the output of a tool that prints what it finds (list, glob, grep): the tree its
// text stands for laid out on disk, then the profile's call of the tool with the case's
// arguments. The profile's call must carry each argument the case gives, for the spec compares
// a call's arguments whole (context.md §6); a text that says no tree skips the case.
func foundOp(p *agents.Profile, i int, st conformance.ContextStep, cwd string) ([]action, string, valsFn, error) {
	tool := str(st.Tool)
	var a foundArgs
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(st.Args, &keys); err != nil || json.Unmarshal(st.Args, &a) != nil {
		return nil, "", nil, skipf("step %d's %s arguments are not an object", i+1, tool)
	}
	carried := callKeys(p, tool)
	for k := range keys {
		if !carried[k] {
			return nil, "", nil, skipf("step %d's %s call has %q, which the %s profile's %s call (tools.calls.%s) "+
				"does not carry: the spec compares a call's arguments whole", i+1, tool, k, p.Name, tool, tool)
		}
	}
	files, err := foundTree(tool, a, str(st.Text))
	if err != nil {
		return nil, "", nil, skipf("step %d's %s output %v, so no tree on disk prints it", i+1, tool, err)
	}
	put := action{what: fmt.Sprintf("step %d: the tree %s finds", i+1, tool), do: func(_ context.Context,
		e *env) error {
		return layTree(e, files, cwd)
	}}
	v := func(e *env) vals {
		x := vals{}
		if a.Path != nil {
			x["path"] = e.callPath(*a.Path)
		}
		if a.Pattern != nil {
			x["pattern"] = *a.Pattern
		}
		if a.Glob != nil {
			x["glob"] = *a.Glob
		}
		if a.Depth != nil {
			x["depth"] = *a.Depth
		}
		return x
	}
	return []action{put}, tool, v, nil
}

// callKeys are the arguments the profile's call of op sends ({} when it has none).
func callKeys(p *agents.Profile, op string) map[string]bool {
	out := map[string]bool{}
	sh, ok := p.Tools.Calls[op]
	if !ok {
		return out
	}
	var m map[string]any
	json.Unmarshal(sh.Arguments, &m)
	for k := range m {
		out[k] = true
	}
	return out
}

// foundTree is the tree a found text stands for, path → content (nil: a file whose content
// does not matter, left as it is when it is there): list's entries (a first line naming the
// directory itself, and the indentation, left out; a trailing / a directory), glob's paths,
// grep's `path:line: text` lines, each under the call's path.
func foundTree(tool string, a foundArgs, text string) (map[string]*string, error) {
	dir := "."
	if a.Path != nil && *a.Path != "" {
		dir = *a.Path
	}
	under := func(p string) string {
		if dir == "." || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/") {
			return p
		}
		j := path.Join(dir, p)
		if strings.HasSuffix(p, "/") {
			j += "/" // a directory stays one
		}
		return j
	}
	files := map[string]*string{}
	if text == "" {
		return files, nil
	}
	lines := strings.Split(text, "\n")
	switch tool {
	case "list":
		for k, l := range lines {
			l = strings.TrimSpace(l)
			if k == 0 && strings.TrimSuffix(l, "/") == strings.TrimSuffix(dir, "/") {
				continue
			}
			files[under(l)] = nil
		}
	case "glob":
		for _, l := range lines {
			files[under(l)] = nil
		}
	case "grep":
		return grepTree(lines, under)
	default:
		return nil, fmt.Errorf("is %s's, whose tree lembas-check cannot lay out", tool)
	}
	return files, nil
}

// grepTree is the files whose lines grep prints: each matched line at its number, the others
// empty.
func grepTree(lines []string, under func(string) string) (map[string]*string, error) {
	byFile := map[string]map[int]string{}
	for _, l := range lines {
		m := grepLine().FindStringSubmatch(l)
		if m == nil {
			return nil, fmt.Errorf("has the line %q, which is not `path:line: text`", l)
		}
		n, _ := strconv.Atoi(m[2])
		f := under(m[1])
		if byFile[f] == nil {
			byFile[f] = map[int]string{}
		}
		byFile[f][n] = m[3]
	}
	files := map[string]*string{}
	for f, at := range byFile {
		last := 0
		for n := range at {
			last = max(last, n)
		}
		ls := make([]string, last)
		for n, t := range at {
			ls[n-1] = t
		}
		c := strings.Join(ls, "\n") + "\n"
		files[f] = &c
	}
	return files, nil
}

// layTree puts a found text's files on disk: a directory made, a file written where its content
// matters, else made empty when it is not there (a read before it may have put it).
func layTree(e *env, files map[string]*string, cwd string) error {
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		real := e.real(f, cwd)
		if strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(real, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			return err
		}
		c := files[f]
		if c == nil {
			if _, err := os.Stat(real); err == nil {
				continue
			}
			c = new(string)
		}
		if err := os.WriteFile(real, []byte(*c), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// foundBodies writes each found output's body as the case's text: the harness prints a tree in
// its own form (the spec fixes no list, glob or grep format), so the body it printed first for a
// case's text stands for that text where each text has its own body and each body its text;
// else the bodies are left as printed, and the diff shows them.
func foundBodies(steps []conformance.ContextStep, got []string) {
	body := map[string]string{} // a case's text → the harness's first full body for it
	text := map[string]string{} // and back
	clash := false
	for i, st := range steps {
		if !isFound(st) {
			continue
		}
		head, b, ok := strings.Cut(got[i], "\n")
		if !ok || !strings.HasPrefix(head, "[") {
			continue
		}
		t := str(st.Text)
		if _, seen := body[t]; !seen {
			body[t] = b
			if other, seen := text[b]; seen && other != t {
				clash = true
			}
			text[b] = t
		}
	}
	if clash {
		return
	}
	for i, st := range steps {
		head, b, ok := strings.Cut(got[i], "\n")
		if isFound(st) && ok && strings.HasPrefix(head, "[") && body[str(st.Text)] == b {
			got[i] = head + "\n" + str(st.Text)
		}
	}
}

func isFound(st conformance.ContextStep) bool {
	return st.Op == "output" && isFoundTool(str(st.Tool))
}

// isFoundTool says whether lembas-check lays a tree out for a tool's output.
func isFoundTool(tool string) bool { return tool == "list" || tool == "glob" || tool == "grep" }
