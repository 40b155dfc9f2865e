package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/prompts"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

func TestPromptsRefusesMalformedCases(t *testing.T) {
	for _, c := range []struct{ name, json, field, want string }{
		{"no prompt", `{"vars": {}}`, "prompt", "missing"},
		{"no vars", `{"prompt": "agents/general.md"}`, "vars", "missing"},
		{"unknown file", `{"prompt": "blocks/skills.md", "vars": {}}`, "prompt", "the spec has no"},
		{"missing var", `{"prompt": "blocks/subagent.md", "vars": {"name": "x"}}`, "prompt", "no value for"},
		{"extra var", `{"prompt": "agents/general.md", "vars": {"x": ""}}`, "prompt", "has no {{x}}"},
		{"agent elsewhere", `{"prompt": "agents/general.md", "agent": "explore", "vars": {}}`, "agent",
			"blocks/subagent.md's"},
		{"agent and name", `{"prompt": "blocks/subagent.md", "agent": "explore", "vars": {"name": "x"}}`,
			"vars.name", "the agent's"},
		{"agent no report", `{"prompt": "blocks/subagent.md", "agent": "explore", "vars": {"read_only": ""}}`,
			"vars.report", "missing"},
		{"unknown agent", `{"prompt": "blocks/subagent.md", "agent": "plan", "vars": {"report": "", "read_only": ""}}`,
			"agent", "the spec has no prompts/agents/plan.md"},
	} {
		_, err := Prompts.Decode(json.RawMessage(c.json))
		wantField(t, c.name, err, c.field, c.want)
	}
	_, err := Prompts.DecodeAnswer(json.RawMessage(`{}`))
	wantField(t, "empty answer", err, "text", "missing")
}

// brokenPrompts are renderers each with one rule of the area broken: every case of
// cases/prompts.json must fail under one of them, and each must fail a case.
var brokenPrompts = map[string]func(c promptsCase) string{
	"the leading comment kept": func(c promptsCase) string {
		b, _ := spec.ReadFile("prompts/" + c.Prompt)
		s := string(b)
		return strings.TrimSpace(s[:strings.Index(s, "-->")+3] + "\n" + mustText(c))
	},
	"the file's final line break kept": func(c promptsCase) string { return mustText(c) + "\n" },
	"a value filled again as a template": func(c promptsCase) string {
		s := mustText(c)
		for k, v := range c.Vars {
			s = strings.ReplaceAll(s, "{{"+k+"}}", v)
		}
		return s
	},
	"the other agent's instructions": func(c promptsCase) string {
		if c.Agent == nil {
			return mustText(c)
		}
		other := map[string]string{"explore": "general", "general": "explore"}[*c.Agent]
		s, _ := prompts.Subagent(other, c.Vars["report"], c.Vars["read_only"])
		return strings.ReplaceAll(s, `"`+other+`"`, `"`+*c.Agent+`"`)
	},
}

func mustText(c promptsCase) string {
	s, err := c.text()
	if err != nil {
		panic(err)
	}
	return s
}

func TestPromptsCasesFailABrokenRenderer(t *testing.T) {
	cases, err := Load(EmbeddedSuites(), All())
	if err != nil {
		t.Fatal(err)
	}
	caught := map[string]int{}
	n := 0
	for _, c := range cases {
		if c.Area != "prompts" {
			continue
		}
		n++
		failed := false
		for name, render := range brokenPrompts {
			got, _ := json.Marshal(map[string]string{"text": render(c.Decoded.(promptsCase))})
			if Diff(c.Expect, got) != "" {
				failed = true
				caught[name]++
			}
		}
		if !failed {
			t.Errorf("%s (%s) passes every broken renderer", c.ID, c.About)
		}
	}
	if n < 8 {
		t.Errorf("%d prompts cases, want the 8 of cases/prompts.json at least", n)
	}
	for name := range brokenPrompts {
		if caught[name] == 0 {
			t.Errorf("no case fails the renderer with %s", name)
		}
	}
}
