// Package prompts is the reference of lembas-check's area prompts: the text the model is given of
// one of the vendored spec's prompt files (harness/spec/files/prompts), its variables filled. It is
// the one renderer of those files: the live reference agent builds its system prompt with it and
// the live target checks a harness's against it. Pure: the files are the embedded spec's.
package prompts

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
)

// Dir is where the spec keeps its prompt files; a prompt's name is its path below it.
const Dir = "prompts"

// SubagentBlock is the block that ends a subagent's system prompt in place of the mode text, and
// AgentsDir the built-in agents' own instructions, one file per agent name.
const (
	SubagentBlock = "blocks/subagent.md"
	AgentsDir     = "agents"
)

var variable = lazyre.New(`\{\{([a-z_]+)\}\}`)

// Names are the vendored prompt files, by name (blocks/context.md, agents/explore.md, …), sorted.
func Names() []string {
	var out []string
	_ = fs.WalkDir(spec.Files, Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".md" {
			out = append(out, strings.TrimPrefix(p, Dir+"/"))
		}
		return err
	})
	slices.Sort(out)
	return out
}

// Body is a prompt file as the model reads it, its variables not filled: the leading HTML comment
// left out (it says what the file is for and where it is used, to whoever maintains it), and the
// white space around the rest.
func Body(name string) (string, error) {
	if name != path.Clean(name) || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "..") {
		return "", fmt.Errorf("prompt %q: a name is a clean path below %s/", name, Dir)
	}
	b, err := spec.ReadFile(Dir + "/" + name)
	if err != nil {
		return "", fmt.Errorf("prompt %q: the spec has no %s/%s (it has %s)", name, Dir, name,
			strings.Join(Names(), ", "))
	}
	s := string(b)
	if strings.HasPrefix(s, "<!--") {
		if i := strings.Index(s, "-->"); i >= 0 {
			s = s[i+len("-->"):]
		}
	}
	return strings.TrimSpace(s), nil
}

// Variables are the {{names}} a prompt file has, in the order they first appear.
func Variables(name string) ([]string, error) {
	body, err := Body(name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range variable().FindAllStringSubmatch(body, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out, nil
}

// Text is the prompt as the model is given it: Body, each {{variable}} filled once with its value
// (a value's own braces are not filled again). vars must name exactly the file's variables.
func Text(name string, vars map[string]string) (string, error) {
	want, err := Variables(name)
	if err != nil {
		return "", err
	}
	for _, v := range want {
		if _, ok := vars[v]; !ok {
			return "", fmt.Errorf("prompt %s: no value for {{%s}} (it has %s)", name, v, braces(want))
		}
	}
	for v := range vars {
		if !slices.Contains(want, v) {
			return "", fmt.Errorf("prompt %s has no {{%s}} (it has %s)", name, v, braces(want))
		}
	}
	body, _ := Body(name)
	return spec.Render(body, vars)
}

// Subagent is the block that ends the system prompt of a subagent started as a built-in agent:
// blocks/subagent.md with {{name}} the agent's name and {{instructions}} its own instructions,
// agents/<agent>.md as the model reads it; report and readOnly are the two sentences that differ
// per run ("" when they do not apply).
func Subagent(agent, report, readOnly string) (string, error) {
	if agent == "" || strings.ContainsAny(agent, "/.") {
		return "", fmt.Errorf("agent %q: a built-in agent is a file name of %s/ without .md", agent, AgentsDir)
	}
	instructions, err := Body(AgentsDir + "/" + agent + ".md")
	if err != nil {
		return "", err
	}
	return Text(SubagentBlock, map[string]string{"name": agent, "instructions": instructions, "report": report,
		"read_only": readOnly})
}

func braces(names []string) string {
	if len(names) == 0 {
		return "no variables"
	}
	var b []string
	for _, n := range names {
		b = append(b, "{{"+n+"}}")
	}
	return strings.Join(b, ", ")
}
