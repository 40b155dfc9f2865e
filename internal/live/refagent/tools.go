package refagent

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

//go:embed tools.json
var toolsJSON []byte

// toolDef is one tool as a request offers it.
type toolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

var (
	defsOnce sync.Once
	defs     []toolDef
)

// allTools is every tool the agent has, in the order a session offers them: the vendored spec's
// own definition where it carries the tool whole, tools.json's where it does not.
func allTools() []toolDef {
	defsOnce.Do(func() {
		var own struct {
			Order []string           `json:"order"`
			Tools map[string]toolDef `json:"tools"`
		}
		if err := json.Unmarshal(toolsJSON, &own); err != nil {
			panic("internal/live/refagent/tools.json: " + err.Error())
		}
		for _, name := range own.Order {
			if t, ok := own.Tools[name]; ok {
				t.Name = name
				defs = append(defs, t)
				continue
			}
			b, err := spec.ReadFile("tools/" + name + ".json")
			if err != nil {
				panic(fmt.Sprintf("internal/live/refagent/tools.json: %s is neither described there nor vendored whole",
					name))
			}
			var t toolDef
			if err := json.Unmarshal(b, &t); err != nil {
				panic(fmt.Sprintf("harness/spec/files/tools/%s.json: %v", name, err))
			}
			defs = append(defs, t)
		}
	})
	return defs
}

// toolNames are allTools' names.
func toolNames() []string {
	var out []string
	for _, t := range allTools() {
		out = append(out, t.Name)
	}
	return out
}

// toolsBody is the request's "tools" member for the offered tools, made once per session.
func toolsBody(offered []string) json.RawMessage {
	by := map[string]toolDef{}
	for _, t := range allTools() {
		by[t.Name] = t
	}
	type fn struct {
		Type     string  `json:"type"`
		Function toolDef `json:"function"`
	}
	var out []fn
	for _, n := range offered {
		out = append(out, fn{Type: "function", Function: by[n]})
	}
	b, err := jsonx.Marshal(out)
	if err != nil {
		panic(err)
	}
	return b
}
